// `launchlab-cli bench-render`: the GPU plot views' frame breakdown (cmdBenchRender, bench_render.cpp).
#include "cli_render.h"
#include "command.h"

namespace launchlab::cli {

Command addBenchRenderCommand(CLI::App& app) {
  struct Options {
    std::string json, device;
    bool quick = false;
  };
  auto o = std::make_shared<Options>();
  auto* cmd = app.add_subcommand("bench-render",
                                 "Frame breakdown of the GPU plot views (map, kernel, unmap, "
                                 "draw, readback): interop against host upload, per-view fps");
  cmd->add_option("--json", o->json, "Write the figures as JSON to FILE, or - for stdout");
  cmd->add_flag("--quick", o->quick, "Small sizes (a smoke test, not a measurement)");
  addDeviceOption(cmd, o->device);
  return {.app = cmd, .run = [o](Context& ctx) {
            checkOutputFile("--json", o->json);
            selectDevice(ctx.engine, o->device);
            return cmdBenchRender(ctx.engine, o->json, o->quick);
          }};
}

}  // namespace launchlab::cli
