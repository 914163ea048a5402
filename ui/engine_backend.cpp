#include "backend.h"

namespace launchlab::ui {

DeviceView::DeviceView(const Registry& registry, DeviceStatus status)
    : m_engine(registry, makeStaticGpuRuntime(std::move(status))) {}

std::string DeviceView::select(int index) {
  std::string why = m_engine.gpu().selectDevice(index);
  if (why.empty()) m_device = index;
  return why;
}

RunRequest DeviceView::withDevice(RunRequest req) const {
  if (const int d = m_device; !req.device && d >= 0) req.device = d;
  return req;
}

EngineBackend::EngineBackend(std::unique_ptr<Registry> registry, std::shared_ptr<GpuRuntime> gpu)
    : m_registry(std::move(registry)), m_engine(std::make_unique<Engine>(*m_registry, std::move(gpu))) {
  m_view = std::make_unique<DeviceView>(*m_registry, m_engine->deviceStatus());
}

Ceilings EngineBackend::ceilings() {
  const DeviceStatus s = m_view->status();
  const int device = s.available ? s.info.index : -1;
  if (auto it = m_ceilings.find(device); it != m_ceilings.end()) return it->second;
  if (device >= 0) m_engine->gpu().selectDevice(device);  // the compute thread's current device
  Ceilings c = measureCeilings(m_engine->gpu());
  if (c.valid()) m_ceilings[device] = c;
  return c;
}

IsolatedBackend::IsolatedBackend(const std::string& workerPath, std::unique_ptr<Registry> registry)
    : IsolatedBackend(WorkerCommand{{workerPath, "worker"}}, std::move(registry)) {}

IsolatedBackend::IsolatedBackend(WorkerCommand command, std::unique_ptr<Registry> registry)
    : m_registry(std::move(registry)), m_runner(std::move(command)) {
  m_view = std::make_unique<DeviceView>(*m_registry, m_runner.deviceStatus());
}

}  // namespace launchlab::ui
