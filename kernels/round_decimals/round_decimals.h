#pragma once
// round_decimals (Session 3, the ForAll generator): cuDF's gpu_round kernel, which rounds every element to a
// number of decimals with a hand-written round-half-to-even, launched with forall's automatic configuration
// (the occupancy API) or with the user's block and grid.
#include "common/hd_math.h"
#include "launchlab/engine/workload.h"

namespace launchlab::kernels::round_decimals {

/// The seed's rint device function: nearest integer, ties to even, as a float.
template <typename T>
LAUNCHLAB_HD T rint(T x) {
  T y = hd::floor(x);
  T r = x - y;
  if (r > T(0.5)) y += T(1);
  if (r == T(0.5)) {
    r = y - T(2) * hd::floor(T(0.5) * y);
    if (r == T(1)) y += T(1);
  }
  return y;
}

/// gpu_round's body: rint(x * f) / f with f = 10^decimals. The product is rounded on its own (no FMA with the
/// subtraction inside rint), so the GPU and the CPU take the same decisions at every tie.
template <typename T>
LAUNCHLAB_HD T roundTo(T x, T f) {
  return rint(hd::mulRn(x, f)) / f;
}

/// 10^decimals in T, computed the same way for every implementation.
template <typename T>
T scaleFor(long long decimals) {
  double f = 1;
  for (long long k = 0; k < decimals; ++k) f *= 10;
  return static_cast<T>(f);
}

void cudaForall(ImplContext& ctx);
void cudaManual(ImplContext& ctx);

}  // namespace launchlab::kernels::round_decimals
