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

#include "common/hd_math.h"
#include "common/index_math.h"
#include "launchlab/engine/workload.h"

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
template <Shape S>
LAUNCHLAB_HD bool inside(float x, float y) {
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

/// Samples in chunk c (the last chunk may be shorter than iters).
LAUNCHLAB_HD std::uint64_t chunkLength(std::uint64_t n, std::uint64_t iters, std::uint64_t c) {
  const std::uint64_t left = n - c * iters;
  return left < iters ? left : iters;
}

/// The seed's out[tid]: the estimate of each of the first kKeptEstimates chunks (threads), kept as an output.
constexpr std::uint64_t kKeptEstimates = 4096;
inline std::uint64_t keptEstimates(std::uint64_t chunks) { return chunks < kKeptEstimates ? chunks : kKeptEstimates; }

/// The histogram of out[tid]: each thread's estimate minus pi in standard errors of its own sample count (so the
/// bins do not depend on iters), kZBins bins over [-kZRange, kZRange).
constexpr int kZBins = 24;
constexpr double kZRange = 6;
/// The bin of one estimate from `samples` points of a shape with area `fraction` (pi = piFactor * fraction), or -1
/// outside the range. Host and device, the same operations on both (no contractible products).
LAUNCHLAB_HD int zBin(double estimate, double samples, double fraction, double piFactor) {
  const double se = piFactor * hd::sqrt(fraction * (1 - fraction) / samples);
  const double z = (estimate - 3.141592653589793) / se;
  if (!(z >= -kZRange && z < kZRange)) return -1;
  const int b = static_cast<int>((z + kZRange) * (kZBins / (2 * kZRange)));
  return b < kZBins ? b : -1;
}

/// The point cloud: the first kPointsPerChunk samples of each of the first kPointChunks chunks (at most 4096
/// points), so that chunks drawing the same stream (the shared-seed demonstration) show up as repeated points.
constexpr std::uint64_t kPointChunks = 64, kPointsPerChunk = 64;
struct PointLayout {
  std::uint64_t chunks = 0;    ///< chunks shown
  std::uint64_t perChunk = 0;  ///< points of a full chunk; chunk c's points start at c * perChunk
  std::uint64_t count = 0;     ///< points in all (only the run's last chunk can be shorter)
};
inline PointLayout pointLayout(std::uint64_t n, std::uint64_t iters) {
  PointLayout p;
  const std::uint64_t chunks = chunkCount(n, iters);
  p.chunks = chunks < kPointChunks ? chunks : kPointChunks;
  p.perChunk = iters < kPointsPerChunk ? iters : kPointsPerChunk;
  const std::uint64_t lastLen = chunkLength(n, iters, p.chunks - 1);
  p.count = (p.chunks - 1) * p.perChunk + (lastLen < p.perChunk ? lastLen : p.perChunk);
  return p;
}
/// Points drawn from chunk c: min(perChunk, its length).
LAUNCHLAB_HD std::uint64_t pointsOfChunk(std::uint64_t n, std::uint64_t iters, std::uint64_t perChunk,
                                         std::uint64_t c) {
  const std::uint64_t len = chunkLength(n, iters, c);
  return len < perChunk ? len : perChunk;
}
/// Stores point j of the cloud (3 x count: x row, y row, inside row) from one draw's two coordinates.
template <Shape S>
LAUNCHLAB_HD void storePoint(double* cloud, std::uint64_t count, std::uint64_t j, float x, float y) {
  cloud[j] = x;
  cloud[count + j] = y;
  cloud[2 * count + j] = inside<S>(x, y) ? 1.0 : 0.0;
}

/// Writes the outputs from per-segment hits (hitsOf(j) = hits of segment j): *pi = piFactor * hits / n, and the
/// series (2 x segments). Cumulative: row 0 = samples after segment j = min(2^j iters, n), row 1 = the estimate
/// from them. Independent: row 0 = the samples of segment j alone, row 1 = its own estimate, as separate runs of
/// 1, 1, 2, 4, ... chunks would give. Host and device.
template <typename HitsOf>
LAUNCHLAB_HD void writeOutputs(HitsOf hitsOf, unsigned segments, std::uint64_t n, std::uint64_t iters, double piFactor,
                               bool independent, double* pi, double* series) {
  unsigned long long cumulative = 0;
  std::uint64_t before = 0;  // samples of the segments before j
  for (unsigned j = 0; j < segments; ++j) {
    const unsigned long long hits = hitsOf(j);
    cumulative += hits;
    const std::uint64_t chunks = std::uint64_t(1) << j;
    const std::uint64_t samples = chunks * iters < n ? chunks * iters : n;
    const std::uint64_t m = independent ? samples - before : samples;
    series[j] = double(m);
    series[segments + j] = piFactor * double(independent ? hits : cumulative) / double(m);
    before = samples;
  }
  *pi = piFactor * double(cumulative) / double(n);
}

/// Standard error of an estimate from m samples (binomial).
double standardError(const ShapeInfo& s, double m);
/// Counts the first `kept` per-thread estimates into kZBins bins (zBin); counts are overwritten.
void binEstimates(const double* est, std::uint64_t kept, std::uint64_t n, std::uint64_t iters, const ShapeInfo& s,
                  std::uint32_t* counts);

void cudaPhilox(ImplContext& ctx);
void cudaSharedSeed(ImplContext& ctx);

}  // namespace launchlab::kernels::monte_carlo_pi
