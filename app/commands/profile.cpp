// `launchlab-cli profile`: a run with its counters always on (cmdRun, cli_profile.cpp's tables).
#include <iostream>

#include "cli_profile.h"
#include "command.h"

namespace launchlab::cli {

Command addProfileCommand(CLI::App& app) {
  auto o = std::make_shared<RunOptions>();  // run's request options, counters always on
  auto* cmd = app.add_subcommand("profile",
                                 "Run a workload once more under CUPTI's range profiler and show hardware "
                                 "counters per implementation: sectors per request, bank conflicts, "
                                 "DRAM bytes, occupancy…");
  addRequestOptions(cmd, *o);
  cmd->add_option("--block", o->text.block, "Threads per block: B or BxBy, or auto")->default_str("auto");
  cmd->add_option("--grid", o->text.grid, "Blocks per grid: G or GxGy, or auto")->default_str("auto");
  cmd->add_option("--metrics", o->metrics, metricsHelp());
  cmd->add_option("--json", o->json,
                  "Write the run with its counters as JSON (launchlab.run) to FILE, or - for stdout");
  o->counters = true;
  cmd->add_flag("--counters{auto}", o->counterSource,
                "Where the counters come from: hardware (CUPTI), accesses (measured from the kernel's own "
                "accesses, no admin rights) or auto (CUPTI where the driver allows it; the default)");
  addKernelOptions(cmd, o->kernel, false);
  cmd->add_flag("--by-line", o->byLine,
                "With counters measured from the accesses: each source line's requests, sectors per request "
                "and bank conflicts");
  addSlurmOptions(cmd, o->slurm, false);
  auto run = [o](Context& ctx) {
    buildRequest(ctx.engine, *o);  // bad input first (exit 2), with no GPU as well
    if (const std::string why = o->slurm.enabled ? "" : profileBlocker(ctx.engine.deviceStatus(), ctx.profiler);
        !why.empty()) {
      std::cerr << "launchlab-cli: profile: " << why << "\n";
      return 1;
    }
    return cmdRun(ctx.engine, *o);
  };
  return {.app = cmd, .run = run, .counters = o};
}

}  // namespace launchlab::cli
