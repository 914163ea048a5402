// `launchlab-cli check`: a student's kernel under compute-sanitizer (runCheck, cli_check.cpp).
#include "cli_check.h"
#include "command.h"

namespace launchlab::cli {

Command addCheckCommand(CLI::App& app) {
  auto o = std::make_shared<RunOptions>();  // run's request options and a kernel file, run under compute-sanitizer
  auto* cmd = app.add_subcommand("check",
                                 "Run a kernel of your own under compute-sanitizer (memcheck, then racecheck "
                                 "when it uses __shared__; once, at the exercise's check size unless "
                                 "--n): findings as FILE:LINE: TOOL: TEXT; exit 0 clean, 1 findings, "
                                 "a tool over its time limit, or no sanitizer/GPU");
  addRequestOptions(cmd, *o);
  for (const char* name : {"--impl", "--reps", "--warmup"}) cmd->remove_option(cmd->get_option(name));  // fixed
  cmd->add_option("--block", o->text.block, "Threads per block: B or auto")->default_str("auto");
  cmd->add_option("--grid", o->text.grid, "Blocks per grid: G or auto")->default_str("auto");
  addKernelOptions(cmd, o->kernel, true);
  cmd->add_option("--time-limit", o->kernel.timeLimitS, "Seconds each sanitizer tool may take")
      ->default_val(kCheckTimeLimitS);
  return {.app = cmd, .run = [o](Context& ctx) {
            if (o->text.n.empty()) o->text.n = std::to_string(checkSize(o->text.workload, o->kernel.exercise));
            return runCheck(ctx.engine, buildRequest(ctx.engine, *o), o->kernel);
          }};
}

}  // namespace launchlab::cli
