#pragma once
/// Launch index arithmetic shared by the CUDA kernels and the host-side tests that simulate every thread of
/// a launch ("every index visited exactly once"). Plain functions of the built-in values, so they compile
/// for host and device.
#include <cstdint>

#ifdef __CUDACC__
#define LAUNCHLAB_HD __host__ __device__ __forceinline__
#else
#define LAUNCHLAB_HD inline
#endif

namespace launchlab::idx {

/// blockIdx.x * blockDim.x + threadIdx.x, in 64 bits (grids of more than 2^32 threads are legal).
LAUNCHLAB_HD std::uint64_t global1D(std::uint32_t blockIdx, std::uint32_t blockDim, std::uint32_t threadIdx) {
  return std::uint64_t(blockIdx) * blockDim + threadIdx;
}
/// gridDim.x * blockDim.x: the step of a grid-stride loop.
LAUNCHLAB_HD std::uint64_t gridStride1D(std::uint32_t gridDim, std::uint32_t blockDim) {
  return std::uint64_t(gridDim) * blockDim;
}
/// Number of elements a grid-stride thread with global index `start` handles in [0, n).
LAUNCHLAB_HD std::uint64_t gridStrideCount(std::uint64_t start, std::uint64_t stride, std::uint64_t n) {
  return start < n ? (n - start + stride - 1) / stride : 0;
}

/// The partition a vectorised grid-stride kernel walks: n elements seen as n / W vectors of W elements.
/// Thread `tid` of `stride` threads calls unrolled(i) for groups of U vectors i, i + stride, …, i + (U-1)·stride,
/// then single(i) for its remaining vectors, and the first (n mod W) threads call scalar(t) for the tail
/// elements. Every vector and every tail element is visited by exactly one thread (tested on the host).
template <unsigned W, unsigned U, typename Unrolled, typename Single, typename Scalar>
LAUNCHLAB_HD void vectorizedGridStride(std::uint64_t tid, std::uint64_t stride, std::uint64_t n, Unrolled&& unrolled,
                                       Single&& single, Scalar&& scalar) {
  const std::uint64_t nv = n / W;
  std::uint64_t i = tid;
  for (; i + (U - 1) * stride < nv; i += U * stride) unrolled(i);
  for (; i < nv; i += stride) single(i);
  const std::uint64_t t = nv * W + tid;
  if (t < n) scalar(t);
}

}  // namespace launchlab::idx
