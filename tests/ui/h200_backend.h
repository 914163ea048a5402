#pragma once
// The real engine with every built-in workload, on a runtime that reports an H200's limits and runs no GPU code: the
// backend of the suites that check forms, the desk and the stage against the real workloads (they link
// launchlab_kernels).
#include <memory>

#include "fakes.h"
#include "launchlab/kernels.h"

namespace launchlab::ui::test {

inline std::shared_ptr<EngineBackend> h200Backend() {
  auto reg = std::make_unique<Registry>();
  kernels::registerAllWorkloads(*reg);
  return std::make_shared<EngineBackend>(std::move(reg), std::make_shared<H200LimitsRuntime>());
}

}  // namespace launchlab::ui::test
