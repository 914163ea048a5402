#pragma once
// The engine over every built-in workload and the default GPU runtime (GPU implementations skip without a device).
#include <gtest/gtest.h>

#include <memory>

#include "launchlab/engine/engine.h"
#include "launchlab/kernels.h"

namespace launchlab::test {

struct EngineFixture : ::testing::Test {
  Registry reg;
  std::unique_ptr<Engine> engine;
  void SetUp() override {
    kernels::registerAllWorkloads(reg);
    engine = std::make_unique<Engine>(reg, kernels::makeDefaultGpuRuntime());
  }
};

}  // namespace launchlab::test
