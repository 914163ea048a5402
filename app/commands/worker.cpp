// `launchlab-cli worker`: serves runs over stdin/stdout for the window (launchlab/worker/worker.h).
#include "launchlab/worker/worker.h"

#include "command.h"

namespace launchlab::cli {

Command addWorkerCommand(CLI::App& app) {
  auto device = std::make_shared<std::string>();
  auto* cmd = app.add_subcommand("worker", "Serve runs over stdin/stdout for a front end (GPU process isolation)");
  cmd->group("");                 // internal: started by the GUI, not by users
  addDeviceOption(cmd, *device);  // the device of requests that name none
  Command c{.app = cmd, .run = [device](Context& ctx) {
              selectDevice(ctx.engine, *device);
              return serveWorkerProcess(ctx.engine);
            }};
  c.inheritsCounterSource = true;
  return c;
}

}  // namespace launchlab::cli
