#pragma once
/// The engine as the GUI sees it: a small interface so the controller can be tested with a fake.
#include <memory>
#include <vector>

#include "launchlab/cancel.h"
#include "launchlab/device.h"
#include "launchlab/engine.h"
#include "launchlab/registry.h"
#include "launchlab/result.h"

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
};

/// The real engine over every workload built into this binary and the default GPU runtime.
/// Device status and limits are probed once at construction, so GUI-thread queries never touch the GPU.
class EngineBackend final : public Backend {
 public:
  EngineBackend();
  /// For tests: the given registry content and GPU runtime.
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

}  // namespace launchlab::ui
