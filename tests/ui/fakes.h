#pragma once
// Test doubles: a backend whose run() takes a known time per repetition, and a GPU runtime that claims an
// H200's limits (for launch validation messages) without running anything.
#include <QThread>
#include <atomic>
#include <chrono>
#include <mutex>
#include <thread>

#include "launchlab/explorer/sweep.h"
#include "models/backend.h"

namespace launchlab::ui::test {

class FakeBackend final : public Backend {
 public:
  int stepMs = 10;               ///< per repetition
  bool ignoreCancel = false;     ///< behave like an implementation that never checks the token
  std::atomic<int> failRun{0};   ///< this run (1, 2, …) fails with "fake failure" (0: none)
  std::atomic<int> faultRun{0};  ///< this run's implementation fails as a CUDA fault does (ImplResult::cudaFault)
  std::atomic<int> runs{0};
  std::atomic<int> repsDone{0};  ///< repetitions done over every run
  std::atomic<bool> ranOnGuiThread{false};
  QThread* guiThread = QThread::currentThread();

  const Registry& registry() const override { return m_registry; }
  DeviceStatus deviceStatus() const override { return {}; }
  std::string selectDevice(int index) override { return deviceProblem({}, index); }
  DeviceLimits launchLimits() const override { return DeviceLimits::genericCuda(); }
  std::vector<RequestProblem> validate(const RunRequest&) const override { return {}; }
  RunResult run(const RunRequest& req, const CancelToken* cancel, const ProgressFn& progress) override {
    const int runNo = ++runs;
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
      ++repsDone;
      if (progress) progress({"fake", 0, 1, rep, req.reps});
    }
    if (runNo == failRun) {
      r.status = Status::Failed;
      r.reason = "fake failure";
      return r;
    }
    ImplResult i;
    i.implId = req.impls.empty() ? "cpu-serial" : req.impls.front();
    i.phases[Phase::Kernel] = {double(req.launch.block ? req.launch.block->count() : 1) / 100.0, 0.0, 1.0, req.reps};
    i.phases[Phase::Total] = i.phases[Phase::Kernel];
    i.bandwidthGBs = 100;
    if (runNo == faultRun) {
      i.status = Status::Failed;
      i.reason = "cudaErrorIllegalAddress (fake)";
      i.cudaFault = true;
    }
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

/// A 1D block-size sweep point: measured (0.5 ms median, 0.4 to 0.6, 800 GB/s) unless `status` says otherwise.
inline SweepPoint sweepPoint(std::uint64_t threads, Status status, const std::string& reason = {}) {
  SweepPoint p;
  p.block = Dim3{std::uint32_t(threads), 1, 1};
  p.threads = threads;
  p.status = status;
  p.reason = reason;
  p.kernelMs = 0.5;
  p.minMs = 0.4;
  p.maxMs = 0.6;
  p.bandwidthGBs = 800;
  return p;
}

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
  std::string selectDevice(int) override { return {}; }
  void pushRange(const std::string&) override {}
  void popRange() override {}
  double measureCopyBandwidthGBs(std::size_t, int) override { return 0; }
};

}  // namespace launchlab::ui::test

namespace launchlab::ui::test {

/// A 2-D workload with an image output and a histogram, run on the CPU only: exercises the generic paths
/// (2D launch fields, Image and Histogram views) whatever the catalog holds.
class Fake2D final : public Workload {
 public:
  Fake2D() {
    m_info.id = "fake_2d";
    m_info.title = "Fake 2-D image";
    m_info.chapter = "Tests";
    m_info.dtypes = {DType::F32};
    m_info.defaultN = 64 * 48;
    m_info.minN = 1;
    m_info.maxN = 1 << 24;
    m_info.launchDims = 2;
    m_info.params = {{"width", "Width", "columns", "Row length.", ParamSpec::Kind::Integer, 64, 1, 4096},
                     {"lo", "Low", "", "Histogram range start.", ParamSpec::Kind::Real, 0, -10, 10},
                     {"hi", "High", "", "Histogram range end.", ParamSpec::Kind::Real, 1, -10, 10}};
    m_info.inputs = {{"img", "input image", PlotKind::Image}};
    ArraySpec hist{"hist", "histogram of the image", PlotKind::Histogram, "value", "count"};
    hist.dtype = DType::U32;
    hist.xMinParam = "lo";
    hist.xMaxParam = "hi";
    m_info.outputs = {{"sq", "image squared", PlotKind::Image, "column", "value"}, hist};
    ImplSpec s;
    s.id = "cpu-serial";
    s.title = "CPU serial";
    s.run = [](ImplContext& ctx) {
      for (int r = -ctx.warmup; r < ctx.reps; ++r) {
        ctx.checkpoint(r);
        auto in = ctx.inputs[0].view<float>();
        auto sq = ctx.outputs[0].view<float>();
        auto h = ctx.outputs[1].view<std::uint32_t>();
        std::fill(h.begin(), h.end(), 0u);
        for (std::size_t i = 0; i < in.size(); ++i) {
          sq[i] = in[i] * in[i];
          h[std::min<std::size_t>(15, std::size_t(in[i] * 16))]++;
        }
        if (r >= 0) ctx.samples[Phase::Cpu].push_back(0.01);
      }
    };
    m_impls.push_back(s);
  }
  const WorkloadInfo& info() const override { return m_info; }
  const std::vector<ImplSpec>& impls() const override { return m_impls; }
  std::vector<HostArray> makeInputs(const RunSetup& s) const override {
    std::vector<HostArray> v;
    v.emplace_back("img", DType::F32, shape(s));
    auto d = v[0].view<float>();
    for (std::size_t i = 0; i < d.size(); ++i) d[i] = float((i * 7919) % 1000) / 1000.f;
    return v;
  }
  std::vector<std::vector<std::size_t>> inputShapes(const RunSetup& s) const override { return {shape(s)}; }
  std::vector<std::vector<std::size_t>> outputShapes(const RunSetup& s) const override { return {shape(s), {16}}; }
  std::vector<HostArray> makeOutputs(const RunSetup& s) const override {
    std::vector<HostArray> v;
    v.emplace_back("sq", DType::F32, shape(s));
    v.emplace_back("hist", DType::U32, std::vector<std::size_t>{16});
    return v;
  }
  std::string validate(const RunSetup& s) const override {
    return s.n % std::size_t(s.params.integer("width")) ? "n must be a multiple of the width" : "";
  }

 private:
  static std::vector<std::size_t> shape(const RunSetup& s) {
    const auto w = std::size_t(s.params.integer("width"));
    return {std::size_t(s.n) / w, w};
  }
  WorkloadInfo m_info;
  std::vector<ImplSpec> m_impls;
};

}  // namespace launchlab::ui::test
