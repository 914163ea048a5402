#pragma once
/// An implementation's occupancy over block sizes: for each of its kernels (their resource usage recorded at build
/// time) and each block, blocks per SM, occupancy, limiters, the waves of the launch's grid and launch hints; on a
/// GPU the CUDA occupancy API's answer beside it. `launchlab-cli occupancy` and the window's curve use it.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "launchlab/engine/workload.h"
#include "launchlab/explorer/kernel_resources.h"
#include "launchlab/explorer/occupancy.h"

namespace launchlab {

struct OccupancyRow {
  KernelRecord kernel;
  Dim3 block;
  std::uint64_t gridBlocks = 0;
  Occupancy occupancy;
  Waves waves;
  std::vector<std::string> hints;
  std::optional<ApiOccupancy> api;  ///< on a GPU, when the run launched this kernel with this block
};

struct OccupancyReport {
  std::string workload, implId;
  ArchProfile profile;
  bool theoretical = true;         ///< no GPU: the profile's figures
  std::string label;               ///< "theoretical (profile sm_90, GPU NVIDIA H100 SXM5)" or "NVIDIA H200 (sm_90)"
  std::string resourcesArch;       ///< the architecture whose recorded resource usage is used
  std::vector<std::string> notes;  ///< e.g. which kernels, a substitute architecture, how the grid was chosen
  std::vector<OccupancyRow> rows;
};

/// The grid of one block size: the given one, or None to cover `n` elements with one thread each.
struct GridChoice {
  std::optional<Dim3> grid;
  std::uint64_t n = 0;
};

/// The report for `impl` of `w` over `blocks`. `records`: every kernel recorded at build time. `profile` is the
/// device's (theoretical = false) or a named one. Without records for the profile's architecture the nearest
/// recorded one is used and a note says so. An implementation without kernels gives no rows and a note.
OccupancyReport occupancyReport(const WorkloadInfo& w, const ImplSpec& impl, const std::vector<KernelRecord>& records,
                                const ArchProfile& profile, bool theoretical, const std::vector<Dim3>& blocks,
                                const GridChoice& grid, std::optional<DType> dtype);
/// Adds the CUDA API's answers to the rows they match (same mangled name and block threads); the launched grid and
/// dynamic shared memory they carry replace the report's assumptions.
void attachApiOccupancy(OccupancyReport& report, const std::vector<ApiOccupancy>& api);

/// JSON (schema "launchlab.occupancy", docs/JSON_SCHEMA.md).
std::string occupancyReportJson(const OccupancyReport& report);

}  // namespace launchlab
