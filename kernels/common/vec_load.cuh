#pragma once
/// 16-byte vector types, loads and sums for streaming kernels (device code; include from .cu files).
/// cudaMalloc returns 256-byte aligned memory, so element 0 of a device array starts a 16-byte vector; the
/// n % (16 / sizeof(T)) elements of the tail are left to the caller.
#include <cuda_runtime.h>

#include <cstdint>

#include "common/index_math.h"

namespace launchlab::gpu {

/// The 16-byte vector of T and its element count.
template <typename T>
struct Vec16;
template <>
struct Vec16<float> {
  using type = float4;
};
template <>
struct Vec16<double> {
  using type = double2;
};
template <>
struct Vec16<std::int32_t> {
  using type = int4;
};
template <>
struct Vec16<std::uint32_t> {
  using type = uint4;
};
template <>
struct Vec16<std::int64_t> {
  using type = longlong2;
};
template <typename T>
using Vec16T = typename Vec16<T>::type;
template <typename T>
constexpr int kVec16Width = int(16 / sizeof(T));

/// Element-wise sum of two 16-byte vectors (vector_add's and matrix_add_2d's vectorized kernels).
__device__ __forceinline__ float4 vadd(float4 a, float4 b) { return {a.x + b.x, a.y + b.y, a.z + b.z, a.w + b.w}; }
__device__ __forceinline__ double2 vadd(double2 a, double2 b) { return {a.x + b.x, a.y + b.y}; }
__device__ __forceinline__ int4 vadd(int4 a, int4 b) { return {a.x + b.x, a.y + b.y, a.z + b.z, a.w + b.w}; }
__device__ __forceinline__ longlong2 vadd(longlong2 a, longlong2 b) { return {a.x + b.x, a.y + b.y}; }

/// Read-only load of vector i of `p` through the non-coherent cache.
template <typename T>
__device__ __forceinline__ Vec16T<T> loadVec16(const T* __restrict__ p, std::uint64_t i) {
  return __ldg(reinterpret_cast<const Vec16T<T>*>(p) + i);
}

/// Calls f on each element of a 16-byte vector, in memory order.
template <typename F>
__device__ __forceinline__ void forEachLane(const float4& v, F&& f) {
  f(v.x);
  f(v.y);
  f(v.z);
  f(v.w);
}
template <typename F>
__device__ __forceinline__ void forEachLane(const double2& v, F&& f) {
  f(v.x);
  f(v.y);
}
template <typename F>
__device__ __forceinline__ void forEachLane(const int4& v, F&& f) {
  f(v.x);
  f(v.y);
  f(v.z);
  f(v.w);
}
template <typename F>
__device__ __forceinline__ void forEachLane(const uint4& v, F&& f) {
  f(v.x);
  f(v.y);
  f(v.z);
  f(v.w);
}

/// Grid-stride pass over x[0, n) in 16-byte vectors with U loads in flight per thread (all U issued before any is
/// used): calls onVector(u, vector) for every vector, u in [0, U) being the load slot (so a caller can keep U
/// independent accumulators), then onScalar(element) for this thread's share of the n % W tail elements.
template <int U, typename T, typename VecFn, typename ScalarFn>
__device__ __forceinline__ void gridStrideVec16(const T* __restrict__ x, std::uint64_t n, VecFn&& onVector,
                                                ScalarFn&& onScalar) {
  constexpr int W = kVec16Width<T>;
  const std::uint64_t nv = n / W;
  const std::uint64_t tid = idx::global1D(blockIdx.x, blockDim.x, threadIdx.x);
  const std::uint64_t stride = idx::gridStride1D(gridDim.x, blockDim.x);
  std::uint64_t i = tid;
  for (; i + (U - 1) * stride < nv; i += U * stride) {
    Vec16T<T> v[U];
#pragma unroll
    for (int u = 0; u < U; ++u) v[u] = loadVec16(x, i + u * stride);
#pragma unroll
    for (int u = 0; u < U; ++u) onVector(u, v[u]);
  }
  for (; i < nv; i += stride) onVector(0, loadVec16(x, i));
  if (const std::uint64_t t = nv * W + tid; t < n) onScalar(x[t]);
}

}  // namespace launchlab::gpu
