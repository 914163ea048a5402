#pragma once
// monte_carlo_area (ATLAS training, Project 2, a schedule line of seed file 004; "compute area by random sampling"):
// the area of a shape from the fraction of uniform points of a box that fall in it. circle: x, y = 2u - 1 in (-1, 1), a
// hit when x^2 + y^2 < 1, pi ~ 4 hits / N; mandelbrot: x = 3u - 2, y = 3u - 1.5, a hit when mandelbrot::classify
// (Floyd's cycle test, reused from kernels/mandelbrot) says inside, area ~ 9 hits / N.
//
// As in the seed, 1024 x 1024 = 2^20 threads each draw N / 2^20 trials (the first N mod 2^20 threads one more).
// Thread t of run r draws from its own counter-based stream (core's rng: keyedBits(streamKey(seed, r 2^20 + t), i)),
// a pure function of (seed, r, t, i) that the CPU and the GPU evaluate alike, and every coordinate and test is
// rounded once per operation on both (mandelbrot::mul/add), so CPU and GPU count exactly the same hits.
//
// The convergence series is the linked solution's scale-up plot: independent runs (their own streams) of m x 2^20
// trials for m = 1, 2, 5, 10, 20, 50, ... below N, then the run of N itself, which gives the estimate.
#include <cstdint>
#include <string>
#include <vector>

#include "common/index_math.h"
#include "launchlab/engine/rng.h"
#include "launchlab/engine/workload.h"
#include "mandelbrot/mandelbrot.h"
#include "monte_carlo_pi/monte_carlo_pi.h"

namespace launchlab::kernels::monte_carlo_area {

enum class Shape { Circle, Mandelbrot };
Shape parseShape(const std::string& name);

constexpr std::uint64_t kThreads = std::uint64_t(1) << 20;  ///< the tutorial solution's 1024 x 1024 (not in the seeds)
constexpr std::uint64_t kMaxPoints = 20000;                 ///< the point cloud: trial 0 of the first threads
constexpr double kMandelbrotArea = 1.50659;                 ///< Förstemann's estimate (the solution's reference line)
constexpr double kMandelbrotLower = 1.50640, kMandelbrotUpper = 1.53121;  ///< proven bounds (the solution's)

/// The box's area: 4 for the circle's (-1, 1)^2, 9 for the Mandelbrot set's (-2, 1) x (-1.5, 1.5).
LAUNCHLAB_HD double boxArea(Shape s) { return s == Shape::Circle ? 4.0 : 9.0; }

/// Trials thread t draws in a run of `trials`: trials / 2^20, plus one for the first trials mod 2^20 threads.
LAUNCHLAB_HD std::uint64_t trialsOfThread(std::uint64_t trials, std::uint64_t t) {
  return trials / kThreads + (t < trials % kThreads ? 1 : 0);
}
LAUNCHLAB_HD std::uint64_t streamOf(unsigned run, std::uint64_t t) { return std::uint64_t(run) * kThreads + t; }

/// Trial i of a stream as a point of the shape's box, in R: u, v uniform in (0, 1) (f32: both from one 64-bit draw,
/// the top 23 bits of each half, monte_carlo_pi::unitFloat; f64: 53 bits of two draws), mapped as the tutorial's
/// solution does.
template <typename R>
struct Point {
  R x, y;
};
template <Shape S, typename R>
LAUNCHLAB_HD Point<R> pointOf(std::uint64_t key, std::uint64_t i) {
  R u, v;
  if constexpr (sizeof(R) == 4) {
    const std::uint64_t b = keyedBits(key, i);
    u = monte_carlo_pi::unitFloat(std::uint32_t(b >> 32));
    v = monte_carlo_pi::unitFloat(std::uint32_t(b));
  } else {
    u = toUnit(keyedBits(key, 2 * i));
    v = toUnit(keyedBits(key, 2 * i + 1));
  }
  using mandelbrot::add;
  using mandelbrot::mul;
  if constexpr (S == Shape::Circle)
    return {add(mul(R(2), u), R(-1)), add(mul(R(2), v), R(-1))};
  else
    return {add(mul(R(3), u), R(-2)), add(mul(R(3), v), R(-1.5))};
}

/// The hit rule: the solution's x^2 + y^2 < 1, or membership by Floyd's test with at most `cap` rounds (undecided
/// orbits count as inside, which can only grow the area).
template <Shape S, typename R>
LAUNCHLAB_HD bool isHit(Point<R> p, std::int32_t cap) {
  using mandelbrot::add;
  using mandelbrot::mul;
  if constexpr (S == Shape::Circle)
    return add(mul(p.x, p.x), mul(p.y, p.y)) < R(1);
  else
    return mandelbrot::classify<R>(p.x, p.y, cap).inside;
}

/// Hits of thread t's trials in one run; stores trial 0 as point t of the cloud (3 x count: x, y, hit rows) when
/// cloud is set and t < count.
template <Shape S, typename R>
LAUNCHLAB_HD std::uint64_t threadHits(std::uint64_t seed, unsigned run, std::uint64_t trials, std::uint64_t t,
                                      std::int32_t cap, double* cloud, std::uint64_t count) {
  const std::uint64_t key = streamKey(seed, streamOf(run, t)), m = trialsOfThread(trials, t);
  std::uint64_t hits = 0;
  for (std::uint64_t i = 0; i < m; ++i) {
    const Point<R> p = pointOf<S, R>(key, i);
    const bool hit = isHit<S, R>(p, cap);
    hits += hit ? 1 : 0;
    if (i == 0 && cloud && t < count) {
      cloud[t] = double(p.x);
      cloud[count + t] = double(p.y);
      cloud[2 * count + t] = hit ? 1.0 : 0.0;
    }
  }
  return hits;
}

/// The runs of a job: the series' m x 2^20 (m = 1, 2, 5, 10, ... below n) when `series`, then n itself (last).
std::vector<std::uint64_t> runTrials(std::uint64_t n, bool series);
/// Points in the cloud: min(n, 2^20, kMaxPoints).
std::uint64_t pointCount(std::uint64_t n);

/// Writes estimate = box x hits / trials of the last run, and the series (2 x runs: trials, estimate).
template <typename HitsOf>
LAUNCHLAB_HD void writeEstimates(HitsOf hitsOf, const std::uint64_t* trials, unsigned runs, double box,
                                 double* estimate, double* series) {
  for (unsigned r = 0; r < runs; ++r) {
    series[r] = double(trials[r]);
    series[runs + r] = box * double(hitsOf(r)) / double(trials[r]);
  }
  *estimate = series[2 * runs - 1];
}

/// The metric trials_per_s: every trial of every run per second of the median `timed` phase.
void recordTrialRate(ImplContext& ctx, Phase timed, const std::vector<std::uint64_t>& trials);

void cudaPerThread(ImplContext& ctx);

}  // namespace launchlab::kernels::monte_carlo_area
