// `launchlab-cli compile`: a student's kernel compiled for its exercise with NVRTC, diagnostics as the compiler's.
#include "command.h"

namespace launchlab::cli {

Command addCompileCommand(CLI::App& app) {
  struct Options {
    std::string workload;
    KernelOptions kernel;
  };
  auto o = std::make_shared<Options>();
  auto* cmd = app.add_subcommand("compile",
                                 "Compile a kernel of your own for a workload's exercise with NVRTC "
                                 "(no GPU needed): diagnostics as FILE:LINE:COL: error: TEXT");
  cmd->add_option("workload", o->workload, "Workload id (see 'list')")->required();
  addKernelOptions(cmd, o->kernel, true);
  return {.app = cmd, .run = [o](Context& ctx) {
            compileOrThrow(ctx.engine, o->workload, *userKernelOf(o->kernel), o->kernel.gpuProfile, false);
            return 0;
          }};
}

}  // namespace launchlab::cli
