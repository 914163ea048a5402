#pragma once
// The GPU suite's shared engine: every registered workload and the default GPU runtime, made once per process.
#include <memory>
#include <string>

#include <unistd.h>

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

/// This test binary's path (`--worker` makes it serve runs, for the tests that need a second process).
inline std::string selfExe() {
  char buf[4096];
  const ssize_t n = readlink("/proc/self/exe", buf, sizeof buf - 1);
  return n > 0 ? std::string(buf, std::size_t(n)) : std::string();
}

}  // namespace launchlab::test
