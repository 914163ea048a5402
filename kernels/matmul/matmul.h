#pragma once
// matmul (the classic next step after the tile transpose): C = A B in float32 for A (m x k), B (k x n),
// C (m x n), all C order. Shape: --n is m (the rows of A and C), the parameters "k" and "cols" (n) are the inner
// dimension and the columns of B and C; 0 makes either equal to m, so `--n 4096` is 4096^3. Plain code for .cpp and
// .cu files alike.
#include <cmath>
#include <cstddef>
#include <string_view>

#include "launchlab/engine/summation.h"
#include "launchlab/engine/workload.h"

namespace launchlab::kernels::matmul {

struct MatmulShape {
  std::size_t m = 0, k = 0, n = 0;
  double flops() const { return 2.0 * double(m) * double(n) * double(k); }
};

inline MatmulShape matmulShape(const RunSetup& s) {
  const auto m = static_cast<std::size_t>(s.n);
  const auto k = static_cast<std::size_t>(s.params.integer("k"));
  const auto n = static_cast<std::size_t>(s.params.integer("cols"));
  return {m, k ? k : m, n ? n : m};
}

/// The tiled kernel's depth of one shared-memory step (its C tile is the block: 16 x 16 by default, as in Numba's
/// documentation example).
inline constexpr unsigned kTiledDepth = 16;
/// The register-tiled kernel: a BM x BN tile of C per block of 256 threads, BK-deep shared-memory steps (double
/// buffered), TM x TN outputs per thread.
inline constexpr unsigned kRegBM = 128, kRegBN = 128, kRegBK = 16, kRegTM = 8, kRegTN = 8, kRegThreads = 256;

/// The input rounding of TF32 (10 stored mantissa bits: 2^-11 per input, so a product a b is off by at most
/// 2 * 2^-11 relative).
inline constexpr double kTf32ProductError = 0x1p-10;

/// The order implementation `implId` sums each element's k products in (launchlab/engine/summation.h): the blocked CPU
/// loops in float64 (float32 products are exact there), the CUDA kernels along k in float32 with FMAs, Eigen and
/// cuBLAS in an order they do not document; an id it does not know (a student's kernel) in any order.
SummationOrder matmulOrder(std::string_view implId);

/// The verification tolerance of one element of C: the bound of `order` on k products whose sum of |a_il| |b_lj|
/// is at most S, plus the reference's; TF32 adds its input rounding, at most 2^-10 S, on top.
double matmulTolerance(const SummationOrder& order, std::size_t k, double sumAbsBound, bool tf32);

/// An upper bound S of max over (i, j) of sum_l |a_il| |b_lj| for A (m x k) and B (k x n), row-major, from O(mk + kn)
/// norms instead of a second product: the least of max_i |a_i|_1 max|B|, max|A| max_j |b_j|_1 and
/// max_i |a_i|_2 max_j |b_j|_2 (Hoelder and Cauchy-Schwarz; rows of A, columns of B).
double sumAbsProductBound(const float* a, const float* b, const MatmulShape& s);

void cudaNaive(ImplContext& ctx);
void cudaTiled16(ImplContext& ctx);
void cudaRegisterTiled(ImplContext& ctx);
void libSgemm(ImplContext& ctx);
void libTf32(ImplContext& ctx);

}  // namespace launchlab::kernels::matmul
