// row_normalize: x[i, :] / mean(x[i, :]) with one thread, one warp or one block per row.
#include "common/gpu_pipeline.cuh"
#include "common/index_math.h"
#include "common/row_reduce.cuh"
#include "row_normalize/row_normalize.h"

namespace launchlab::kernels::row_normalize {

namespace {

// The exercise's rewrite: a thread per row, a loop for the mean, a loop for the division. x and y may be the same
// array (the seed normalises x in place: each row is read whole before any of it is overwritten).
template <typename T>
__global__ void threadPerRowKernel(const T* x, T* y, std::size_t rows, std::size_t d) {
  const std::size_t stride = idx::gridStride1D(gridDim.x, blockDim.x);
  for (std::size_t r = idx::global1D(blockIdx.x, blockDim.x, threadIdx.x); r < rows; r += stride) {
    const T* in = x + r * d;
    T* out = y + r * d;
    Acc sum = 0;
    for (std::size_t j = 0; j < d; ++j) sum += Acc(in[j]);
    const Acc mean = sum / Acc(d);
    for (std::size_t j = 0; j < d; ++j) out[j] = static_cast<T>(Acc(in[j]) / mean);
  }
}

// A warp per row: coalesced reads, a shuffle reduction to lane 0, the mean broadcast back to every lane. The row
// depends only on the warp, so its lanes run the same iterations and meet at every shuffle.
template <typename T>
__global__ void warpPerRowKernel(const T* __restrict__ x, T* __restrict__ y, std::size_t rows, std::size_t d) {
  const unsigned lane = threadIdx.x % idx::kWarpSize;
  const unsigned warp = threadIdx.x / idx::kWarpSize;
  const unsigned lanes = idx::lanesInWarp(blockDim.x, warp);
  const std::size_t warps = idx::warpsPerBlock(blockDim.x);
  for (std::size_t r = std::size_t(blockIdx.x) * warps + warp; r < rows; r += std::size_t(gridDim.x) * warps) {
    const T* in = x + r * d;
    T* out = y + r * d;
    Acc sum = 0;
    for (std::size_t j = lane; j < d; j += lanes) sum += Acc(in[j]);
    sum = gpu::warpSum(sum, lane, lanes);
    const Acc mean = __shfl_sync(idx::laneMask(lanes), sum, 0) / Acc(d);
    for (std::size_t j = lane; j < d; j += lanes) out[j] = static_cast<T>(Acc(in[j]) / mean);
  }
}

// A block per row: every thread sums a strided part of the row, blockSum combines warps through shared memory and
// hands the total to all threads. The row depends only on the block, so the __syncthreads inside are uniform.
template <typename T>
__global__ void blockPerRowKernel(const T* __restrict__ x, T* __restrict__ y, std::size_t rows, std::size_t d) {
  __shared__ Acc scratch[idx::kWarpSize + 1];
  for (std::size_t r = blockIdx.x; r < rows; r += gridDim.x) {
    const T* in = x + r * d;
    T* out = y + r * d;
    Acc sum = 0;
    for (std::size_t j = threadIdx.x; j < d; j += blockDim.x) sum += Acc(in[j]);
    const Acc mean = gpu::blockSum(sum, scratch) / Acc(d);
    for (std::size_t j = threadIdx.x; j < d; j += blockDim.x) out[j] = static_cast<T>(Acc(in[j]) / mean);
  }
}

// Session 3's exercise 2, as CuPy array operations: x / x.mean(axis=1, keepdims=True) is one reduction kernel (the
// row means, into a temporary) and one broadcast element-wise kernel. The means stay in double so the result has
// the reference's bits.
template <typename T>
__global__ void rowMeansKernel(const T* __restrict__ x, Acc* __restrict__ means, std::size_t rows, std::size_t d) {
  const std::size_t stride = idx::gridStride1D(gridDim.x, blockDim.x);
  for (std::size_t r = idx::global1D(blockIdx.x, blockDim.x, threadIdx.x); r < rows; r += stride) {
    Acc sum = 0;
    for (std::size_t j = 0; j < d; ++j) sum += Acc(x[r * d + j]);
    means[r] = sum / Acc(d);
  }
}

template <typename T>
__global__ void divideByRowKernel(const T* __restrict__ x, const Acc* __restrict__ means, T* __restrict__ y,
                                  std::size_t count, std::size_t d) {
  const std::size_t stride = idx::gridStride1D(gridDim.x, blockDim.x);
  for (std::size_t i = idx::global1D(blockIdx.x, blockDim.x, threadIdx.x); i < count; i += stride)
    y[i] = static_cast<T>(Acc(x[i]) / means[i / d]);
}

template <typename Body>
void dispatch(ImplContext& ctx, Body body) {
  visitDTypeAmong<float, double>(ctx.setup.dtype, [&](auto t) { body(decltype(t){}); });
}

template <typename T, typename Kernel>
void launchRows(ImplContext& ctx, Kernel kernel, const LaunchConfig& cfg) {
  const std::size_t rows = ctx.setup.n, d = std::size_t(ctx.setup.params.integer("d"));
  gpu::runPipeline(ctx, [&](gpu::DeviceArrays& dev, cudaStream_t s) {
    kernel<<<gpu::toDim3(cfg.grid), gpu::toDim3(cfg.block), 0, s>>>(dev.input<T>(0), dev.output<T>(0), rows, d);
  });
}

}  // namespace

void cudaThreadPerRow(ImplContext& ctx) {
  dispatch(ctx, [&](auto tag) {
    using T = decltype(tag);
    const auto cfg = gpu::resolveLaunch1D(ctx, threadPerRowKernel<T>, ctx.setup.n, gpu::GridPolicy::CoverN);
    ctx.launchNote = "one thread per row; " + ctx.launchNote;
    launchRows<T>(ctx, threadPerRowKernel<T>, cfg);
  });
}

void cudaThreadPerRowInPlace(ImplContext& ctx) {
  dispatch(ctx, [&](auto tag) {
    using T = decltype(tag);
    const std::size_t rows = ctx.setup.n, d = std::size_t(ctx.setup.params.integer("d"));
    const auto cfg = gpu::resolveLaunch1D(ctx, threadPerRowKernel<T>, rows, gpu::GridPolicy::CoverN);
    ctx.launchNote = "one thread per row, in place; " + ctx.launchNote;
    gpu::runPipeline(ctx, [&](gpu::DeviceArrays& dev, cudaStream_t s) {
      T* y = dev.output<T>(0);
      LAUNCHLAB_CUDA_CHECK(cudaMemcpyAsync(y, dev.input<T>(0), rows * d * sizeof(T), cudaMemcpyDeviceToDevice, s));
      threadPerRowKernel<T><<<gpu::toDim3(cfg.grid), gpu::toDim3(cfg.block), 0, s>>>(y, y, rows, d);
    });
  });
}

void cudaArrayPasses(ImplContext& ctx) {
  dispatch(ctx, [&](auto tag) {
    using T = decltype(tag);
    const std::size_t rows = ctx.setup.n, d = std::size_t(ctx.setup.params.integer("d"));
    const auto cfg = gpu::resolveLaunch1D(ctx, divideByRowKernel<T>, rows * d, gpu::GridPolicy::CoverN);
    ctx.launchNote =
        "two array passes (row means, then the broadcast division), each with this launch; " + ctx.launchNote;
    gpu::DeviceBuffer means(rows * sizeof(Acc));  // allocated once, as CuPy's memory pool reuses its blocks
    gpu::runPipeline(ctx, [&](gpu::DeviceArrays& dev, cudaStream_t s) {
      const dim3 grid = gpu::toDim3(cfg.grid), block = gpu::toDim3(cfg.block);
      rowMeansKernel<T><<<grid, block, 0, s>>>(dev.input<T>(0), means.as<Acc>(), rows, d);
      divideByRowKernel<T><<<grid, block, 0, s>>>(dev.input<T>(0), means.as<Acc>(), dev.output<T>(0), rows * d, d);
    });
    ctx.metrics["kernel_launches_per_rep"] = 2;
  });
}

void cudaWarpPerRow(ImplContext& ctx) {
  dispatch(ctx, [&](auto tag) {
    using T = decltype(tag);
    const auto cfg = gpu::resolveRowLaunch(ctx, warpPerRowKernel<T>, ctx.setup.n, gpu::RowMapping::WarpPerRow);
    launchRows<T>(ctx, warpPerRowKernel<T>, cfg);
  });
}

void cudaBlockPerRow(ImplContext& ctx) {
  dispatch(ctx, [&](auto tag) {
    using T = decltype(tag);
    const auto cfg = gpu::resolveRowLaunch(ctx, blockPerRowKernel<T>, ctx.setup.n, gpu::RowMapping::BlockPerRow);
    launchRows<T>(ctx, blockPerRowKernel<T>, cfg);
  });
}

}  // namespace launchlab::kernels::row_normalize
