#pragma once
// 16-byte vector types for an element type and their element-wise sum: one load or store instruction moves 16
// bytes (vector_add's vectorized kernel, matrix_add_2d's coalesced-vec16 kernel).
#include <cuda_runtime.h>

#include <cstdint>

namespace launchlab::kernels {

template <typename T> struct Vec16;
template <> struct Vec16<float> { using type = float4; };
template <> struct Vec16<double> { using type = double2; };
template <> struct Vec16<std::int32_t> { using type = int4; };
template <> struct Vec16<std::int64_t> { using type = longlong2; };

__device__ __forceinline__ float4 vadd(float4 a, float4 b) { return {a.x + b.x, a.y + b.y, a.z + b.z, a.w + b.w}; }
__device__ __forceinline__ double2 vadd(double2 a, double2 b) { return {a.x + b.x, a.y + b.y}; }
__device__ __forceinline__ int4 vadd(int4 a, int4 b) { return {a.x + b.x, a.y + b.y, a.z + b.z, a.w + b.w}; }
__device__ __forceinline__ longlong2 vadd(longlong2 a, longlong2 b) { return {a.x + b.x, a.y + b.y}; }

}  // namespace launchlab::kernels
