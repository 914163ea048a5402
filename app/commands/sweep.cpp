// `launchlab-cli sweep`: implementations measured over axes (cmdSweep, cli_commands.cpp).
#include "command.h"

namespace launchlab::cli {

Command addSweepCommand(CLI::App& app) {
  auto o = std::make_shared<SweepOptions>();
  auto* cmd =
      app.add_subcommand("sweep", "Measure implementations over axes of launch shapes, sizes, dtypes or parameters");
  addRequestOptions(cmd, o->run);
  cmd->add_option("--block", o->run.text.block, "Block axis: 32:1024:32, 64,128,256, 16x16, or auto")
      ->default_str("auto");
  cmd->add_option("--grid", o->run.text.grid,
                  "Grid axis: 132:4224:132, sm*1:sm*32:sm*1 (multiples of the SM count), a list, or auto")
      ->default_str("auto");
  cmd->add_option("--csv", o->csv, "Write the points as CSV to FILE, or - for stdout");
  cmd->add_option("--json", o->run.json, "Write the points as JSON to FILE, or - for stdout");
  addKernelOptions(cmd, o->run.kernel, false);
  cmd->add_flag("--counters{auto}", o->run.counterSource,
                "Also record counters at every point (--metrics, default: the memory lessons'): hardware (CUPTI), "
                "accesses (measured from the kernel's own accesses, no admin rights) or auto");
  cmd->add_option("--metrics", o->run.metrics,
                  "With --counters: the counters recorded per point, comma-separated (a column each)");
  addSlurmOptions(cmd, o->run.slurm, true);
  // The counters' options are the sweep's request's: an aliasing pointer into the same options.
  return {.app = cmd,
          .run = [o](Context& ctx) { return cmdSweep(ctx.engine, *o); },
          .counters = std::shared_ptr<RunOptions>(o, &o->run)};
}

}  // namespace launchlab::cli
