#pragma once
// `launchlab-cli bench-geometry`: the GPU M4 decimation (kernels/render/plot_geometry_gpu.h) timed at 2^20, 2^24 and
// 2^27 f32 samples into several column counts; a table, and JSON with --json.
#include <string>

namespace CLI {
class App;
}

namespace launchlab::cli {

struct BenchGeometryOptions {
  std::string json;  ///< FILE, or - for stdout
  int reps = 20;
};

/// Adds the subcommand to `app`; its options land in `o`.
CLI::App* addBenchGeometry(CLI::App& app, BenchGeometryOptions& o);
/// Runs it: 0, or 1 with one line on stderr without a usable GPU (or when a timing failed).
int runBenchGeometry(const BenchGeometryOptions& o);

}  // namespace launchlab::cli
