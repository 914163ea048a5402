// `launchlab-cli info`: the GPU (or why there is none) and its limits.
#include <iostream>

#include "command.h"
#include "launchlab/files/json.h"

namespace launchlab::cli {

Command addInfoCommand(CLI::App& app) {
  auto json = std::make_shared<bool>(false);
  auto* cmd = app.add_subcommand("info", "Show the GPU (or why there is none) and its limits");
  cmd->add_flag("--json", *json, "Machine-readable output");
  Command c{.app = cmd, .run = [json](Context& ctx) {
              if (*json)
                std::cout << json::deviceStatus(ctx.engine.deviceStatus()) << "\n";
              else
                std::cout << deviceQueryText(ctx.engine);
              return 0;
            }};
  c.checksEmptyValues = false;
  return c;
}

}  // namespace launchlab::cli
