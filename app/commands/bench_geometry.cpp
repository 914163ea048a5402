// `launchlab-cli bench-geometry`: the GPU M4 decimation timed (cli_bench_geometry.cpp); needs no engine.
#include "cli_bench_geometry.h"
#include "command.h"

namespace launchlab::cli {

Command addBenchGeometryCommand(CLI::App& app) {
  auto o = std::make_shared<BenchGeometryOptions>();
  return {.app = addBenchGeometry(app, *o), .runAlone = [o] { return runBenchGeometry(*o); }};
}

}  // namespace launchlab::cli
