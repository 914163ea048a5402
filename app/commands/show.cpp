// `launchlab-cli show F.llrun`: a saved run printed as `run` prints it (cmdShow, cli_commands.cpp).
#include "command.h"

namespace launchlab::cli {

Command addShowCommand(CLI::App& app) {
  auto path = std::make_shared<std::string>();
  auto* cmd =
      app.add_subcommand("show", "Print a saved run file (.llrun) as 'run' prints it, with where it was measured");
  cmd->add_option("file", *path, "A run file (run --save-run, or the window's Save run)")->required();
  return {.app = cmd, .run = [path](Context&) { return cmdShow(*path); }};
}

}  // namespace launchlab::cli
