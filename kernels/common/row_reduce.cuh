#pragma once
/// Row reductions for kernels that give a warp or a whole block to each row of a matrix (for .cu files).
/// They are correct for any block size, including sizes that are not a multiple of 32 (the suite runs blocks of
/// 1 and 33): a partial last warp shuffles only among the lanes that exist.
#include <cuda_runtime.h>

#include <string>

#include "common/gpu_pipeline.cuh"
#include "common/row_layout.h"

namespace launchlab::gpu {

/// Sum of `v` over the `lanes` existing lanes of the calling warp (all of them must call it together);
/// the result is valid in lane 0. Lanes whose partner lane does not exist keep their value, so lane 0
/// gathers exactly lanes 0 .. lanes-1 whatever `lanes` is.
template <typename T>
__device__ __forceinline__ T warpSum(T v, unsigned lane, unsigned lanes) {
  const unsigned mask = idx::laneMask(lanes);
#pragma unroll
  for (unsigned offset = idx::kWarpSize / 2; offset > 0; offset /= 2) {
    const T other = __shfl_down_sync(mask, v, offset);
    if (lane + offset < lanes) v += other;
  }
  return v;
}

/// Sum of `v` over the whole block, returned to every thread. `scratch` is shared memory of at least 33
/// elements; the function synchronises before returning, so it can be called again (the next row) at once.
/// Every thread of the block must call it.
template <typename T>
__device__ T blockSum(T v, T* scratch) {
  const unsigned lane = threadIdx.x % idx::kWarpSize;
  const unsigned warp = threadIdx.x / idx::kWarpSize;
  v = warpSum(v, lane, idx::lanesInWarp(blockDim.x, warp));
  if (lane == 0) scratch[warp] = v;
  __syncthreads();
  if (warp == 0) {
    const unsigned warps = idx::warpsPerBlock(blockDim.x);  // <= the lanes of warp 0
    T s = lane < warps ? scratch[lane] : T(0);
    s = warpSum(s, lane, idx::lanesInWarp(blockDim.x, 0));
    if (lane == 0) scratch[idx::kWarpSize] = s;
  }
  __syncthreads();
  const T total = scratch[idx::kWarpSize];
  __syncthreads();  // every thread has read the total before a next call overwrites the scratch
  return total;
}

/// How the rows of a matrix are spread over the threads of a block.
enum class RowMapping { WarpPerRow, BlockPerRow };

/// Resolves the launch of a kernel that gives a warp (or a block) to each row and strides over rows by the grid:
/// block as the user asked or from the occupancy API; auto grid = enough blocks for every row, at most as many as
/// are resident at once. Records the configuration and a note in ctx. Throws InvalidLaunch.
template <typename Kernel>
LaunchConfig resolveRowLaunch(ImplContext& ctx, Kernel kernel, std::uint64_t rows, RowMapping mapping,
                              std::size_t smemBytes = 0) {
  const LaunchRequest asked = ctx.launch;
  // First pass: settles the block (the user's, or the occupancy API's); its note starts with the block part.
  const LaunchConfig first = resolveLaunch1D(ctx, kernel, rows, GridPolicy::CoverN, smemBytes);
  std::string blockNote = "block as requested";
  if (!asked.block) blockNote = ctx.launchNote.substr(0, ctx.launchNote.find("; "));
  const std::uint64_t threads = first.block.count();
  const std::uint64_t rowsPerBlock =
      mapping == RowMapping::WarpPerRow ? idx::warpsPerBlock(static_cast<std::uint32_t>(threads)) : 1;
  // Second pass with that block fixed: the auto grid covers every row once, capped at the resident blocks.
  ctx.launch.block = first.block;
  LaunchConfig cfg;
  try {
    cfg = resolveLaunch1D(ctx, kernel, ceilDiv(rows ? rows : 1, rowsPerBlock) * threads, GridPolicy::Occupancy,
                          smemBytes);
  } catch (...) {
    ctx.launch = asked;
    throw;
  }
  ctx.launch = asked;
  ctx.launchNote = std::string(mapping == RowMapping::WarpPerRow ? "one warp per row, " : "one block per row, ") +
                   std::to_string(rowsPerBlock) + " row(s) per block at a time, grid-stride over rows; " + blockNote +
                   "; " + (asked.grid ? std::string("grid as requested") : ctx.launchNote);
  return cfg;
}

}  // namespace launchlab::gpu
