// `launchlab-cli list`: the workloads and their implementations.
#include <iostream>

#include "cli_table.h"
#include "command.h"
#include "launchlab/files/json.h"

namespace launchlab::cli {

Command addListCommand(CLI::App& app) {
  auto json = std::make_shared<bool>(false);
  auto* cmd = app.add_subcommand("list", "List the workloads and their implementations");
  cmd->add_flag("--json", *json, "Machine-readable output (schema: docs/JSON_SCHEMA.md)");
  Command c{.app = cmd, .run = [json](Context& ctx) {
              std::cout << (*json ? json::workloads(ctx.registry) + "\n" : renderWorkloads(ctx.registry));
              return 0;
            }};
  c.checksEmptyValues = false;
  return c;
}

}  // namespace launchlab::cli
