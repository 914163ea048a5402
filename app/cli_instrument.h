#pragma once
// `launchlab-cli instrument W (--impl ID | --kernel-file FILE)`: the memory accesses the access probes find in a
// kernel's PTX, per source line, and whether each is counted (launchlab/ptx/ptx_instrument.h). No GPU needed.
#include <string>

#include "cli_kernel.h"
#include "launchlab/engine/engine.h"

namespace launchlab::cli {

struct InstrumentOptions {
  std::string workload;
  std::string impl;      ///< a built-in CUDA implementation whose PTX is compiled in
  KernelOptions kernel;  ///< or a student's kernel (NVRTC, or Numba for a .py file)
  std::string dtype = "f32";
  std::string ptxOut;  ///< write the instrumented PTX here
};

/// Prints the table; exit 0. Bad input (unknown workload or implementation, no PTX for it, a kernel that does not
/// compile) throws BadUsage or KernelInputError.
int cmdInstrument(const Engine& engine, const InstrumentOptions& o);

}  // namespace launchlab::cli
