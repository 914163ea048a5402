// `launchlab-cli run`: a workload's implementations, timed and verified (cmdRun, cli_commands.cpp).
#include "command.h"

namespace launchlab::cli {

Command addRunCommand(CLI::App& app) {
  auto o = std::make_shared<RunOptions>();
  auto* cmd = app.add_subcommand("run", "Run a workload's implementations, time and verify them");
  addRequestOptions(cmd, *o);
  cmd->add_option("--block", o->text.block, "Threads per block: B or BxBy, or auto")->default_str("auto");
  cmd->add_option("--grid", o->text.grid, "Blocks per grid: G or GxGy, or auto")->default_str("auto");
  cmd->add_option("--save-outputs", o->saveOutputs, "Write DIR/inputs/<input>.npy and DIR/<impl>/<output>.npy");
  cmd->add_option("--json", o->json, "Write the full result as JSON to FILE, or - for stdout");
  cmd->add_option("--save-run", o->saveRun, "Save the whole run (result and arrays) as a run file FILE.llrun");
  addKernelOptions(cmd, o->kernel, false);
  addSlurmOptions(cmd, o->slurm, false);
  cmd->add_flag("--counters{auto}", o->counterSource,
                "Also measure counters of every GPU implementation (see 'profile --help' for --metrics): "
                "--counters=hardware (CUPTI), =accesses (measured from the kernel's own accesses, no admin rights), "
                "or auto (CUPTI where the driver allows it)");
  cmd->add_option("--metrics", o->metrics, "With --counters: the counters, comma-separated, or all");
  cmd->add_flag("--by-line", o->byLine, "With --counters=accesses: each source line's figures");
  cmd->add_flag("--trace-blocks", o->traceBlocks,
                "Run the instrumented kernels: every block's SM and start/end time (blocks on SMs, JSON block_trace)");
  cmd->add_flag("--dry-run", o->dryRun, "Check the request and print the command line that runs it; run nothing");
  return {.app = cmd, .run = [o](Context& ctx) { return cmdRun(ctx.engine, *o); }, .counters = o};
}

}  // namespace launchlab::cli
