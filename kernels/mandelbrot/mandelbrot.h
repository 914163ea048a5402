#pragma once
// mandelbrot (the ATLAS training's "Mandelbrot on all accelerators", named only in seed file 004, which links its
// notebook): is c = x + iy in the set? z <- z^2 + c from 0, decided by Floyd's cycle test: a hare takes two steps and a
// tortoise one per round; c is outside when the hare's |z|^2 exceeds 4, inside when hare and tortoise meet (the orbit
// has become periodic in floating point). A cap on the rounds ends the orbits that neither escape nor repeat: they
// count as inside, which biases the set's border outward (slowly escaping points near the boundary are taken as
// members).
#include <cstdint>

#include "common/index_math.h"
#include "launchlab/engine/workload.h"

namespace launchlab::kernels::mandelbrot {

/// One pixel's verdict: escaped (and after how many hare steps), and the rounds the test took (its cost).
struct Pixel {
  bool inside = false;
  std::int32_t escapeStep = 0;  ///< the hare's step at which |z|^2 > 4; 0 when inside
  std::int32_t rounds = 0;      ///< rounds done (each: two hare steps and one tortoise step)
};

/// a * b and a + b rounded once each, on the GPU too: nvcc would fuse a * b + c into one FMA (one rounding), the
/// CPU build rounds twice, and an orbit that differs in one bit ends its cycle test at another round. With these,
/// the GPU computes the CPU's orbit bit for bit (costing the FMA's speed: see docs/workloads/atlas.md).
template <typename R>
LAUNCHLAB_HD R mul(R a, R b) {
#ifdef __CUDA_ARCH__
  if constexpr (sizeof(R) == 4)
    return __fmul_rn(a, b);
  else
    return __dmul_rn(a, b);
#else
  return a * b;
#endif
}
template <typename R>
LAUNCHLAB_HD R add(R a, R b) {
#ifdef __CUDA_ARCH__
  if constexpr (sizeof(R) == 4)
    return __fadd_rn(a, b);
  else
    return __dadd_rn(a, b);
#else
  return a + b;
#endif
}

/// z <- z^2 + c on (x, y) and the escape test, each operation rounded once (the CPU's orbit, bit for bit).
struct ExactRounding {
  template <typename R>
  static LAUNCHLAB_HD void step(R& x, R& y, R cx, R cy) {
    const R nx = add(add(mul(x, x), -mul(y, y)), cx);
    y = add(mul(mul(R(2), x), y), cy);
    x = nx;
  }
  template <typename R>
  static LAUNCHLAB_HD bool escaped(R x, R y) {
    return add(mul(x, x), mul(y, y)) > R(4);
  }
};

/// The point of pixel i along an axis: lo + i * step, in double (rounded once each), then in R.
template <typename R>
LAUNCHLAB_HD R coordinate(double lo, std::uint64_t i, double step) {
  return R(add(lo, mul(double(i), step)));
}

/// Floyd's test with the steps of `Rounding` (ExactRounding, or the GPU's fused multiply-adds in mandelbrot.cu).
template <typename R, typename Rounding = ExactRounding>
LAUNCHLAB_HD Pixel classify(R cx, R cy, std::int32_t capRounds) {
  R hx = 0, hy = 0, tx = 0, ty = 0;
  for (std::int32_t k = 1; k <= capRounds; ++k) {
    Rounding::step(hx, hy, cx, cy);
    if (Rounding::escaped(hx, hy)) return {false, 2 * k - 1, k};
    Rounding::step(hx, hy, cx, cy);
    if (Rounding::escaped(hx, hy)) return {false, 2 * k, k};
    Rounding::step(tx, ty, cx, cy);
    if (hx == tx && hy == ty) return {true, 0, k};
  }
  return {true, 0, capRounds};
}

/// The value of output `iters` for a pixel: 1 inside / 0 outside (membership), or the escape step / 0 inside.
LAUNCHLAB_HD std::int32_t shown(const Pixel& p, bool escapeCount) {
  return escapeCount ? p.escapeStep : (p.inside ? 1 : 0);
}

/// The region and rule of a run, read from its parameters.
struct View {
  double xMin = -2, yMin = -1.5, step = 0.003;
  std::int32_t capRounds = 1000;
  bool escapeCount = false;
};
View viewOf(const RunSetup& s);

/// A multiplier coprime with `pixels`, so that p -> (p * m) mod pixels is a permutation (the scattered variant).
std::uint64_t scatterMultiplier(std::uint64_t pixels);

/// The metric grounds_per_s: the rounds of output `rounds` (every pixel's) per second of the median `timed` phase,
/// in 10^9; the CPU implementations time Phase::Cpu, the CUDA ones Phase::Kernel.
void recordRoundRate(ImplContext& ctx, Phase timed);

void cudaPerPixel(ImplContext& ctx);
void cudaScattered(ImplContext& ctx);
void cudaFma(ImplContext& ctx);
void cudaArrayPasses(ImplContext& ctx);

}  // namespace launchlab::kernels::mandelbrot
