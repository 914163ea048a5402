#include "common/gpu_pipeline.cuh"

#include "common/block_trace.cuh"

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
