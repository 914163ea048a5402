// `launchlab-cli occupancy`: an implementation's kernels over block sizes (cmdOccupancy, cli_occupancy.cpp).
#include "command.h"

namespace launchlab::cli {

Command addOccupancyCommand(CLI::App& app) {
  auto o = std::make_shared<OccupancyOptions>();
  auto* cmd = app.add_subcommand("occupancy",
                                 "An implementation's kernels over block sizes: resources, blocks per "
                                 "SM, occupancy and its limiter, waves, launch hints");
  cmd->add_option("workload", o->text.workload, "Workload id (see 'list')")->required();
  cmd->add_option("--impl", o->text.impls, "One CUDA implementation id")->required();
  cmd->add_option("--block", o->text.block, "Blocks: 32:1024:32, 64,128,256, 16x16,32x8")->default_str("32:1024:32");
  cmd->add_option("--grid", o->text.grid, "Grid for the waves (default: ceil(N / block), or what the GPU run launched)")
      ->default_str("auto");
  cmd->add_option("--n", o->text.n, "Size in elements (for the default grid)");
  cmd->add_option("--dtype", o->text.dtype, "The dtype whose kernel instantiations to show");
  cmd->add_option("--gpu-profile", o->gpuProfile,
                  "Theoretical figures of an architecture: sm_75, sm_80, sm_86, sm_89, sm_90");
  cmd->add_option("--json", o->json, "Write the report as JSON to FILE, or - for stdout");
  o->text.block = "32:1024:32";
  return {.app = cmd, .run = [o](Context& ctx) { return cmdOccupancy(ctx.engine, *o); }};
}

}  // namespace launchlab::cli
