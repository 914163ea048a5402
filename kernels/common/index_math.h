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
#ifdef __CUDA_ARCH__
#define LAUNCHLAB_UNROLL _Pragma("unroll")
#else
#define LAUNCHLAB_UNROLL
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

namespace launchlab::idx {

/// The 2-D grid-stride walk of a cols x rows matrix: the thread whose global 2-D index is (x0, y0) in a grid of
/// (sx, sy) threads calls f(x, y) for x = x0, x0 + sx, … < cols and y = y0, y0 + sy, … < rows. Every element is
/// visited by exactly one thread of any grid (tested on the host), so 2-D kernels take any launch.
template <typename F>
LAUNCHLAB_HD void gridStride2D(std::uint64_t x0, std::uint64_t y0, std::uint64_t sx, std::uint64_t sy,
                               std::uint64_t cols, std::uint64_t rows, F&& f) {
  for (std::uint64_t y = y0; y < rows; y += sy)
    for (std::uint64_t x = x0; x < cols; x += sx) f(x, y);
}

/// The elements of one T x T tile that thread (tx, ty) of a (bx, by) block handles: f(i, j) for columns
/// i = tx, tx + bx, … < T and rows j = ty, ty + by, … < T (a block of 32 x 8 threads does 4 rows each).
template <unsigned T, typename F>
LAUNCHLAB_HD void tileElements(std::uint32_t tx, std::uint32_t ty, std::uint32_t bx, std::uint32_t by, F&& f) {
  for (std::uint32_t j = ty; j < T; j += by)
    for (std::uint32_t i = tx; i < T; i += bx) f(i, j);
}

}  // namespace launchlab::idx

namespace launchlab::idx {

/// tileElements for a block of exactly BX x BY threads (T a multiple of both): the same elements in fixed-count
/// loops the compiler unrolls (32 x 8 threads on a 32 x 32 tile: 4 rows each).
template <unsigned T, unsigned BX, unsigned BY, typename F>
LAUNCHLAB_HD void tileElementsFixed(std::uint32_t tx, std::uint32_t ty, F&& f) {
  static_assert(T % BX == 0 && T % BY == 0, "the tile must be a multiple of the block");
  LAUNCHLAB_UNROLL
  for (std::uint32_t k = 0; k < T / BY; ++k) LAUNCHLAB_UNROLL
  for (std::uint32_t l = 0; l < T / BX; ++l) f(tx + l * BX, ty + k * BY);
}

}  // namespace launchlab::idx
