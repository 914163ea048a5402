#include "models/backend.h"

namespace launchlab::ui {

DeviceView::DeviceView(const Registry& registry, DeviceStatus status)
    : m_registry(registry), m_engine(std::make_unique<Engine>(registry, makeStaticGpuRuntime(std::move(status)))) {}

void DeviceView::setStatus(DeviceStatus status) {
  m_engine = std::make_unique<Engine>(m_registry, makeStaticGpuRuntime(std::move(status)));
  m_device = -1;
}

std::string DeviceView::select(int index) {
  std::string why = m_engine->gpu().selectDevice(index);
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

namespace {
DeviceStatus pendingStatus(const WorkerCommand& c) {
  DeviceStatus s;
  s.reason = "asking " + (c.remoteHost.empty() ? std::string("the worker") : c.remoteHost) + " for its GPU";
  return s;
}
}  // namespace

IsolatedBackend::IsolatedBackend(WorkerCommand command, std::unique_ptr<Registry> registry, bool deferDeviceQuery)
    : m_registry(std::move(registry)), m_runner(std::move(command)), m_pending(deferDeviceQuery) {
  // A result frame larger than the request can produce is refused from its header (a broken or hostile server).
  m_runner.setResultCap([registry = m_registry.get()](const RunRequest& r) { return resultBytesBound(*registry, r); });
  m_view = std::make_unique<DeviceView>(*m_registry,
                                        m_pending ? pendingStatus(m_runner.command()) : m_runner.deviceStatus());
}

void IsolatedBackend::adoptDeviceStatus(const DeviceStatus& s) {
  m_view->setStatus(s);
  m_pending = false;
}

}  // namespace launchlab::ui
