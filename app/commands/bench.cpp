// `launchlab-cli bench`: the foundation's figures (runBench, app/bench.cpp).
#include "bench.h"

#include "command.h"

namespace launchlab::cli {

Command addBenchCommand(CLI::App& app) {
  struct Options {
    BenchOptions bench;
    std::string device;
  };
  auto o = std::make_shared<Options>();
  auto* cmd =
      app.add_subcommand("bench", "Measure the foundation's figures (bandwidth ceilings and the first workloads)");
  cmd->add_option("--json", o->bench.json, "Write the figures as JSON to FILE, or - for stdout");
  cmd->add_flag("--quick", o->bench.quick, "Small sizes (a smoke test, not a measurement)");
  cmd->add_option("--reps", o->bench.reps, "Timed repetitions per point")->default_val(20);
  cmd->add_option("--section", o->bench.sections,
                  "Only these parts, comma-separated: host, foundation, memory, coalescing, row_col_sums, matmul, "
                  "mandelbrot (default: all)")
      ->delimiter(',');
  addDeviceOption(cmd, o->device);
  return {.app = cmd, .run = [o](Context& ctx) {
            checkOutputFile("--json", o->bench.json);
            if (const std::string bad = checkBenchSections(o->bench.sections); !bad.empty())
              throw BadUsage("--section: " + bad);
            checkRepetitions(o->bench.reps);
            selectDevice(ctx.engine, o->device);
            return runBench(ctx.engine, o->bench);
          }};
}

}  // namespace launchlab::cli
