#include "backend.h"

#include <unistd.h>

#include "launchlab/kernels.h"

namespace launchlab::ui {

namespace {
std::unique_ptr<Registry> allWorkloads() {
  auto r = std::make_unique<Registry>();
  kernels::registerAllWorkloads(*r);
  return r;
}
}  // namespace

EngineBackend::EngineBackend() : EngineBackend(allWorkloads(), kernels::makeDefaultGpuRuntime()) {}

IsolatedBackend::IsolatedBackend(const std::string& workerPath)
    : m_registry(allWorkloads()), m_runner({workerPath, "worker"}) {
  m_status = m_runner.deviceStatus();
  m_engine = std::make_unique<Engine>(*m_registry, makeStaticGpuRuntime(m_status));
  m_limits = m_engine->launchLimits();
}

std::shared_ptr<Backend> makeBackend(const std::string& workerPath, bool inProcess, std::string& note) {
  if (!kernels::builtWithCuda()) {
    note = "engine in this process (CPU-only build)";
  } else if (inProcess) {
    note = "engine in this process (--in-process)";
  } else if (workerPath.empty() || ::access(workerPath.c_str(), X_OK) != 0) {
    note = "engine in this process: no GPU worker executable at '" + workerPath + "'";
  } else {
    auto isolated = std::make_shared<IsolatedBackend>(workerPath);
    const DeviceStatus s = isolated->deviceStatus();
    if (s.available) {
      note = "GPU work runs in a worker process (" + workerPath + " worker): a kernel fault cannot take the window down";
      return isolated;
    }
    // Without a usable GPU nothing can fault: keep the work (and the arrays) in this process.
    note = "engine in this process: the GPU worker reports no usable GPU (" + s.reason + ")";
  }
  return std::make_shared<EngineBackend>();
}

EngineBackend::EngineBackend(std::unique_ptr<Registry> registry, std::shared_ptr<GpuRuntime> gpu)
    : m_registry(std::move(registry)), m_engine(std::make_unique<Engine>(*m_registry, std::move(gpu))) {
  m_status = m_engine->deviceStatus();
  m_limits = m_engine->launchLimits();
}

}  // namespace launchlab::ui
