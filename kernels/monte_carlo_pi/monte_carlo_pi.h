#pragma once
// monte_carlo_pi (Session 3 compute_pi; TP 3.1; ATLAS project 2 "area by random sampling"): pi from the fraction of
// uniform random points of the unit square that fall in a shape of known area.
//
// Work is cut into chunks of `iters` consecutive samples (the seed's iterations per thread); chunk c draws from its
// own random stream. Hits are accumulated per segment of chunks, [0, 1), [1, 2), [2, 4), [4, 8), ..., so that the
// convergence series (estimate after the first 1, 2, 4, ... chunks) comes from the same samples as the estimate.
#include <bit>
#include <cstdint>
#include <span>
#include <string>

#include "common/index_math.h"
#include "launchlab/workload.h"

namespace launchlab::kernels::monte_carlo_pi {

enum class Shape { Circle, Ring, Curve };
Shape parseShape(const std::string& name);

/// p = area of the shape inside the unit square; every shape gives pi = piFactor * p.
struct ShapeInfo {
  double fraction;
  double piFactor;
};
ShapeInfo shapeInfo(Shape s);

/// A coordinate in [0, 1) from 32 random bits: the top 23 bits on the midpoint lattice (k + 1/2) 2^-23, with two
/// integer operations and one exact float subtraction (1 + k 2^-23 built from bits, minus 1 - 2^-24).
LAUNCHLAB_HD float unitFloat(std::uint32_t bits) {
  const std::uint32_t one = (bits >> 9) | 0x3f800000u;
#ifdef __CUDA_ARCH__
  const float f = __uint_as_float(one);
#else
  const float f = std::bit_cast<float>(one);
#endif
  return f - 0.99999994f;  // 1 - 2^-24, exactly representable
}

/// Whether (x, y) in the unit square lies in the shape: the quarter disc x^2 + y^2 <= 1 (area pi/4, the seed's
/// test), the quarter ring 1/4 <= x^2 + y^2 <= 1 (area 3 pi/16), or the region under y = 1 / (1 + x^2) (area pi/4).
template <Shape S> LAUNCHLAB_HD bool inside(float x, float y) {
  if constexpr (S == Shape::Circle) {
    return x * x + y * y <= 1.0f;
  } else if constexpr (S == Shape::Ring) {
    const float r2 = x * x + y * y;
    return r2 <= 1.0f && r2 >= 0.25f;
  } else {
    return y * (1.0f + x * x) <= 1.0f;
  }
}

/// Segment of chunk c: 0 for chunk 0, else the bit width of c (chunks [2^(s-1), 2^s) form segment s).
LAUNCHLAB_HD unsigned segmentOf(std::uint64_t c) {
#ifdef __CUDA_ARCH__
  return 64u - unsigned(__clzll((long long)c));
#else
  return unsigned(std::bit_width(c));
#endif
}
inline std::uint64_t chunkCount(std::uint64_t n, std::uint64_t iters) { return ceilDiv(n, iters); }
/// Segments (= points of the convergence series) for `chunks` >= 1 chunks.
inline unsigned segmentCount(std::uint64_t chunks) { return segmentOf(chunks - 1) + 1; }

/// Writes the outputs from per-segment hits (hitsOf(j) = hits of segment j): *pi = piFactor * hits / n, and the
/// series (2 x segments, row 0 = samples after segment j = min(2^j iters, n), row 1 = the estimate from them).
/// Host and device.
template <typename HitsOf>
LAUNCHLAB_HD void writeOutputs(HitsOf hitsOf, unsigned segments, std::uint64_t n, std::uint64_t iters,
                               double piFactor, double* pi, double* series) {
  unsigned long long cumulative = 0;
  for (unsigned j = 0; j < segments; ++j) {
    cumulative += hitsOf(j);
    const std::uint64_t chunks = std::uint64_t(1) << j;
    const std::uint64_t samples = chunks * iters < n ? chunks * iters : n;
    series[j] = double(samples);
    series[segments + j] = piFactor * double(cumulative) / double(samples);
  }
  *pi = piFactor * double(cumulative) / double(n);
}

/// Standard error of an estimate from m samples (binomial).
double standardError(const ShapeInfo& s, double m);

void cudaPhilox(ImplContext& ctx);
void cudaSharedSeed(ImplContext& ctx);

}  // namespace launchlab::kernels::monte_carlo_pi
