#pragma once
/// The engine: validates a request, generates or loads inputs, runs the selected implementations with
/// warm-up and repetitions, times them, verifies them against cpu-serial and returns a RunResult.
/// One engine serves the CLI and the GUI. run() is blocking; call it from one worker thread at a time.
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "launchlab/engine/cancel.h"
#include "launchlab/engine/counters.h"
#include "launchlab/engine/device.h"
#include "launchlab/engine/dtype.h"
#include "launchlab/engine/launch_config.h"
#include "launchlab/engine/registry.h"
#include "launchlab/engine/request.h"
#include "launchlab/engine/result.h"

namespace launchlab {

namespace detail {
struct Resolved;
}

class Engine {
 public:
  Engine(const Registry& registry, std::shared_ptr<GpuRuntime> gpu);

  const Registry& registry() const { return m_registry; }
  DeviceStatus deviceStatus() const;
  /// The limits launch validation uses: the selected device's, or generic CUDA limits without a device.
  DeviceLimits launchLimits() const;

  /// Checks everything that can be checked before running. Empty when the request is valid. A request naming a
  /// device (RunRequest::device) is checked against that device (it must exist: deviceProblem) and its limits.
  /// Never throws: whatever goes wrong while checking is a problem too.
  std::vector<RequestProblem> validate(const RunRequest& req) const;
  /// Runs the request. Never throws for run-time problems: they become failed results with a reason. Before
  /// anything else it selects the request's device (or re-selects the runtime's) on the calling thread, so every
  /// CUDA call of the run goes to that device.
  RunResult run(const RunRequest& req, const CancelToken* cancel = nullptr, const ProgressFn& progress = {});

  /// STREAM-like host copy bandwidth (GB/s counting read + write) over `bytes`, all threads, median of reps.
  static double measureHostCopyBandwidthGBs(std::size_t bytes, int reps);
  GpuRuntime& gpu() { return *m_gpu; }
  /// The profiler of requests that ask for counters (RunRequest::counters); without one their GPU implementations
  /// report that the counters are unsupported.
  void setCounterProfiler(std::shared_ptr<CounterProfiler> profiler) { m_profiler = std::move(profiler); }
  /// Samples the GPU's other users before and after each run that uses the GPU (RunResult::sharing); none: no check.
  void setGpuMonitor(std::shared_ptr<GpuMonitor> monitor) { m_monitor = std::move(monitor); }
  GpuMonitor* gpuMonitor() const { return m_monitor.get(); }

  /// The engine keeps the inputs and the cpu-serial reference of the last run. A following run with the same
  /// workload, n, dtype, seed, parameters and input files reuses them (the reference is not re-run unless
  /// cpu-serial is selected explicitly), so sweeps over launch configurations verify every point cheaply.
  void clearCache();
  bool cacheHolds(const RunRequest& req) const;

 private:
  struct Job {
    const RunRequest& req;
    const detail::Resolved& resolved;
    const CancelToken* cancel;
    const ProgressFn& progress;
    const DeviceInfo& device;
  };
  /// The limits `req` is validated against: those of the device it names, else launchLimits().
  DeviceLimits limitsFor(const RunRequest& req) const;
  /// Makes the request's device (or the runtime's selected one) current on this thread; "" or why not.
  std::string bindDevice(const RunRequest& req);
  /// Generates or loads the inputs unless the cache holds them; "" or why the run cannot start.
  std::string prepareInputs(const RunRequest& req, const detail::Resolved& r);
  /// Runs implementation `idx` of the job, verified against the reference; `cancelled` when it was stopped.
  ImplResult runImpl(const Job& job, int idx, bool& cancelled);
  /// Sets up the context implementation `idx` of the job runs in: launch, repetitions, device, progress, reference.
  void configure(ImplContext& ctx, const Job& job, const ImplSpec& spec, int idx) const;
  /// The verification of a finished run: on the GPU already (identical to the reference), or against the reference.
  void verifyRun(ImplResult& res, const ImplContext& ctx, const Job& job, const ImplSpec& spec,
                 std::vector<HostArray>& outputs);
  /// Why a GPU implementation cannot run now (no device, too little device memory), or "".
  std::string gpuUnusableReason(const Workload& w, const RunSetup& setup, const std::string& deviceName) const;
  /// Verification of `outputs` against the cached reference (or, for cpu-serial, caching them as the reference).
  /// Copies the outputs spec.outputsFromReference names from the cached reference; returns their names ("a, b").
  std::string copyOutputsFromReference(const ImplSpec& spec, std::vector<HostArray>& outputs) const;
  void verifyInto(ImplResult& res, const Job& job, const ImplSpec& spec, std::vector<HostArray>& outputs);
  /// Swaps in the last run's output arrays when `outputs` has their names, dtypes and shapes: a sweep's points then
  /// write into memory already paged in instead of faulting in fresh pages every point.
  void reuseScratch(std::vector<HostArray>& outputs);
  /// One more, untimed run of the implementation's kernel phase under the counter profiler.
  ImplCounters profileCounters(const Job& job, const ImplSpec& spec);

  struct Cache {
    std::string key;
    std::vector<HostArray> inputs;
    std::vector<HostArray> referenceOutputs;
    /// Unique in the process for every new referenceOutputs (ImplContext::referenceGeneration).
    std::uint64_t referenceGeneration = 0;
    std::optional<ImplResult> referenceResult;
    std::vector<HostArray> scratchOutputs;  ///< the last run's outputs when it did not keep them (reuseScratch)
  };
  std::string cacheKey(const RunRequest& req, const std::string& resolvedSetup) const;

  const Registry& m_registry;
  std::shared_ptr<GpuRuntime> m_gpu;
  Cache m_cache;
  std::shared_ptr<CounterProfiler> m_profiler;
  std::shared_ptr<GpuMonitor> m_monitor;
  std::map<int, double> m_memcpyCeilingGBs;  ///< per device: measured once, for bandwidth_pct_of_memcpy
};

/// Host description, e.g. "AMD EPYC 9654 (16 threads)".
std::string hostDescription();
/// Available host memory in bytes (MemAvailable), 0 when unknown.
std::size_t hostAvailableMemory();
/// ISO 8601 UTC timestamp of now.
std::string nowIso8601();

}  // namespace launchlab
