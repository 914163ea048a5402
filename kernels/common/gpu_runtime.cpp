// The CUDA implementation of launchlab::GpuRuntime (host code, compiled by the C++ compiler).
#include <cuda_runtime_api.h>
#include <nvtx3/nvToolsExt.h>

#include <algorithm>
#include <cstdlib>
#include <vector>

#include "common/cuda_check.h"
#include "common/fma_peak.h"
#include "common/pipeline_pool.h"
#include "launchlab/config.h"
#include "launchlab/engine/result.h"
#include "launchlab/kernels.h"

namespace launchlab::kernels {

namespace {

int attr(cudaDeviceAttr a, int dev) {
  int v = 0;
  if (cudaDeviceGetAttribute(&v, a, dev) != cudaSuccess) return 0;
  return v;
}

class CudaGpuRuntime final : public GpuRuntime {
 public:
  CudaGpuRuntime() { probe(); }

  DeviceStatus status() const override { return m_status; }

  std::pair<std::size_t, std::size_t> memoryInfo() const override {
    if (!m_status.available) return {0, 0};
    std::size_t f = 0, t = 0;
    if (cudaMemGetInfo(&f, &t) != cudaSuccess) return {0, 0};
    return {std::min(t, f + gpu::pooledDeviceBytes()), t};  // the pool's buffers go to (or are freed for) the next run
  }

  std::string recoverAfterError() override {
    if (!m_status.available) return {};
    cudaError_t e = cudaDeviceSynchronize();
    if (e == cudaSuccess) e = cudaGetLastError();
    if (e == cudaSuccess) return {};
    if (!gpu::isStickyError(e)) {
      cudaGetLastError();
      return {};
    }
    const std::string name = cudaGetErrorName(e);
    // CUDA's contract for sticky errors: this process's context is gone for good. Reset the device so its
    // memory is released, and stop offering CUDA in this process.
    gpu::dropPooledResources(true);
    cudaDeviceReset();
    m_lost = true;
    m_status.available = false;
    m_status.reason = "the CUDA context of this process was lost after " + name +
                      " (CUDA requires a new process to use the GPU again)";
    return "device reset after " + name + "; the CUDA context of this process is lost, a new process is needed";
  }

  std::string selectDevice(int index) override {
    if (m_lost) return m_status.reason;
    if (std::string why = deviceProblem(m_status, index); !why.empty()) return why;
    if (cudaError_t e = cudaSetDevice(index); e != cudaSuccess) {
      cudaGetLastError();
      return "cannot use device " + std::to_string(index) + ": " + gpu::errorText(e);
    }
    m_status.info = m_status.devices[std::size_t(index)];
    m_status.available = true;
    m_status.reason.clear();
    return {};
  }

  bool contextLost() const override { return m_lost; }

  void pushRange(const std::string& name) override { nvtxRangePushA(name.c_str()); }
  void popRange() override { nvtxRangePop(); }

  double measureCopyBandwidthGBs(std::size_t bytes, int reps) override {
    if (!m_status.available) return 0;
    gpu::DeviceBuffer a(bytes), b(bytes);
    LAUNCHLAB_CUDA_CHECK(cudaMemset(a.get(), 1, bytes));
    gpu::Event e0, e1;
    std::vector<double> ms;
    for (int r = -2; r < reps; ++r) {
      e0.record(nullptr);
      LAUNCHLAB_CUDA_CHECK(cudaMemcpyAsync(b.get(), a.get(), bytes, cudaMemcpyDeviceToDevice, nullptr));
      e1.record(nullptr);
      LAUNCHLAB_CUDA_CHECK(cudaEventSynchronize(e1.get()));
      if (r >= 0) ms.push_back(e1.elapsedSince(e0));
    }
    const double med = summarize(ms).medianMs;
    return med > 0 ? 2.0 * double(bytes) / (med * 1e-3) / 1e9 : 0;
  }

  double measureFp32FmaGflops(int reps) override {
    return m_status.available ? gpu::measureFp32FmaGflops(m_status.info.multiprocessors, reps) : 0;
  }

 private:
  /// Every device's properties (no context is created), then the default device: LAUNCHLAB_DEVICE or 0.
  void probe() {
    int count = 0;
    cudaError_t e = cudaGetDeviceCount(&count);
    if (e == cudaErrorInsufficientDriver) {
      cudaGetLastError();
      m_status.reason = "no usable NVIDIA driver (cudaErrorInsufficientDriver): CUDA implementations are skipped";
      return;
    }
    if (e == cudaErrorNoDevice || (e == cudaSuccess && count == 0)) {
      cudaGetLastError();
      m_status.reason = "no CUDA device found: CUDA implementations are skipped";
      return;
    }
    if (e != cudaSuccess) {
      cudaGetLastError();
      m_status.reason = "CUDA unavailable: " + gpu::errorText(e);
      return;
    }
    for (int dev = 0; dev < count; ++dev) {
      DeviceInfo d;
      if ((e = queryDevice(dev, d)) != cudaSuccess) {
        m_status.devices.clear();
        m_status.reason = "cannot query device " + std::to_string(dev) + ": " + gpu::errorText(e);
        return;
      }
      m_status.devices.push_back(std::move(d));
    }
    const char* env = std::getenv("LAUNCHLAB_DEVICE");
    const int dev = env ? std::atoi(env) : 0;
    if (std::string why = selectDevice(dev); !why.empty())
      m_status.reason = (env ? "LAUNCHLAB_DEVICE=" + std::string(env) + ": " : std::string()) + why;
  }

  static cudaError_t queryDevice(int dev, DeviceInfo& d) {
    cudaDeviceProp p{};
    if (cudaError_t e = cudaGetDeviceProperties(&p, dev); e != cudaSuccess) return e;
    d.index = dev;
    d.name = p.name;
    d.ccMajor = p.major;
    d.ccMinor = p.minor;
    d.multiprocessors = p.multiProcessorCount;
    d.maxThreadsPerMultiprocessor = p.maxThreadsPerMultiProcessor;
    d.maxBlocksPerMultiprocessor = p.maxBlocksPerMultiProcessor;
    d.registersPerBlock = p.regsPerBlock;
    d.registersPerMultiprocessor = p.regsPerMultiprocessor;
    d.sharedMemPerMultiprocessor = p.sharedMemPerMultiprocessor;
    d.totalGlobalMem = p.totalGlobalMem;
    d.l2CacheBytes = std::size_t(p.l2CacheSize);
    d.memoryBusWidthBits = attr(cudaDevAttrGlobalMemoryBusWidth, dev);
    d.memoryClockKHz = attr(cudaDevAttrMemoryClockRate, dev);
    d.clockKHz = attr(cudaDevAttrClockRate, dev);
    d.theoreticalBandwidthGBs = 2.0 * d.memoryClockKHz * 1e3 * (d.memoryBusWidthBits / 8.0) / 1e9;
    d.eccEnabled = attr(cudaDevAttrEccEnabled, dev) != 0;
    char bus[32] = {};
    if (cudaDeviceGetPCIBusId(bus, int(sizeof bus), dev) == cudaSuccess) d.pciBusId = bus;
    cudaDriverGetVersion(&d.driverVersion);
    cudaRuntimeGetVersion(&d.runtimeVersion);
    d.limits.deviceName = d.name;
    d.limits.maxThreadsPerBlock = p.maxThreadsPerBlock;
    d.limits.maxBlockDim =
        Dim3{std::uint32_t(p.maxThreadsDim[0]), std::uint32_t(p.maxThreadsDim[1]), std::uint32_t(p.maxThreadsDim[2])};
    d.limits.maxGridDim =
        Dim3{std::uint32_t(p.maxGridSize[0]), std::uint32_t(p.maxGridSize[1]), std::uint32_t(p.maxGridSize[2])};
    d.limits.sharedMemPerBlock = p.sharedMemPerBlock;
    d.limits.sharedMemPerBlockOptin = p.sharedMemPerBlockOptin;
    d.limits.warpSize = p.warpSize;
    return cudaSuccess;
  }

  DeviceStatus m_status;
  bool m_lost = false;
};

}  // namespace

std::shared_ptr<GpuRuntime> makeDefaultGpuRuntime() { return std::make_shared<CudaGpuRuntime>(); }
bool builtWithCuda() { return true; }

}  // namespace launchlab::kernels
