#pragma once
// Test doubles: a backend whose run() takes a known time per repetition, and a GPU runtime that claims an
// H200's limits (for launch validation messages) without running anything.
#include <QThread>

#include <atomic>
#include <chrono>
#include <mutex>
#include <thread>

#include "ui/backend.h"

namespace launchlab::ui::test {

class FakeBackend final : public Backend {
 public:
  int stepMs = 10;           ///< per repetition
  bool ignoreCancel = false; ///< behave like an implementation that never checks the token
  std::atomic<int> runs{0};
  std::atomic<bool> ranOnGuiThread{false};
  QThread* guiThread = QThread::currentThread();

  const Registry& registry() const override { return m_registry; }
  DeviceStatus deviceStatus() const override { return {}; }
  DeviceLimits launchLimits() const override { return DeviceLimits::genericCuda(); }
  std::vector<RequestProblem> validate(const RunRequest&) const override { return {}; }
  RunResult run(const RunRequest& req, const CancelToken* cancel, const ProgressFn& progress) override {
    ++runs;
    if (QThread::currentThread() == guiThread) ranOnGuiThread = true;
    {
      std::lock_guard lock(m_mutex);
      m_requests.push_back(req);
    }
    RunResult r;
    r.workload = req.workload;
    r.n = req.n.value_or(0);
    r.seed = req.seed;
    r.reps = req.reps;
    for (int rep = 0; rep < req.reps; ++rep) {
      if (cancel && cancel->cancelled() && !ignoreCancel) {
        r.status = Status::Failed;
        r.reason = "cancelled";
        return r;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(stepMs));
      if (progress) progress({"fake", 0, 1, rep, req.reps});
    }
    ImplResult i;
    i.implId = req.impls.empty() ? "cpu-serial" : req.impls.front();
    i.phases[Phase::Kernel] = {double(req.launch.block ? req.launch.block->count() : 1) / 100.0, 0.0, 1.0, req.reps};
    i.phases[Phase::Total] = i.phases[Phase::Kernel];
    i.bandwidthGBs = 100;
    r.impls.push_back(i);
    return r;
  }
  std::vector<RunRequest> requests() const {
    std::lock_guard lock(m_mutex);
    return m_requests;
  }

 private:
  Registry m_registry;
  mutable std::mutex m_mutex;
  std::vector<RunRequest> m_requests;
};

/// Reports an available "NVIDIA H200" (for limits and messages). Nothing here may run a CUDA implementation.
class H200LimitsRuntime final : public GpuRuntime {
 public:
  DeviceStatus status() const override {
    DeviceStatus s;
    s.available = true;
    s.info.name = "NVIDIA H200";
    s.info.limits.deviceName = "NVIDIA H200";
    return s;
  }
  std::pair<std::size_t, std::size_t> memoryInfo() const override { return {0, 0}; }
  std::string recoverAfterError() override { return {}; }
  void pushRange(const std::string&) override {}
  void popRange() override {}
  double measureCopyBandwidthGBs(std::size_t, int) override { return 0; }
};

}  // namespace launchlab::ui::test
