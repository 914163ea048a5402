// l2_norm: one thread per row (the gufunc) against one warp per row with shuffles.
#include "common/gpu_pipeline.cuh"
#include "common/index_math.h"
#include "common/row_reduce.cuh"
#include "l2_norm/l2_norm.h"

namespace launchlab::kernels::l2_norm {

namespace {

// The gufunc: each thread walks its own row; a grid-stride loop over rows makes any grid correct.
template <typename T>
__global__ void threadPerRowKernel(const T* __restrict__ x, T* __restrict__ out, std::size_t rows, std::size_t d) {
  const std::size_t stride = idx::gridStride1D(gridDim.x, blockDim.x);
  for (std::size_t r = idx::global1D(blockIdx.x, blockDim.x, threadIdx.x); r < rows; r += stride) {
    const T* row = x + r * d;
    Acc acc = 0;
    for (std::size_t j = 0; j < d; ++j) {
      const Acc v = row[j];
      acc += v * v;
    }
    out[r] = static_cast<T>(sqrt(acc));
  }
}

// One warp per row: lane k reads elements k, k + lanes, … (consecutive lanes, consecutive addresses), then the
// partial sums meet in lane 0 through shuffles. The row index depends only on the warp, so all lanes of a warp
// run the same iterations and reach the shuffles together.
template <typename T>
__global__ void warpPerRowKernel(const T* __restrict__ x, T* __restrict__ out, std::size_t rows, std::size_t d) {
  const unsigned lane = threadIdx.x % idx::kWarpSize;
  const unsigned warp = threadIdx.x / idx::kWarpSize;
  const unsigned lanes = idx::lanesInWarp(blockDim.x, warp);
  const std::size_t warps = idx::warpsPerBlock(blockDim.x);
  for (std::size_t r = std::size_t(blockIdx.x) * warps + warp; r < rows; r += std::size_t(gridDim.x) * warps) {
    const T* row = x + r * d;
    Acc acc = 0;
    for (std::size_t j = lane; j < d; j += lanes) {
      const Acc v = row[j];
      acc += v * v;
    }
    acc = gpu::warpSum(acc, lane, lanes);
    if (lane == 0) out[r] = static_cast<T>(sqrt(acc));
  }
}

template <typename Body>
void dispatch(ImplContext& ctx, Body body) {
  visitDTypeAmong<float, double>(ctx.setup.dtype, [&](auto t) { body(decltype(t){}); });
}

}  // namespace

void cudaThreadPerRow(ImplContext& ctx) {
  dispatch(ctx, [&](auto tag) {
    using T = decltype(tag);
    const std::size_t rows = ctx.setup.n, d = std::size_t(ctx.setup.params.integer("d"));
    const auto cfg = gpu::resolveLaunch1D(ctx, threadPerRowKernel<T>, rows, gpu::GridPolicy::CoverN);
    gpu::runPipeline(ctx, [&](gpu::DeviceArrays& dev, cudaStream_t s) {
      threadPerRowKernel<T>
          <<<gpu::toDim3(cfg.grid), gpu::toDim3(cfg.block), 0, s>>>(dev.input<T>(0), dev.output<T>(0), rows, d);
    });
    ctx.launchNote = "one thread per row; " + ctx.launchNote;
  });
}

void cudaWarpPerRow(ImplContext& ctx) {
  dispatch(ctx, [&](auto tag) {
    using T = decltype(tag);
    const std::size_t rows = ctx.setup.n, d = std::size_t(ctx.setup.params.integer("d"));
    const auto cfg = gpu::resolveRowLaunch(ctx, warpPerRowKernel<T>, rows, gpu::RowMapping::WarpPerRow);
    gpu::runPipeline(ctx, [&](gpu::DeviceArrays& dev, cudaStream_t s) {
      warpPerRowKernel<T>
          <<<gpu::toDim3(cfg.grid), gpu::toDim3(cfg.block), 0, s>>>(dev.input<T>(0), dev.output<T>(0), rows, d);
    });
  });
}

}  // namespace launchlab::kernels::l2_norm
