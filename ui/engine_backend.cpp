#include "backend.h"

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

EngineBackend::EngineBackend(std::unique_ptr<Registry> registry, std::shared_ptr<GpuRuntime> gpu)
    : m_registry(std::move(registry)), m_engine(std::make_unique<Engine>(*m_registry, std::move(gpu))) {
  m_status = m_engine->deviceStatus();
  m_limits = m_engine->launchLimits();
}

}  // namespace launchlab::ui
