#pragma once
// `launchlab-cli occupancy`: an implementation's kernels over block sizes (launchlab/explorer/occupancy_report.h), as
// text.
#include <string>
#include <variant>

#include "launchlab/engine/engine.h"
#include "launchlab/explorer/occupancy_report.h"

namespace launchlab::cli {

struct OccupancyOptions {
  RequestText text;        ///< workload, impl (one id), n, dtype, block (a list or range), grid (one value or auto)
  std::string gpuProfile;  ///< "sm_86": theoretical figures of that profile even on a GPU
  std::string json;
};

/// The report, or the first problem with the options (its field names the option). On a GPU without --gpu-profile
/// each block is run once (1 repetition, no warm-up) so the CUDA API's figures and the launched grid join it.
std::variant<OccupancyReport, RequestProblem> occupancyFor(Engine& engine, const OccupancyOptions& o);

/// The label, notes, one line per kernel and block (resources, blocks/SM, occupancy, limiter, grid, waves, the
/// API's blocks/SM where known) and the hints under it.
std::string renderOccupancy(const OccupancyReport& r);

}  // namespace launchlab::cli
