#pragma once
/// The order in which an implementation adds the terms of a sum, and the forward-error bound that order
/// guarantees. Every reducing workload declares an order per implementation and verifies against the bound derived
/// here, so one rule decides every sum's tolerance.
///
/// The bounds are the standard worst-case ones (Higham, "Accuracy and Stability of Numerical Algorithms", 2nd ed.,
/// sections 3.1 and 4.2): when every term goes through at most d additions on its way to the result,
/// |computed - exact| <= gamma_d sum|x_i|, with gamma_d = d u / (1 - d u). Sequential summation and any order
/// nobody fixes (atomics in arrival order) have d = n - 1; a balanced tree of width w has d = ceil(log2 w); stages
/// compose by adding their depths (runs of b terms, then the run sums in any order: d = (b - 1) + (ceil(n/b) - 1)).
/// They hold for every input and every order the declaration allows, so a sum that fails one is really wrong.
#include <cstdint>
#include <string>
#include <vector>

#include "launchlab/engine/dtype.h"

namespace launchlab {

/// One stage of a reduction: it combines groups of `width` values (terms, or the previous stage's partial sums).
struct SummationStage {
  enum class Kind {
    Sequential,  ///< s = s + v in a fixed order: a value goes through at most width - 1 additions
    Tree,        ///< a balanced binary tree over width values (padded to a power of two): ceil(log2 width)
    AnyOrder,    ///< an order nobody fixes (atomics, OpenMP's combination, a library's): width - 1, the worst
  };
  Kind kind = Kind::AnyOrder;
  std::uint64_t width = 0;  ///< values per group; 0: every value left
  /// Values left after the stage when that is not ceil(values / width), e.g. one per thread of a grid-stride loop
  /// or one per block of a launch; 0: ceil(values / width).
  std::uint64_t partials = 0;
  bool repeat = false;  ///< applied again until one value is left (one pass per level of partial sums)
};

/// How an implementation sums n terms: its stages (values left after the last are added in any order), the
/// precision it adds in, and whether it compensates.
struct SummationOrder {
  std::vector<SummationStage> stages;
  DType accumulator = DType::F64;  ///< F32 or F64: the precision of every addition
  /// Compensated (Kahan, Neumaier): |error| <= (2u + O(n u^2)) sum|x| whatever the order (Higham (4.8)).
  bool compensated = false;
  /// Each term is a rounded product (a dot product): one more rounding per term, gamma_{d+1} (Higham (3.4)).
  bool productTerms = false;

  static SummationOrder sequential(DType acc);
  static SummationOrder anyOrder(DType acc);
  static SummationOrder pairwise(DType acc);  ///< one balanced binary tree over all terms
  static SummationOrder compensatedSum(DType acc);
  /// Runs of `run` terms added in order, then the run sums in any order (e.g. per-thread loops, then atomics).
  static SummationOrder blocked(DType acc, std::uint64_t run);

  /// One line for verification notes, e.g. "runs of 4 in order, then any order (float32)".
  std::string describe() const;
};

/// Unit roundoff u of a floating dtype: 2^-24 (F32), 2^-53 (F64); 0 for integers (their sums are exact).
double unitRoundoff(DType t);
/// The most roundings any one term goes through when `order` sums n terms (additions, and its product's).
std::uint64_t summationDepth(const SummationOrder& order, std::uint64_t n);
/// gamma_k = k u / (1 - k u) while k u < 1/2; beyond, (1 + u)^k - 1, which bounds the same product of k
/// roundings and stays finite (such a bound is too loose to catch much, and says so by its size).
double gammaBound(std::uint64_t k, double u);
/// Bound on |computed - exact| when `order` sums n terms with sum|x_i| = sumAbs and stores the result as
/// `output` (one more rounding when the accumulator is wider than the output).
double summationErrorBound(const SummationOrder& order, std::uint64_t n, double sumAbs, DType output);

/// The tolerance |got - reference| <= bound(impl) + bound(reference), and its explanation for the verification note.
struct SumTolerance {
  double atol = 0;
  std::string note;
};
SumTolerance sumTolerance(const SummationOrder& impl, const SummationOrder& reference, std::uint64_t n, double sumAbs,
                          DType output);

}  // namespace launchlab
