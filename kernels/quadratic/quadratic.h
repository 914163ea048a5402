#pragma once
// quadratic (ATLAS GPU training, Python part): the larger root (-b + sqrt(b^2 - 4ac)) / 2a of a million quadratics,
// as NumPy/CuPy evaluate it (one pass over memory per operation, temporaries in between) and as one fused kernel.
#include "common/hd_math.h"
#include "launchlab/engine/workload.h"

namespace launchlab::kernels::quadratic {

/// The formula with the products rounded one by one (hd::mulRn), exactly the order of the NumPy expression's
/// nine operations, so the fused kernel, the nine passes and the CPU give the same bits.
template <typename T>
LAUNCHLAB_HD T root(T a, T b, T c) {
  const T disc = hd::mulRn(b, b) - hd::mulRn(hd::mulRn(T(4), a), c);
  return (-b + hd::sqrt(disc)) / hd::mulRn(T(2), a);
}

/// How the NumPy-style passes square b (`--param square`): b * b; pow(b, 2.0), which is what CuPy runs for b**2
/// (the seed notices it); or the seed's ElementwiseKernel intpow(b, 2), a loop of n multiplications from 1.0.
enum class SquareForm { Mul = 0, Pow = 1, IntPow = 2 };

template <typename T>
LAUNCHLAB_HD T squareOf(T b, int form) {
  if (form == int(SquareForm::Pow)) return hd::pow(b, T(2));
  if (form == int(SquareForm::IntPow)) {
    T out = T(1);
    for (int i = 0; i < 2; ++i) out = hd::mulRn(out, b);
    return out;
  }
  return hd::mulRn(b, b);
}

/// The seed's nine NumPy passes (each reads and writes whole arrays): elements read + written per element of n.
constexpr int kUnfusedPasses = 9;
constexpr double kUnfusedElementsMoved = 22;  // 2+2+2+3+3+2+3+2+3
constexpr double kFusedElementsMoved = 4;     // a, b, c read once, out written once

/// The run's `--param square` as a SquareForm value (the choice's index).
int squareFormOf(const ImplContext& ctx);

void cudaUnfused(ImplContext& ctx);
void cudaFused(ImplContext& ctx);

}  // namespace launchlab::kernels::quadratic
