#pragma once
// The GPU suite's shared engine: every registered workload and the default GPU runtime, made once per process.
#include <memory>

#include "launchlab/engine.h"
#include "launchlab/kernels.h"

namespace launchlab::test {

struct GpuEnv {
  Registry registry;
  std::unique_ptr<Engine> engine;
  GpuEnv() {
    kernels::registerAllWorkloads(registry);
    engine = std::make_unique<Engine>(registry, kernels::makeDefaultGpuRuntime());
  }
};

inline GpuEnv& gpuEnv() {
  static GpuEnv e;
  return e;
}

}  // namespace launchlab::test
