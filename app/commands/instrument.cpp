// `launchlab-cli instrument`: a kernel's memory accesses per source line (cmdInstrument, cli_instrument.cpp).
#include "cli_instrument.h"
#include "command.h"

namespace launchlab::cli {

Command addInstrumentCommand(CLI::App& app) {
  auto o = std::make_shared<InstrumentOptions>();
  auto* cmd = app.add_subcommand("instrument",
                                 "List a kernel's memory accesses per source line and whether the access "
                                 "probes count them (PTX instrumentation; no GPU needed)");
  cmd->add_option("workload", o->workload, "Workload id (see 'list')")->required();
  cmd->add_option("--impl", o->impl, "A built-in CUDA implementation (its PTX is compiled in)");
  cmd->add_option("--dtype", o->dtype, "With --impl: the kernels instantiated for this dtype")->default_str("f32");
  cmd->add_option("--ptx-out", o->ptxOut, "Also write the instrumented PTX to FILE");
  addKernelOptions(cmd, o->kernel, false);
  return {.app = cmd, .run = [o](Context& ctx) { return cmdInstrument(ctx.engine, *o); }};
}

}  // namespace launchlab::cli
