#pragma once
// launchlab-cli render (one output drawn by the GL renderer into a PNG) and bench-render (its frame breakdown).
#include <stdexcept>
#include <string>

#include "launchlab/engine/engine.h"
#include "launchlab/engine/request.h"

namespace CLI {
class App;
}

namespace launchlab::cli {

/// Bad render input (a size, a range, an output name): the CLI prints it as one line, exit 2.
struct RenderInputError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct RenderOptions {
  std::string output, png, size = "1280x720", range;
  bool hostUpload = false, allowSoftware = false;
};
void addRenderOptions(CLI::App* cmd, RenderOptions& o);
/// Runs `req` (its outputs kept) and renders output o.output of the chosen implementation into o.png; prints one
/// line naming the path that drew it. 0 ok, 1 no GPU/EGL (without --allow-software) or a failed run; throws
/// RenderInputError for bad input.
int cmdRender(Engine& engine, RunRequest req, const RenderOptions& o);

/// bench-render: map/kernel/unmap/draw/readback per frame for waveforms of 2^20..2^27 samples (zoom and pan), the
/// interop path against the host path as a ratio, and per-view frame rates. 1 with one line without a GPU.
int cmdBenchRender(Engine& engine, const std::string& json, bool quick);

}  // namespace launchlab::cli
