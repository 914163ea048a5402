#pragma once
/// The window's backend on this machine: GPU work in a local worker process, whose GPU is asked for on the compute
/// thread (RunController) so the window appears at once, whatever the worker does; when the worker reports no
/// usable GPU, runs move to an engine in this process (nothing can fault without a GPU, and the arrays need not
/// cross a pipe).
#include <atomic>
#include <functional>
#include <memory>

#include "models/backend.h"

namespace launchlab::ui {

class LocalBackend final : public Backend {
 public:
  using EngineFactory = std::function<std::shared_ptr<Backend>()>;
  /// `worker`: a worker backend built with its device query deferred; `makeEngine`: the in-process engine, built
  /// (on the compute thread) only when the worker reports no usable GPU.
  LocalBackend(std::shared_ptr<IsolatedBackend> worker, EngineFactory makeEngine);

  const Registry& registry() const override { return m_worker->registry(); }
  // The GUI thread's view stays the worker backend's: after "no GPU" it holds the in-process engine's status,
  // which validates as that engine would (no device, CUDA off).
  DeviceStatus deviceStatus() const override { return m_worker->deviceStatus(); }
  DeviceLimits launchLimits() const override { return m_worker->launchLimits(); }
  std::vector<RequestProblem> validate(const RunRequest& req) const override { return m_worker->validate(req); }
  std::string selectDevice(int index) override { return m_worker->selectDevice(index); }
  RunResult run(const RunRequest& req, const CancelToken* cancel, const ProgressFn& progress) override;
  bool deviceQueryPending() const override { return m_worker->deviceQueryPending(); }
  DeviceStatus queryDevice() override;
  void adoptDeviceStatus(const DeviceStatus& s) override;
  void abort() override { m_worker->abort(); }
  std::string takeProgramOutput() override;
  bool runsInLocalWorker() const override { return !m_inProcessView; }
  Ceilings ceilings() override;
  /// Where runs go now, for the window's log.
  bool inProcess() const { return m_inProcessView; }

 private:
  std::shared_ptr<IsolatedBackend> m_worker;
  EngineFactory m_makeEngine;
  /// Built by queryDevice() on the compute thread when the worker has no GPU; from then on runs go to it.
  std::shared_ptr<Backend> m_engine;
  std::atomic<bool> m_inProcessView{false};  ///< GUI thread: the answer "no GPU" was adopted
};

}  // namespace launchlab::ui
