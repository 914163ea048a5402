#pragma once
/// The engine as the GUI sees it: a small interface so the controller can be tested with a fake.
#include <atomic>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "launchlab/engine/cancel.h"
#include "launchlab/engine/cpu_threads.h"
#include "launchlab/engine/device.h"
#include "launchlab/engine/engine.h"
#include "launchlab/engine/registry.h"
#include "launchlab/engine/result.h"
#include "launchlab/explorer/kernel_resources.h"
#include "launchlab/explorer/roofline.h"
#include "launchlab/worker/worker.h"

namespace launchlab::ui {

/// What the GUI needs from the engine. registry(), deviceStatus(), launchLimits(), validate() and selectDevice() are
/// called on the GUI thread and must be cheap (they never touch the GPU); run() is called on the controller's single
/// compute thread, one call at a time.
class Backend {
 public:
  virtual ~Backend() = default;
  virtual const Registry& registry() const = 0;
  virtual DeviceStatus deviceStatus() const = 0;
  virtual DeviceLimits launchLimits() const = 0;
  virtual std::vector<RequestProblem> validate(const RunRequest& req) const = 0;
  /// Chooses the CUDA device of the following runs (an index of deviceStatus().devices): deviceStatus() and
  /// launchLimits() describe it from then on, and requests that name no device run on it. "" or why not
  /// (deviceProblem's message: no such device, no CUDA device).
  virtual std::string selectDevice(int index) = 0;
  /// Blocking; honours `cancel` between repetitions and reports through `progress`.
  virtual RunResult run(const RunRequest& req, const CancelToken* cancel, const ProgressFn& progress) = 0;
  /// True while the device is not known yet (a remote worker asked off the GUI thread: queryDevice()); then
  /// deviceStatus() says so and validation treats CUDA as off.
  virtual bool deviceQueryPending() const { return false; }
  /// Asks for the device (compute thread; bounded by the worker's start-up limit) and returns what it reported.
  virtual DeviceStatus queryDevice() { return deviceStatus(); }
  /// Takes a status that queryDevice() returned (GUI thread): deviceStatus(), launchLimits() and validate() follow it.
  virtual void adoptDeviceStatus(const DeviceStatus&) {}
  /// Stops waiting for the worker for good (any thread; the window is closing): a silent worker must not hold the
  /// compute thread that the controller's destructor joins.
  virtual void abort() {}
  /// What the last run's code printed (a kernel's printf in a worker; a remote shell's banner), taken once; compute
  /// thread, right after run(). An engine in this process prints to the window's own stdout: "" here.
  virtual std::string takeProgramOutput() { return {}; }
  /// The host the runs go to when it is not this machine (a remote GPU over SSH), else "".
  virtual std::string remoteHost() const { return {}; }
  /// Runs go to another process on this machine, whose exported device outputs (RunRequest::exportDeviceOutputs)
  /// this process can open with CUDA IPC (a process cannot open its own).
  virtual bool runsInLocalWorker() const { return false; }
  /// The roofline's ceilings of the device in use, measured on it (roofline.h); invalid, with the reason, without a
  /// GPU. Compute thread only (it runs kernels); each device is measured once per session.
  virtual Ceilings ceilings() {
    Ceilings none;
    none.problem = "this backend cannot measure ceilings";
    return none;
  }
  /// The kernels' resource usage recorded at build time (kernel_resources.h), for the occupancy curve; the wiring
  /// (app/gui_wiring.h) sets it, read-only afterwards. Empty: no curve.
  void setKernelRecords(std::vector<KernelRecord> records) { m_kernelRecords = std::move(records); }
  const std::vector<KernelRecord>& kernelRecords() const { return m_kernelRecords; }

 private:
  std::vector<KernelRecord> m_kernelRecords;
};

/// The GUI thread's view of the device, shared by the backends: the status probed once, validation against it (an
/// engine over a status-only runtime, which never touches the GPU) and the device chosen in the window, which
/// withDevice() adds to the requests that run.
class DeviceView {
 public:
  DeviceView(const Registry& registry, DeviceStatus status);
  DeviceStatus status() const { return m_engine->deviceStatus(); }
  DeviceLimits limits() const { return m_engine->launchLimits(); }
  std::vector<RequestProblem> validate(const RunRequest& req) const { return m_engine->validate(withDevice(req)); }
  std::string select(int index);
  /// Replaces the status (GUI thread; the compute thread only reads the chosen device, withDevice()).
  void setStatus(DeviceStatus status);
  /// `req` with the chosen device when it names none (any thread).
  RunRequest withDevice(RunRequest req) const;

 private:
  const Registry& m_registry;
  std::unique_ptr<Engine> m_engine;
  std::atomic<int> m_device{-1};  // -1: none chosen, the runtime's default
};

/// The engine in this process over the given workloads and GPU runtime (app/gui_wiring.h hands it the
/// built-in ones; tests their own). Device status and limits are probed once at construction, so GUI-thread
/// queries never touch the GPU.
class EngineBackend final : public Backend {
 public:
  EngineBackend(std::unique_ptr<Registry> registry, std::shared_ptr<GpuRuntime> gpu);
  const Registry& registry() const override { return *m_registry; }
  DeviceStatus deviceStatus() const override { return m_view->status(); }
  DeviceLimits launchLimits() const override { return m_view->limits(); }
  std::vector<RequestProblem> validate(const RunRequest& req) const override { return m_view->validate(req); }
  std::string selectDevice(int index) override { return m_view->select(index); }
  RunResult run(const RunRequest& req, const CancelToken* cancel, const ProgressFn& progress) override {
    useCpuThreadsOnThisThread(m_cpuThreads);  // the compute thread's OpenMP team (launchlab/engine/cpu_threads.h)
    return m_engine->run(m_view->withDevice(req), cancel, progress);
  }
  Ceilings ceilings() override;
  /// The OpenMP threads of the CPU implementations this engine runs (cpuThreadsBesideTheWindow); 0: OpenMP's own.
  void setCpuThreads(int threads) { m_cpuThreads = threads; }
  /// Measures hardware counters for runs that ask for them (RunRequest::counters); none: they report it.
  void setCounterProfiler(std::shared_ptr<CounterProfiler> p) { m_engine->setCounterProfiler(std::move(p)); }

 private:
  std::unique_ptr<Registry> m_registry;
  std::unique_ptr<Engine> m_engine;
  std::unique_ptr<DeviceView> m_view;
  std::map<int, Ceilings> m_ceilings;  ///< by device index, measured ones only
  int m_cpuThreads = 0;
};

/// GPU work in a worker process (`launchlab-cli worker`, through IsolatedRunner): a kernel fault that destroys
/// a CUDA context ends the worker, not the window, and the next run starts a fresh worker. Metadata and
/// validation stay in this process, against the limits of the device the worker reports; the chosen device
/// travels in each request.
class IsolatedBackend final : public Backend {
 public:
  /// Starts the worker at `workerPath` and asks it for the device (blocking, once). `registry` must hold the
  /// workloads the worker runs (metadata and validation).
  IsolatedBackend(const std::string& workerPath, std::unique_ptr<Registry> registry);
  /// The worker started by `command` (e.g. over ssh: launchlab/worker/remote.h). With `deferDeviceQuery`, nothing is
  /// asked here: the device stays pending until the controller asks on its compute thread (a remote server that never
  /// answers must not keep the window from appearing).
  IsolatedBackend(WorkerCommand command, std::unique_ptr<Registry> registry, bool deferDeviceQuery = false);
  bool deviceQueryPending() const override { return m_pending; }
  DeviceStatus queryDevice() override { return m_runner.deviceStatus(); }
  void adoptDeviceStatus(const DeviceStatus& s) override;
  void abort() override { m_runner.abort(); }
  const Registry& registry() const override { return *m_registry; }
  DeviceStatus deviceStatus() const override { return m_view->status(); }
  DeviceLimits launchLimits() const override { return m_view->limits(); }
  std::vector<RequestProblem> validate(const RunRequest& req) const override { return m_view->validate(req); }
  std::string selectDevice(int index) override { return m_view->select(index); }
  /// Compute thread only (IsolatedRunner is single-threaded).
  RunResult run(const RunRequest& req, const CancelToken* cancel, const ProgressFn& progress) override {
    return m_runner.run(m_view->withDevice(req), cancel, progress);
  }
  std::string takeProgramOutput() override { return m_runner.takeProgramOutput(); }
  std::string remoteHost() const override { return m_runner.command().remoteHost; }
  bool runsInLocalWorker() const override { return remoteHost().empty(); }
  /// Measured by the worker (its 'K' message), cached there per device.
  Ceilings ceilings() override {
    return m_runner.ceilings(m_view->status().available ? m_view->status().info.index : -1);
  }
  int workersStarted() const { return m_runner.workersStarted(); }
  pid_t workerPid() const { return m_runner.workerPid(); }

 private:
  std::unique_ptr<Registry> m_registry;
  IsolatedRunner m_runner;
  std::unique_ptr<DeviceView> m_view;
  bool m_pending = false;
};

}  // namespace launchlab::ui
