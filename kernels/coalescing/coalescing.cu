// coalescing: the seed's add_experiment as a grid-stride loop (any launch covers n), reading a[s·i] or a[i].
#include "coalescing/coalescing.h"
#include "common/gpu_pipeline.cuh"
#include "common/index_math.h"
#include "common/probe_launch.cuh"

namespace launchlab::kernels::coalescing {

namespace {

/// out[i] = a[stride·i] + b[stride·i]; the coalesced kernel is the same loop with stride 1.
template <typename T>
__global__ void addExperimentKernel(const T* __restrict__ a, const T* __restrict__ b, T* __restrict__ out,
                                    std::uint64_t n, std::uint64_t stride) {
  const std::uint64_t step = idx::gridStride1D(gridDim.x, blockDim.x);
  for (std::uint64_t i = idx::global1D(blockIdx.x, blockDim.x, threadIdx.x); i < n; i += step)
    out[i] = a[stride * i] + b[stride * i];
}

void run(ImplContext& ctx, bool coalesced) {
  visitDTypeAmong<float, double>(ctx.setup.dtype, [&](auto tag) {
    using T = decltype(tag);
    const std::uint64_t n = ctx.setup.n;
    const std::uint64_t stride = coalesced ? 1 : std::uint64_t(ctx.setup.params.integer("stride"));
    const auto cfg = gpu::resolveLaunch1D(ctx, addExperimentKernel<T>, n, gpu::GridPolicy::CoverN);
    gpu::runPipeline(ctx, [&](gpu::DeviceArrays& d, cudaStream_t s) {
      gpu::launch(ctx, addExperimentKernel<T>, gpu::toDim3(cfg.grid), gpu::toDim3(cfg.block), 0, s, d.input<T>(0),
                  d.input<T>(1), d.output<T>(0), n, stride);
    });
  });
  fillSectorPictures(ctx);
  if (coalesced)
    ctx.metrics["sectors_per_warp_load"] = sectorsPerWarpLoad(1, std::uint32_t(dtypeSize(ctx.setup.dtype)));
}

}  // namespace

void cudaCoalesced(ImplContext& ctx) { run(ctx, true); }
void cudaStrided(ImplContext& ctx) { run(ctx, false); }

}  // namespace launchlab::kernels::coalescing
