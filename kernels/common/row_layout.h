#pragma once
/// How a block of any size (1 to 1024 threads, not necessarily a multiple of 32) splits into warps when each
/// warp (or the whole block) works on one row of a matrix. Plain functions so host tests can check the split.
#include <cstdint>

#include "common/index_math.h"  // LAUNCHLAB_HD

namespace launchlab::idx {

constexpr std::uint32_t kWarpSize = 32;

/// Warps in a block of `blockDim` threads; the last one is partial when blockDim % 32 != 0.
LAUNCHLAB_HD std::uint32_t warpsPerBlock(std::uint32_t blockDim) { return (blockDim + kWarpSize - 1) / kWarpSize; }
/// Threads that exist in warp `warp` of a block of `blockDim` threads (32 except in a partial last warp).
LAUNCHLAB_HD std::uint32_t lanesInWarp(std::uint32_t blockDim, std::uint32_t warp) {
  const std::uint32_t first = warp * kWarpSize;
  return blockDim - first < kWarpSize ? blockDim - first : kWarpSize;
}
/// Shuffle mask naming exactly the `lanes` existing threads of a warp.
LAUNCHLAB_HD std::uint32_t laneMask(std::uint32_t lanes) {
  return lanes >= kWarpSize ? 0xFFFFFFFFu : ((1u << lanes) - 1u);
}

}  // namespace launchlab::idx
