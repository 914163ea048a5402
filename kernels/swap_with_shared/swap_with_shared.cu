// swap_with_shared: a block per segment (grid-stride over segments), the segment staged in dynamic shared memory.
#include <algorithm>
#include <cstdint>

#include "common/gpu_pipeline.cuh"
#include "common/probe_launch.cuh"
#include "swap_with_shared/swap_with_shared.h"

namespace launchlab::kernels::swap_with_shared {

namespace {

/// swapped[s0 + k] = vector[s0 + len - 1 - k] for every segment [s0, s0 + len) of `seg` elements (the last one may
/// be shorter). Threads stride over the segment, so any block size works. Sync = false leaves out both barriers: a
/// thread then reads temp[len - 1 - k] whether or not its writer (another warp) has stored it yet.
template <typename T, bool Sync>
__global__ void swapKernel(const T* __restrict__ vector, T* __restrict__ swapped, std::uint64_t n, std::uint32_t seg) {
  extern __shared__ __align__(16) unsigned char raw[];
  T* temp = reinterpret_cast<T*>(raw);
  const std::uint64_t segments = ceilDiv(n, std::uint64_t(seg));
  for (std::uint64_t sIdx = blockIdx.x; sIdx < segments; sIdx += gridDim.x) {
    const std::uint64_t s0 = sIdx * seg;
    const auto len = std::uint32_t(min(std::uint64_t(seg), n - s0));
    for (std::uint32_t k = threadIdx.x; k < len; k += blockDim.x) temp[k] = vector[s0 + k];
    if constexpr (Sync) __syncthreads();  // the read below takes an element another thread wrote
    for (std::uint32_t k = threadIdx.x; k < len; k += blockDim.x) swapped[s0 + k] = temp[mirrored(k, len)];
    if constexpr (Sync) __syncthreads();  // the next segment overwrites temp
  }
}

template <bool Sync>
void run(ImplContext& ctx) {
  visitDTypeAmong<std::int32_t, std::int64_t, float, double>(ctx.setup.dtype, [&](auto tag) {
    using T = decltype(tag);
    const std::uint64_t n = ctx.setup.n;
    const auto seg = std::uint32_t(ctx.setup.params.integer("segment"));
    const bool autoBlock = !ctx.launch.block;
    if (autoBlock) ctx.launch.block = Dim3{std::min<std::uint32_t>(seg, 1024), 1, 1};
    const std::uint64_t threads = ctx.launch.block->count();
    const auto cfg = gpu::resolveLaunch1D(ctx, swapKernel<T, Sync>, ceilDiv(n, std::uint64_t(seg)) * threads,
                                          gpu::GridPolicy::CoverN, seg * sizeof(T));
    if (autoBlock)
      ctx.launchNote = "auto block: " + std::to_string(cfg.block.x) + " = the segment (one thread per element, as " +
                       "the seed's 1 x 4 launch; at most 1024); " + ctx.launchNote + " (one block per segment)";
    gpu::runPipeline(ctx, [&](gpu::DeviceArrays& d, cudaStream_t s) {
      gpu::launch(ctx, swapKernel<T, Sync>, gpu::toDim3(cfg.grid), gpu::toDim3(cfg.block), cfg.dynamicSmemBytes, s,
                  d.input<T>(0), d.output<T>(0), n, seg);
    });
  });
}

}  // namespace

void cudaShared(ImplContext& ctx) { run<true>(ctx); }
void cudaSharedNoSync(ImplContext& ctx) { run<false>(ctx); }

}  // namespace launchlab::kernels::swap_with_shared
