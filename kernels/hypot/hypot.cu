// hypot: the grid-stride hypot_stride kernel.
#include "common/gpu_pipeline.cuh"
#include "hypot/hypot.h"

namespace launchlab::kernels::hypot_workload {

namespace {
template <typename T>
__global__ void hypotStrideKernel(const T* __restrict__ a, const T* __restrict__ b, T* __restrict__ c, std::size_t n) {
  const std::size_t stride = std::size_t(gridDim.x) * blockDim.x;
  for (std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride) c[i] = hypot(a[i], b[i]);
}
}  // namespace

void cudaGridStride(ImplContext& ctx) {
  visitDTypeAmong<float, double>(ctx.setup.dtype, [&](auto t) {
    using T = decltype(t);
    const std::size_t n = ctx.setup.n;
    const auto cfg = gpu::resolveLaunch1D(ctx, hypotStrideKernel<T>, n, gpu::GridPolicy::Occupancy);
    gpu::runPipeline(ctx, [&](gpu::DeviceArrays& d, cudaStream_t s) {
      hypotStrideKernel<T>
          <<<gpu::toDim3(cfg.grid), gpu::toDim3(cfg.block), 0, s>>>(d.input<T>(0), d.input<T>(1), d.output<T>(0), n);
    });
  });
}

}  // namespace launchlab::kernels::hypot_workload
