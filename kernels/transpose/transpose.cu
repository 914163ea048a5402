// transpose: naive, and through a kTile x kTile shared tile (unpadded as in the seed, padded [32][33]). Every kernel
// strides over the grid in both axes, so any launch covers any rows x cols; the tails are bounds-checked.
#include "common/gpu_pipeline.cuh"
#include "common/index_math.h"
#include "common/matrix_shape.h"
#include "transpose/transpose.h"

namespace launchlab::kernels::transpose {

namespace {

template <typename T>
__global__ void naiveKernel(const T* __restrict__ a, T* __restrict__ t, std::uint64_t rows, std::uint64_t cols) {
  idx::gridStride2D(idx::global1D(blockIdx.x, blockDim.x, threadIdx.x),
                    idx::global1D(blockIdx.y, blockDim.y, threadIdx.y), idx::gridStride1D(gridDim.x, blockDim.x),
                    idx::gridStride1D(gridDim.y, blockDim.y), cols, rows,
                    [&](std::uint64_t x, std::uint64_t y) { t[x * rows + y] = a[y * cols + x]; });
}

/// The elements thread (threadIdx.x, threadIdx.y) handles in a tile: fixed loops for a BX x BY block (BX = 0: any
/// block, loops over blockDim).
template <unsigned BX, unsigned BY, typename F> __device__ __forceinline__ void forTile(F&& f) {
  if constexpr (BX == 0) idx::tileElements<kTile>(threadIdx.x, threadIdx.y, blockDim.x, blockDim.y, f);
  else idx::tileElementsFixed<kTile, BX, BY>(threadIdx.x, threadIdx.y, f);
}

/// Tile (tx, ty) of a: read by rows into shared memory, then written by rows of t (= columns of the tile). Pad = 1
/// gives the tile rows of 33 words, so a column's words fall in 32 different banks.
template <typename T, unsigned Pad, unsigned BX, unsigned BY>
__global__ void tileKernel(const T* __restrict__ a, T* __restrict__ t, std::uint32_t rows, std::uint32_t cols) {
  __shared__ T tile[kTile][kTile + Pad];
  const std::uint32_t tilesX = (cols + kTile - 1) / kTile, tilesY = (rows + kTile - 1) / kTile;
  idx::gridStride2D(blockIdx.x, blockIdx.y, gridDim.x, gridDim.y, tilesX, tilesY, [&](std::uint64_t tx, std::uint64_t ty) {
    const auto c0 = std::uint32_t(tx) * kTile, r0 = std::uint32_t(ty) * kTile;
    const std::uint32_t w = min(kTile, cols - c0), h = min(kTile, rows - r0);
    forTile<BX, BY>([&](std::uint32_t i, std::uint32_t j) {
      if (j < h && i < w) tile[j][i] = a[std::size_t(r0 + j) * cols + c0 + i];
    });
    __syncthreads();
    // Row c0 + j of t, column r0 + i, is a[r0 + i][c0 + j] = tile[i][j].
    forTile<BX, BY>([&](std::uint32_t i, std::uint32_t j) {
      if (j < w && i < h) t[std::size_t(c0 + j) * rows + r0 + i] = tile[i][j];
    });
    __syncthreads();
  });
}

template <unsigned Pad> void runTile(ImplContext& ctx) {
  visitDTypeAmong<float, double, std::int32_t>(ctx.setup.dtype, [&](auto tag) {
    using T = decltype(tag);
    const MatrixShape m = matrixShape(ctx.setup);
    gpu::Work2D work(m.cols, m.rows);
    work.autoBlockWhy = "32 x 8 threads per 32 x 32 tile, 4 elements each";
    work.perBlock = Dim3{kTile, kTile, 1};
    const auto cfg = gpu::resolveLaunch2D(ctx, work);
    const Dim3 b = cfg.block;
    auto kernel = tileKernel<T, Pad, 0, 0>;  // any block
    if (b == Dim3{32, 8, 1}) kernel = tileKernel<T, Pad, 32, 8>;
    else if (b == Dim3{32, 32, 1}) kernel = tileKernel<T, Pad, 32, 32>;
    const auto rows = std::uint32_t(m.rows), cols = std::uint32_t(m.cols);
    gpu::recordKernelOccupancy(ctx, reinterpret_cast<const void*>(kernel), cfg);
    gpu::runPipeline(ctx, [&](gpu::DeviceArrays& d, cudaStream_t s) {
      kernel<<<gpu::toDim3(cfg.grid), gpu::toDim3(b), 0, s>>>(d.input<T>(0), d.output<T>(0), rows, cols);
    });
  });
  fillBankPicture(ctx.output("banks"));
}

}  // namespace

void cudaNaive(ImplContext& ctx) {
  visitDTypeAmong<float, double, std::int32_t>(ctx.setup.dtype, [&](auto tag) {
    using T = decltype(tag);
    const MatrixShape m = matrixShape(ctx.setup);
    gpu::Work2D work(m.cols, m.rows);
    const auto cfg = gpu::resolveLaunch2D(ctx, work);
    gpu::recordKernelOccupancy(ctx, reinterpret_cast<const void*>(naiveKernel<T>), cfg);
    gpu::runPipeline(ctx, [&](gpu::DeviceArrays& d, cudaStream_t s) {
      naiveKernel<T><<<gpu::toDim3(cfg.grid), gpu::toDim3(cfg.block), 0, s>>>(d.input<T>(0), d.output<T>(0), m.rows,
                                                                              m.cols);
    });
  });
  fillBankPicture(ctx.output("banks"));
}

void cudaTile(ImplContext& ctx) { runTile<0>(ctx); }
void cudaTilePadded(ImplContext& ctx) { runTile<1>(ctx); }

}  // namespace launchlab::kernels::transpose
