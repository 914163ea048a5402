#pragma once
/// Device information and the GPU runtime interface the engine talks to. No CUDA headers here:
/// kernels/common implements GpuRuntime with the CUDA runtime; CPU-only builds use a stub.
#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "launchlab/engine/launch_config.h"

namespace launchlab {

struct DeviceInfo {
  int index = 0;
  std::string name;
  int ccMajor = 0, ccMinor = 0;
  int multiprocessors = 0;
  int maxThreadsPerMultiprocessor = 0;
  int maxBlocksPerMultiprocessor = 0;
  int registersPerBlock = 0;
  int registersPerMultiprocessor = 0;
  std::size_t sharedMemPerMultiprocessor = 0;
  std::size_t totalGlobalMem = 0;
  std::size_t l2CacheBytes = 0;
  int memoryBusWidthBits = 0;
  int memoryClockKHz = 0;
  int clockKHz = 0;
  double theoreticalBandwidthGBs = 0;  ///< 2 * memory clock * bus width (DDR)
  int driverVersion = 0;               ///< e.g. 13000
  int runtimeVersion = 0;
  bool eccEnabled = false;
  DeviceLimits limits;
  /// "0000:3B:00.0" (cudaDeviceGetPCIBusId): how NVML (gpu_sharing.h) finds the same GPU whatever the numbering.
  std::string pciBusId;
  bool operator==(const DeviceInfo&) const = default;
};

/// Whether CUDA implementations can run, and why not.
struct DeviceStatus {
  bool available = false;
  std::string reason;               ///< why not: "CPU-only build", "no CUDA driver", "no CUDA device", …
  DeviceInfo info;                  ///< the selected device (the one runs use); valid when available
  std::vector<DeviceInfo> devices;  ///< every CUDA device of the machine, by index (empty without one)
  bool operator==(const DeviceStatus&) const = default;
};

/// Why `index` cannot be selected among `s.devices` ("no CUDA device …", "device 3 does not exist: this machine has
/// 2 CUDA devices (0 to 1)"), or "" when it can. One message for the CLI's --device, requests and the window.
std::string deviceProblem(const DeviceStatus& s, int index);

/// The engine's view of the GPU. Implementations are thread-compatible: call from one thread at a time.
class GpuRuntime {
 public:
  virtual ~GpuRuntime() = default;
  virtual DeviceStatus status() const = 0;
  /// Free and total device memory in bytes; {0,0} when unavailable. Free includes what the runtime keeps from the
  /// last run for the next (kernels/common/pipeline_pool.h), which that run reuses or frees first.
  virtual std::pair<std::size_t, std::size_t> memoryInfo() const = 0;
  /// Called after an implementation failed. If the device is in a sticky error state (illegal address, launch
  /// failure…), CUDA's contract is that the process must end before the GPU can be used again: the runtime
  /// resets the device, marks the context lost (status() then reports CUDA unavailable with the reason) and
  /// returns a note saying so; "" when nothing was needed. Long-lived front ends run GPU work in a worker process
  /// (worker.h) and replace it when its context is lost.
  virtual std::string recoverAfterError() = 0;
  /// Makes device `index` (of status().devices) the one status() reports and the current device of the calling
  /// thread (CUDA's current device is per thread: the engine calls this on the thread that runs, before any
  /// allocation). Returns "" or why not (deviceProblem's message, a lost context, a CUDA error).
  virtual std::string selectDevice(int index) = 0;
  /// True once a sticky error has destroyed this process's CUDA context.
  virtual bool contextLost() const { return false; }
  /// NVTX range markers around engine phases (no-ops without NVTX).
  virtual void pushRange(const std::string& name) = 0;
  virtual void popRange() = 0;
  /// cudaMemcpy device-to-device bandwidth over `bytes` (median of reps), in GB/s counting read + write.
  virtual double measureCopyBandwidthGBs(std::size_t bytes, int reps) = 0;
  /// FP32 FMA throughput of a register-only kernel (median of reps), in GFLOP/s counting an FMA as 2; 0 without a GPU.
  virtual double measureFp32FmaGflops(int reps) {
    (void)reps;
    return 0;
  }
};

/// A runtime that reports CUDA as unavailable with the given reason.
std::shared_ptr<GpuRuntime> makeUnavailableGpuRuntime(std::string reason);
/// A runtime that only reports a status obtained elsewhere (e.g. from a worker process): for validating requests
/// against that device's limits. It cannot run anything.
std::shared_ptr<GpuRuntime> makeStaticGpuRuntime(DeviceStatus status);

}  // namespace launchlab
