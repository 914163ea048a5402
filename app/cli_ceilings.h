#pragma once
// `launchlab-cli ceilings`: the roofline's ceilings (launchlab/explorer/roofline.h), measured on the GPU, or from an
// architecture profile's datasheet without one (or with --gpu-profile).
#include <string>
#include <variant>

#include "launchlab/engine/engine.h"
#include "launchlab/explorer/roofline.h"

namespace launchlab::cli {

struct CeilingsOptions {
  std::string gpuProfile;  ///< "sm_86": that profile's datasheet even on a GPU
  std::string json;
  int reps = 10;
};

struct CeilingsReport {
  Ceilings ceilings;
  std::string note;  ///< e.g. "no GPU here (CPU-only build): the datasheet of the default profile sm_90"
};

/// Measured on the selected device when there is one and no --gpu-profile; the profile's datasheet otherwise. A
/// problem names the option (an unknown profile).
std::variant<CeilingsReport, RequestProblem> ceilingsFor(Engine& engine, const CeilingsOptions& o);
/// The label, both roofs, the ridge point and the note.
std::string renderCeilings(const CeilingsReport& r);

}  // namespace launchlab::cli
