// transpose: naive, and through a shared tile (32 x 32 unpadded as in the seed, padded [32][33], wide padded
// [64][65]). The naive kernel strides over the grid in both axes, the tile kernels over the tiles by the whole grid,
// so any launch covers any rows x cols; the tails are bounds-checked.
#include "common/gpu_pipeline.cuh"
#include "common/index_math.h"
#include "common/matrix_shape.h"
#include "common/probe_launch.cuh"
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

/// The elements thread (threadIdx.x, threadIdx.y) handles in a Tile x Tile tile: fixed loops for a BX x BY block
/// (BX = 0: any block, loops over blockDim).
template <unsigned Tile, unsigned BX, unsigned BY, typename F>
__device__ __forceinline__ void forTile(F&& f) {
  if constexpr (BX == 0)
    idx::tileElements<Tile>(threadIdx.x, threadIdx.y, blockDim.x, blockDim.y, f);
  else
    idx::tileElementsFixed<Tile, BX, BY>(threadIdx.x, threadIdx.y, f);
}

/// Tile (tx, ty) of a: read by rows into shared memory, then written by rows of t (= columns of the tile). Pad = 1
/// gives the tile rows of Tile + 1 words, so a column's words fall in 32 different banks (Tile = 32 or 64). Full
/// tiles take unchecked loops (all of a thread's loads issued back to back); the edge tiles check each element.
/// The grid's blocks, numbered row by row, take the tiles down the columns of a (ty fastest; striding by the whole
/// grid when it is smaller): the blocks running at once then write long runs of each row of t and read short
/// pieces of many rows of a, which the H200's DRAM serves 2-6 % faster than the opposite (PERFORMANCE.md).
template <typename T, unsigned Tile, unsigned Pad, unsigned BX, unsigned BY>
__global__ void tileKernel(const T* __restrict__ a, T* __restrict__ t, std::uint32_t rows, std::uint32_t cols) {
  __shared__ T tile[Tile][Tile + Pad];
  const std::uint32_t tilesY = (rows + Tile - 1) / Tile, tiles = (cols + Tile - 1) / Tile * tilesY;
  // 64-bit ids: a grid's block count can pass 2^32; a tile's number (< tiles) cannot.
  for (std::uint64_t id = std::uint64_t(blockIdx.y) * gridDim.x + blockIdx.x; id < tiles;
       id += std::uint64_t(gridDim.x) * gridDim.y) {
    const std::uint32_t c0 = std::uint32_t(id) / tilesY * Tile, r0 = std::uint32_t(id) % tilesY * Tile;
    const std::uint32_t w = min(Tile, cols - c0), h = min(Tile, rows - r0);
    const T* src = a + std::size_t(r0) * cols + c0;  // a[r0][c0]
    T* dst = t + std::size_t(c0) * rows + r0;        // t[c0][r0]
    if (w == Tile && h == Tile) {
      forTile<Tile, BX, BY>([&](std::uint32_t i, std::uint32_t j) { tile[j][i] = src[std::size_t(j) * cols + i]; });
    } else {
      forTile<Tile, BX, BY>([&](std::uint32_t i, std::uint32_t j) {
        if (j < h && i < w) tile[j][i] = src[std::size_t(j) * cols + i];
      });
    }
    __syncthreads();
    // Row c0 + j of t, column r0 + i, is a[r0 + i][c0 + j] = tile[i][j].
    if (w == Tile && h == Tile) {
      forTile<Tile, BX, BY>([&](std::uint32_t i, std::uint32_t j) { dst[std::size_t(j) * rows + i] = tile[i][j]; });
    } else {
      forTile<Tile, BX, BY>([&](std::uint32_t i, std::uint32_t j) {
        if (j < w && i < h) dst[std::size_t(j) * rows + i] = tile[i][j];
      });
    }
    __syncthreads();  // the next tile overwrites this one
  }
}

template <unsigned Tile, unsigned Pad>
void runTile(ImplContext& ctx) {
  visitDTypeAmong<float, double, std::int32_t>(ctx.setup.dtype, [&](auto tag) {
    using T = decltype(tag);
    const MatrixShape m = matrixShape(ctx.setup);
    gpu::Work2D work(m.cols, m.rows);
    // 32 x 8 (measured best on the H200 for both tile sides with the tiles taken down the columns: PERFORMANCE.md).
    work.autoBlock = Dim3{32, 8, 1};
    work.autoBlockWhy = "32 x " + std::to_string(work.autoBlock.y) + " threads per " + std::to_string(Tile) + " x " +
                        std::to_string(Tile) + " tile, " + std::to_string(Tile * Tile / work.autoBlock.count()) +
                        " elements each";
    work.perBlock = Dim3{Tile, Tile, 1};
    const auto cfg = gpu::resolveLaunch2D(ctx, work);
    const Dim3 b = cfg.block;
    auto kernel = tileKernel<T, Tile, Pad, 0, 0>;  // any block
    if (b == Dim3{32, 8, 1})
      kernel = tileKernel<T, Tile, Pad, 32, 8>;
    else if (b == Dim3{32, 16, 1})
      kernel = tileKernel<T, Tile, Pad, 32, 16>;
    else if (b == Dim3{32, 32, 1})
      kernel = tileKernel<T, Tile, Pad, 32, 32>;
    const auto rows = std::uint32_t(m.rows), cols = std::uint32_t(m.cols);
    gpu::recordKernelOccupancy(ctx, reinterpret_cast<const void*>(kernel), cfg);
    gpu::runPipeline(ctx, [&](gpu::DeviceArrays& d, cudaStream_t s) {
      gpu::launch(ctx, kernel, gpu::toDim3(cfg.grid), gpu::toDim3(b), 0, s, d.input<T>(0), d.output<T>(0), rows, cols);
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
      gpu::launch(ctx, naiveKernel<T>, gpu::toDim3(cfg.grid), gpu::toDim3(cfg.block), 0, s, d.input<T>(0),
                  d.output<T>(0), m.rows, m.cols);
    });
  });
  fillBankPicture(ctx.output("banks"));
}

void cudaTile(ImplContext& ctx) { runTile<kTile, 0>(ctx); }
void cudaTilePadded(ImplContext& ctx) { runTile<kTile, 1>(ctx); }
void cudaTilePadded64(ImplContext& ctx) { runTile<kWideTile, 1>(ctx); }

}  // namespace launchlab::kernels::transpose
