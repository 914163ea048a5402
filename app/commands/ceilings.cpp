// `launchlab-cli ceilings`: the roofline's ceilings, measured or from a datasheet (cmdCeilings, cli_ceilings.cpp).
#include "command.h"

namespace launchlab::cli {

Command addCeilingsCommand(CLI::App& app) {
  struct Options {
    CeilingsOptions ceilings;
    std::string device;
  };
  auto o = std::make_shared<Options>();
  auto* cmd = app.add_subcommand("ceilings",
                                 "The roofline's ceilings: copy bandwidth and FP32 FMA peak measured "
                                 "on the GPU, or a profile's datasheet without one");
  cmd->add_option("--gpu-profile", o->ceilings.gpuProfile,
                  "Datasheet figures of an architecture's GPU: sm_75, sm_80, sm_86, sm_89, sm_90");
  cmd->add_option("--reps", o->ceilings.reps, "Timed repetitions of each measurement (median)")->default_val(10);
  cmd->add_option("--json", o->ceilings.json,
                  "Write the ceilings as JSON (launchlab.ceilings) to FILE, or - for stdout");
  addDeviceOption(cmd, o->device);
  return {.app = cmd, .run = [o](Context& ctx) {
            checkRepetitions(o->ceilings.reps);
            selectDevice(ctx.engine, o->device);
            return cmdCeilings(ctx.engine, o->ceilings);
          }};
}

}  // namespace launchlab::cli
