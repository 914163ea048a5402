// `launchlab-cli render`: one output drawn by the GPU plot renderer into a PNG (cmdRender, cli_render.cpp).
#include "cli_render.h"
#include "command.h"

namespace launchlab::cli {

Command addRenderCommand(CLI::App& app) {
  struct Options {
    RunOptions run;  // run's request options, then the drawing's
    RenderOptions render;
  };
  auto o = std::make_shared<Options>();
  auto* cmd = app.add_subcommand("render",
                                 "Run a workload and draw one output with the GPU plot renderer (EGL + "
                                 "OpenGL, CUDA–OpenGL interop on a GPU) into a PNG");
  addRequestOptions(cmd, o->run);
  addRenderOptions(cmd, o->render);
  return {.app = cmd, .run = [o](Context& ctx) {
            checkOutputFile("--png", o->render.png);
            return cmdRender(ctx.engine, buildRequest(ctx.engine, o->run), o->render);
          }};
}

}  // namespace launchlab::cli
