#include <algorithm>
#include <cstdlib>
#include <exception>
#include <memory>
#include <mutex>
#include <stdexcept>

#include "common/block_trace.cuh"
#include "common/gpu_pipeline.cuh"
#include "common/pipeline_pool.h"
#include "render/cuda_ipc.h"

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

std::size_t kitBytes(const PipelineKit& k) {
  std::size_t b = 0;
  for (const auto& x : k.arrays.in) b += x.bytes();
  for (const auto& x : k.arrays.out) b += x.bytes();
  for (const auto& x : k.reference) b += x.bytes();
  return b;
}

/// Raises *flag when any of the n 16-byte words (then the `tail` bytes after them) of a and b differ.
__global__ void differsKernel(const uint4* a, const uint4* b, std::size_t n, const unsigned char* ta,
                              const unsigned char* tb, std::size_t tail, unsigned int* flag) {
  bool differs = false;
  const std::size_t stride = std::size_t(gridDim.x) * blockDim.x;
  for (std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride) {
    const uint4 x = a[i], y = b[i];
    differs |= (x.x != y.x) | (x.y != y.y) | (x.z != y.z) | (x.w != y.w);
  }
  if (blockIdx.x == 0 && threadIdx.x < tail) differs |= ta[threadIdx.x] != tb[threadIdx.x];
  if (__syncthreads_or(differs) && threadIdx.x == 0) *flag = 1;
}

/// Uploads ctx's reference into the kit unless it holds this generation already; false when it cannot.
bool holdReference(const ImplContext& ctx, PipelineKit& kit, cudaStream_t s) {
  const auto& ref = *ctx.compareReference;
  bool same = kit.referenceGeneration == ctx.referenceGeneration && kit.reference.size() == ref.size();
  for (std::size_t i = 0; same && i < ref.size(); ++i) same = kit.reference[i].bytes() == ref[i].bytes();
  if (same) return true;
  kit.reference.clear();
  kit.referenceGeneration = 0;
  std::size_t need = 0, freeB = 0, totalB = 0;
  for (const auto& r : ref) need += r.bytes();
  if (cudaMemGetInfo(&freeB, &totalB) != cudaSuccess || need + (64u << 20) > freeB) return false;
  for (const auto& r : ref) {
    kit.reference.emplace_back(r.bytes());
    if (r.bytes())
      LAUNCHLAB_CUDA_CHECK(cudaMemcpyAsync(kit.reference.back().get(), r.data(), r.bytes(), cudaMemcpyHostToDevice, s));
  }
  kit.referenceGeneration = ctx.referenceGeneration;
  return true;
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

void compareWithReference(ImplContext& ctx, PipelineKit& kit, cudaStream_t s) {
  if (!ctx.compareReference) return;
  const auto& ref = *ctx.compareReference;
  const auto& out = kit.arrays.out;
  if (ref.size() != out.size()) return;
  for (std::size_t i = 0; i < ref.size(); ++i)
    if (ref[i].bytes() != out[i].bytes()) return;
  if (!holdReference(ctx, kit, s)) return;
  if (!kit.differs.bytes()) kit.differs = DeviceBuffer(sizeof(unsigned int));
  auto* flag = kit.differs.as<unsigned int>();
  LAUNCHLAB_CUDA_CHECK(cudaMemsetAsync(flag, 0, sizeof(unsigned int), s));
  for (std::size_t i = 0; i < out.size(); ++i) {
    const std::size_t words = out[i].bytes() / 16, tail = out[i].bytes() % 16;
    if (!out[i].bytes()) continue;
    const auto* a = out[i].as<const unsigned char>();
    const auto* b = kit.reference[i].as<const unsigned char>();
    const unsigned blocks = unsigned(std::min<std::size_t>((words + 255) / 256 + 1, 4096));
    differsKernel<<<blocks, 256, 0, s>>>(reinterpret_cast<const uint4*>(a), reinterpret_cast<const uint4*>(b), words,
                                         a + 16 * words, b + 16 * words, tail, flag);
    LAUNCHLAB_CUDA_CHECK_LAUNCH();
  }
  unsigned int h = 1;
  LAUNCHLAB_CUDA_CHECK(cudaMemcpyAsync(&h, flag, sizeof h, cudaMemcpyDeviceToHost, s));
  LAUNCHLAB_CUDA_CHECK(cudaStreamSynchronize(s));
  ctx.identicalToReference = h == 0;
}

void exportOutputs(ImplContext& ctx, const PipelineKit& kit) {
  if (!ctx.exportDeviceOutputs) return;
  for (std::size_t i = 0; i < kit.arrays.out.size() && i < ctx.outputs.size(); ++i) {
    const DeviceBuffer& b = kit.arrays.out[i];
    if (!b.bytes()) continue;
    const ipc::Exported e = ipc::exportDeviceBuffer(b.get());
    if (!e.ok()) throw std::runtime_error(e.error);
    ctx.deviceOutputs.push_back({ctx.outputs[i].name(), ctx.outputs[i].dtype(), ctx.outputs[i].shape(), b.bytes(),
                                 kit.device, e.handle.hex(), e.offset});
  }
}

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
  return pooled() ? kitBytes(*pooled()) : 0;
}

void dropPooledResources(bool deviceWasReset) {
  std::unique_ptr<PipelineKit> kit;
  {
    std::lock_guard lock(poolMutex());
    kit = std::move(pooled());
  }
  if (deviceWasReset)
    (void)kit.release();  // its handles died with the context: forget them, call no CUDA
  else
    destroyOnItsDevice(std::move(kit));
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
      LAUNCHLAB_CUDA_CHECK(
          cudaMemcpyAsync(d.in[i].get(), ctx.inputs[i].data(), ctx.inputs[i].bytes(), cudaMemcpyHostToDevice, s));
}

void copyOutputs(ImplContext& ctx, const DeviceArrays& d, cudaStream_t s) {
  ctx.hostPoisonPending = false;  // every byte of every output comes from the device
  for (std::size_t i = 0; i < ctx.outputs.size(); ++i)
    if (ctx.outputs[i].bytes())
      LAUNCHLAB_CUDA_CHECK(
          cudaMemcpyAsync(ctx.outputs[i].data(), d.out[i].get(), ctx.outputs[i].bytes(), cudaMemcpyDeviceToHost, s));
}

void poisonOutputs(const DeviceArrays& d, cudaStream_t s) {
  for (const auto& b : d.out)
    if (b.bytes()) LAUNCHLAB_CUDA_CHECK(cudaMemsetAsync(b.get(), 0xFF, b.bytes(), s));
}

}  // namespace launchlab::gpu
