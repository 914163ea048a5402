#include "runs/local_backend.h"

namespace launchlab::ui {

LocalBackend::LocalBackend(std::shared_ptr<IsolatedBackend> worker, EngineFactory makeEngine)
    : m_worker(std::move(worker)), m_makeEngine(std::move(makeEngine)) {}

DeviceStatus LocalBackend::queryDevice() {
  const DeviceStatus s = m_worker->queryDevice();
  if (s.available || !m_makeEngine) return s;
  m_engine = m_makeEngine();
  m_worker->abort();  // its worker is not needed any more
  DeviceStatus local = m_engine->deviceStatus();
  local.reason = "the GPU worker reports no usable GPU (" + s.reason + "); runs stay in this process";
  return local;
}

void LocalBackend::adoptDeviceStatus(const DeviceStatus& s) {
  m_worker->adoptDeviceStatus(s);
  m_inProcessView = m_engine != nullptr;  // queryDevice() built it on the compute thread before this was queued
}

RunResult LocalBackend::run(const RunRequest& req, const CancelToken* cancel, const ProgressFn& progress) {
  return m_engine ? m_engine->run(req, cancel, progress) : m_worker->run(req, cancel, progress);
}

std::string LocalBackend::takeProgramOutput() { return m_engine ? std::string() : m_worker->takeProgramOutput(); }

Ceilings LocalBackend::ceilings() { return m_engine ? m_engine->ceilings() : m_worker->ceilings(); }

}  // namespace launchlab::ui
