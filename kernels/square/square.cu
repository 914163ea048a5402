// square: the exercise's one-thread-per-element kernel, with its bounds check.
#include <cstdint>

#include "common/gpu_pipeline.cuh"
#include "square/square.h"

namespace launchlab::kernels::square {

namespace {
template <typename T>
__global__ void squareKernel(const T* __restrict__ a, T* __restrict__ out, std::size_t n) {
  const std::size_t i = idx::global1D(blockIdx.x, blockDim.x, threadIdx.x);
  if (i < n) out[i] = squareOf(a[i]);
}
}  // namespace

void cudaOnePerThread(ImplContext& ctx) {
  visitDTypeAmong<std::int64_t, std::int32_t, float, double>(ctx.setup.dtype, [&](auto t) {
    using T = decltype(t);
    const std::size_t n = ctx.setup.n;
    const auto cfg = gpu::resolveLaunch1D(ctx, squareKernel<T>, n, gpu::GridPolicy::CoverN);
    gpu::runPipeline(ctx, [&](gpu::DeviceArrays& d, cudaStream_t s) {
      squareKernel<T><<<gpu::toDim3(cfg.grid), gpu::toDim3(cfg.block), 0, s>>>(d.input<T>(0), d.output<T>(0), n);
    });
  });
}

}  // namespace launchlab::kernels::square
