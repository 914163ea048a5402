#pragma once
/// Warp and block sums for 1-D blocks of ANY size (1, 33, 1000, 1024 threads): a final partial warp reduces with
/// a mask of the lanes that exist, so no shuffle ever names a thread that is not there as a participant.
/// Device code only (include from .cu files).
#include <cuda_runtime.h>

namespace launchlab::gpu {

/// Threads of the calling thread's warp that exist in its (1-D) block: 32, except in a final partial warp.
__device__ __forceinline__ unsigned lanesInWarp() {
  const unsigned left = blockDim.x - (threadIdx.x & ~31u);
  return left < 32u ? left : 32u;
}

/// Sum of `v` over the calling warp (every existing lane must call it); the result is valid in lane 0.
/// The combination order is a fixed tree, so floating-point results are deterministic.
template <typename T> __device__ __forceinline__ T warpSum(T v) {
  const unsigned lanes = lanesInWarp();
  if (lanes == 32u) {
#pragma unroll
    for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffffu, v, o);
  } else {
    // Partial warp: the mask names only existing lanes. A source lane beyond them returns an undefined value,
    // which is ignored.
    const unsigned lane = threadIdx.x & 31u;
    const unsigned mask = (1u << lanes) - 1u;
#pragma unroll
    for (int o = 16; o > 0; o >>= 1) {
      const T other = __shfl_down_sync(mask, v, o);
      if (lane + unsigned(o) < lanes) v += other;
    }
  }
  return v;
}

/// Sum of `v` over the block; the result is valid in thread 0. `scratch` is shared memory for 32 values.
/// Contains __syncthreads(): every thread of the block must call it (never from divergent code), and
/// `scratch` may be reused as soon as it returns.
template <typename T> __device__ __forceinline__ T blockSum(T v, T* scratch) {
  v = warpSum(v);
  const unsigned warp = threadIdx.x >> 5, lane = threadIdx.x & 31u;
  if (lane == 0) scratch[warp] = v;
  __syncthreads();
  T total = T(0);
  if (warp == 0) {
    const unsigned warps = (blockDim.x + 31u) >> 5;
    total = warpSum(lane < warps ? scratch[lane] : T(0));
  }
  __syncthreads();
  return total;
}

}  // namespace launchlab::gpu
