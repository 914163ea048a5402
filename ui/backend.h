#pragma once
/// The engine as the GUI sees it: a small interface so the controller can be tested with a fake.
#include <memory>
#include <vector>

#include "launchlab/cancel.h"
#include "launchlab/device.h"
#include "launchlab/engine.h"
#include "launchlab/kernel_resources.h"
#include "launchlab/registry.h"
#include "launchlab/result.h"
#include "launchlab/worker.h"

namespace launchlab::ui {

/// What the GUI needs from the engine. registry(), deviceStatus(), launchLimits() and validate() are called
/// on the GUI thread and must be cheap and read-only; run() is called on the controller's single compute
/// thread, one call at a time.
class Backend {
 public:
  virtual ~Backend() = default;
  virtual const Registry& registry() const = 0;
  virtual DeviceStatus deviceStatus() const = 0;
  virtual DeviceLimits launchLimits() const = 0;
  virtual std::vector<RequestProblem> validate(const RunRequest& req) const = 0;
  /// Blocking; honours `cancel` between repetitions and reports through `progress`.
  virtual RunResult run(const RunRequest& req, const CancelToken* cancel, const ProgressFn& progress) = 0;
  /// The kernels' resource usage recorded at build time (kernel_resources.h), for the occupancy curve; the wiring
  /// (app/gui_wiring.h) sets it, read-only afterwards. Empty: no curve.
  void setKernelRecords(std::vector<KernelRecord> records) { m_kernelRecords = std::move(records); }
  const std::vector<KernelRecord>& kernelRecords() const { return m_kernelRecords; }

 private:
  std::vector<KernelRecord> m_kernelRecords;
};

/// The engine in this process over the given workloads and GPU runtime (app/gui_wiring.h hands it the
/// built-in ones; tests their own). Device status and limits are probed once at construction, so GUI-thread
/// queries never touch the GPU.
class EngineBackend final : public Backend {
 public:
  EngineBackend(std::unique_ptr<Registry> registry, std::shared_ptr<GpuRuntime> gpu);
  const Registry& registry() const override { return *m_registry; }
  DeviceStatus deviceStatus() const override { return m_status; }
  DeviceLimits launchLimits() const override { return m_limits; }
  std::vector<RequestProblem> validate(const RunRequest& req) const override { return m_engine->validate(req); }
  RunResult run(const RunRequest& req, const CancelToken* cancel, const ProgressFn& progress) override {
    return m_engine->run(req, cancel, progress);
  }

 private:
  std::unique_ptr<Registry> m_registry;
  std::unique_ptr<Engine> m_engine;
  DeviceStatus m_status;
  DeviceLimits m_limits;
};

/// GPU work in a worker process (`launchlab-cli worker`, through IsolatedRunner): a kernel fault that destroys
/// a CUDA context ends the worker, not the window, and the next run starts a fresh worker. Metadata and
/// validation stay in this process, against the limits of the device the worker reports.
class IsolatedBackend final : public Backend {
 public:
  /// Starts the worker at `workerPath` and asks it for the device (blocking, once). `registry` must hold the
  /// workloads the worker runs (metadata and validation).
  IsolatedBackend(const std::string& workerPath, std::unique_ptr<Registry> registry);
  const Registry& registry() const override { return *m_registry; }
  DeviceStatus deviceStatus() const override { return m_status; }
  DeviceLimits launchLimits() const override { return m_limits; }
  std::vector<RequestProblem> validate(const RunRequest& req) const override { return m_engine->validate(req); }
  /// Compute thread only (IsolatedRunner is single-threaded).
  RunResult run(const RunRequest& req, const CancelToken* cancel, const ProgressFn& progress) override {
    return m_runner.run(req, cancel, progress);
  }
  int workersStarted() const { return m_runner.workersStarted(); }

 private:
  std::unique_ptr<Registry> m_registry;
  IsolatedRunner m_runner;
  DeviceStatus m_status;
  std::unique_ptr<Engine> m_engine;  // validation only: its runtime reports the worker's device and runs nothing
  DeviceLimits m_limits;
};

}  // namespace launchlab::ui
