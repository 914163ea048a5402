#include "common/gpu_pipeline.cuh"

#include <cstdlib>
#include <exception>
#include <memory>
#include <mutex>

#include "common/block_trace.cuh"
#include "common/pipeline_pool.h"

namespace launchlab::gpu {

namespace {

/// Spins until *flag is non-zero or `timeoutNs` have passed on the GPU's global timer.
__global__ void gateKernel(const volatile int* flag, unsigned long long timeoutNs) {
  const unsigned long long t0 = globalTimerNs();
  do {
    if (*flag) return;
  } while (globalTimerNs() - t0 < timeoutNs);
}

}  // namespace

LaunchGate::LaunchGate() {
  LAUNCHLAB_CUDA_CHECK(cudaHostAlloc(reinterpret_cast<void**>(&m_flag), sizeof(int), cudaHostAllocMapped));
  LAUNCHLAB_CUDA_CHECK(cudaHostGetDevicePointer(reinterpret_cast<void**>(&m_deviceFlag), m_flag, 0));
  *m_flag = 1;
}

LaunchGate::~LaunchGate() {
  if (m_flag) {
    release();
    cudaFreeHost(m_flag);
  }
}

void LaunchGate::hold(cudaStream_t s) {
  *reinterpret_cast<volatile int*>(m_flag) = 0;
  gateKernel<<<1, 1, 0, s>>>(m_deviceFlag, 50'000'000ull);
  LAUNCHLAB_CUDA_CHECK_LAUNCH();
}

void LaunchGate::release() { *reinterpret_cast<volatile int*>(m_flag) = 1; }

namespace {

/// The pool: the kit of the last run that ended normally (pipeline_pool.h). The objects themselves are never
/// destroyed (no static destructor racing the CUDA runtime's teardown); an exit handler frees the kit.
std::mutex& poolMutex() {
  static auto* m = new std::mutex;
  return *m;
}
std::unique_ptr<PipelineKit>& pooled() {
  static auto* p = new std::unique_ptr<PipelineKit>;
  return *p;
}

std::size_t arrayBytes(const DeviceArrays& d) {
  std::size_t b = 0;
  for (const auto& x : d.in) b += x.bytes();
  for (const auto& x : d.out) b += x.bytes();
  return b;
}

/// Reallocates the buffers whose sizes differ from ctx's arrays, freeing the old ones first.
void fitArrays(DeviceArrays& d, const ImplContext& ctx) {
  auto fit = [](std::vector<DeviceBuffer>& bufs, const std::vector<HostArray>& arrays) {
    bufs.resize(arrays.size());
    for (std::size_t i = 0; i < arrays.size(); ++i)
      if (bufs[i].bytes() != arrays[i].bytes()) {
        bufs[i] = DeviceBuffer();
        bufs[i] = DeviceBuffer(arrays[i].bytes());
      }
  };
  fit(d.in, ctx.inputs);
  fit(d.out, ctx.outputs);
}

int currentDevice() {
  int dev = 0;
  LAUNCHLAB_CUDA_CHECK(cudaGetDevice(&dev));
  return dev;
}

/// Destroys a kit on its own device, leaving the calling thread's current device as it was.
void destroyOnItsDevice(std::unique_ptr<PipelineKit> kit) {
  if (!kit) return;
  int dev = 0;
  if (cudaGetDevice(&dev) == cudaSuccess && dev != kit->device) {
    if (cudaSetDevice(kit->device) == cudaSuccess) kit.reset();
    cudaSetDevice(dev);
  }
  kit.reset();
}

}  // namespace

KitLease::KitLease(const ImplContext& ctx) : m_exceptions(std::uncaught_exceptions()) {
  const int dev = currentDevice();
  // Registered after the CUDA runtime's own exit handler (a CUDA call came first), so it runs before the runtime
  // is torn down: the pooled set is freed at exit like any other (memcheck's leak check stays meaningful).
  static const bool atExit = std::atexit([] { dropPooledResources(false); }) == 0;
  (void)atExit;
  std::unique_ptr<PipelineKit> kit;
  {
    std::lock_guard lock(poolMutex());
    kit = std::move(pooled());
  }
  if (kit && kit->device != dev) destroyOnItsDevice(std::move(kit));
  if (!kit) {
    kit = std::make_unique<PipelineKit>();
    kit->device = dev;
  }
  fitArrays(kit->arrays, ctx);
  m_kit = kit.release();
}

KitLease::~KitLease() {
  std::unique_ptr<PipelineKit> kit(m_kit);
  if (std::uncaught_exceptions() != m_exceptions) return;  // a failed run: destroy, never reuse
  std::lock_guard lock(poolMutex());
  if (!pooled()) pooled() = std::move(kit);
}

std::size_t pooledDeviceBytes() {
  std::lock_guard lock(poolMutex());
  return pooled() ? arrayBytes(pooled()->arrays) : 0;
}

void dropPooledResources(bool deviceWasReset) {
  std::unique_ptr<PipelineKit> kit;
  {
    std::lock_guard lock(poolMutex());
    kit = std::move(pooled());
  }
  if (deviceWasReset) (void)kit.release();  // its handles died with the context: forget them, call no CUDA
  else destroyOnItsDevice(std::move(kit));
}

DeviceArrays allocateFor(const ImplContext& ctx) {
  DeviceArrays d;
  for (const auto& a : ctx.inputs) d.in.emplace_back(a.bytes());
  for (const auto& a : ctx.outputs) d.out.emplace_back(a.bytes());
  return d;
}

void copyInputs(const ImplContext& ctx, DeviceArrays& d, cudaStream_t s) {
  for (std::size_t i = 0; i < ctx.inputs.size(); ++i)
    if (ctx.inputs[i].bytes())
      LAUNCHLAB_CUDA_CHECK(cudaMemcpyAsync(d.in[i].get(), ctx.inputs[i].data(), ctx.inputs[i].bytes(),
                                           cudaMemcpyHostToDevice, s));
}

void copyOutputs(ImplContext& ctx, const DeviceArrays& d, cudaStream_t s) {
  for (std::size_t i = 0; i < ctx.outputs.size(); ++i)
    if (ctx.outputs[i].bytes())
      LAUNCHLAB_CUDA_CHECK(cudaMemcpyAsync(ctx.outputs[i].data(), d.out[i].get(), ctx.outputs[i].bytes(),
                                           cudaMemcpyDeviceToHost, s));
}

void poisonOutputs(const DeviceArrays& d, cudaStream_t s) {
  for (const auto& b : d.out)
    if (b.bytes()) LAUNCHLAB_CUDA_CHECK(cudaMemsetAsync(b.get(), 0xFF, b.bytes(), s));
}

}  // namespace launchlab::gpu
