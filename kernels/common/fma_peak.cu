// The FP32 FMA ceiling of the device: a kernel of independent fused multiply-adds in registers (no memory traffic
// beyond one store per thread), timed with events, median of the repetitions. The roofline's and the Mandelbrot
// target's compute ceiling.
#include <vector>

#include "common/cuda_check.h"
#include "common/fma_peak.h"
#include "launchlab/engine/result.h"

namespace launchlab::gpu {

namespace {

constexpr int kChains = 8;  // independent FMA chains per thread (covers the FMA pipeline's latency)
constexpr int kIterations = 4096;

__global__ void fmaKernel(float* out, float b, float c) {
  float a[kChains];
#pragma unroll
  for (int k = 0; k < kChains; ++k) a[k] = float(threadIdx.x + k);
  for (int i = 0; i < kIterations; ++i)
#pragma unroll
    for (int k = 0; k < kChains; ++k) a[k] = fmaf(a[k], b, c);
  float s = 0;
#pragma unroll
  for (int k = 0; k < kChains; ++k) s += a[k];
  out[blockIdx.x * blockDim.x + threadIdx.x] = s;  // keeps the chains alive
}

}  // namespace

double measureFp32FmaGflops(int multiprocessors, int reps) {
  const unsigned blocks = unsigned(multiprocessors) * 16, threads = 256;
  DeviceBuffer out(std::size_t(blocks) * threads * sizeof(float));
  Event e0, e1;
  std::vector<double> ms;
  for (int r = -2; r < reps; ++r) {
    e0.record(nullptr);
    fmaKernel<<<blocks, threads>>>(out.as<float>(), 0.999f, 0.001f);
    LAUNCHLAB_CUDA_CHECK_LAUNCH();
    e1.record(nullptr);
    LAUNCHLAB_CUDA_CHECK(cudaEventSynchronize(e1.get()));
    if (r >= 0) ms.push_back(e1.elapsedSince(e0));
  }
  const double med = summarize(ms).medianMs;
  const double flops = 2.0 * kChains * kIterations * double(blocks) * threads;
  return med > 0 ? flops / (med * 1e-3) / 1e9 : 0;
}

}  // namespace launchlab::gpu
