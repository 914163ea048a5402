#include "backend.h"

namespace launchlab::ui {

EngineBackend::EngineBackend(std::unique_ptr<Registry> registry, std::shared_ptr<GpuRuntime> gpu)
    : m_registry(std::move(registry)), m_engine(std::make_unique<Engine>(*m_registry, std::move(gpu))) {
  m_status = m_engine->deviceStatus();
  m_limits = m_engine->launchLimits();
}

IsolatedBackend::IsolatedBackend(const std::string& workerPath, std::unique_ptr<Registry> registry)
    : m_registry(std::move(registry)), m_runner({workerPath, "worker"}) {
  m_status = m_runner.deviceStatus();
  m_engine = std::make_unique<Engine>(*m_registry, makeStaticGpuRuntime(m_status));
  m_limits = m_engine->launchLimits();
}

}  // namespace launchlab::ui
