#include "launchlab/engine/summation.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <sstream>

#include "launchlab/engine/launch_config.h"  // ceilDiv

namespace launchlab {

namespace {

/// ceil(log2 w) for w >= 1.
std::uint64_t ceilLog2(std::uint64_t w) { return w <= 1 ? 0 : std::uint64_t(std::bit_width(w - 1)); }

/// Additions a value goes through in one group of `width` values of a stage.
std::uint64_t stageDepth(SummationStage::Kind kind, std::uint64_t width) {
  if (width <= 1) return 0;
  return kind == SummationStage::Kind::Tree ? ceilLog2(width) : width - 1;
}

SummationOrder single(SummationStage::Kind kind, DType acc) { return {{{kind, 0, 0, false}}, acc, false, false}; }

const char* dtypeWord(DType t) { return t == DType::F32 ? "float32" : "float64"; }

}  // namespace

SummationOrder SummationOrder::sequential(DType acc) { return single(SummationStage::Kind::Sequential, acc); }
SummationOrder SummationOrder::anyOrder(DType acc) { return single(SummationStage::Kind::AnyOrder, acc); }
SummationOrder SummationOrder::pairwise(DType acc) { return single(SummationStage::Kind::Tree, acc); }
SummationOrder SummationOrder::compensatedSum(DType acc) { return {{}, acc, true, false}; }
SummationOrder SummationOrder::blocked(DType acc, std::uint64_t run) {
  return {{{SummationStage::Kind::Sequential, run, 0, false}, {SummationStage::Kind::AnyOrder, 0, 0, false}},
          acc,
          false,
          false};
}

std::string SummationOrder::describe() const {
  std::ostringstream o;
  if (compensated) o << "compensated";
  if (productTerms) o << "products, ";
  for (std::size_t i = 0; i < stages.size(); ++i) {
    const auto& s = stages[i];
    o << (i ? ", then " : "");
    const char* what = s.kind == SummationStage::Kind::Sequential ? "in order"
                       : s.kind == SummationStage::Kind::Tree     ? "tree"
                                                                  : "any order";
    if (s.width == 0)
      o << (s.kind == SummationStage::Kind::Tree ? "one tree" : what);
    else if (s.kind == SummationStage::Kind::Tree)
      o << "trees of " << s.width << (s.repeat ? " until one is left" : "");
    else
      o << "runs of " << s.width << " " << what << (s.repeat ? " until one is left" : "");
  }
  o << " (" << dtypeWord(accumulator) << ")";
  return o.str();
}

double unitRoundoff(DType t) {
  switch (t) {
    case DType::F32:
      return 0x1p-24;
    case DType::F64:
      return 0x1p-53;
    default:
      return 0;
  }
}

std::uint64_t summationDepth(const SummationOrder& order, std::uint64_t n) {
  std::uint64_t values = n, depth = 0;
  // One application of stage s to `values` values: its depth, and the values it leaves.
  const auto apply = [&](const SummationStage& s) {
    const std::uint64_t width = s.width == 0 ? values : s.width;
    depth += stageDepth(s.kind, width);
    return s.partials ? s.partials : ceilDiv(values, std::max<std::uint64_t>(width, 1));
  };
  for (const auto& s : order.stages) {
    if (!s.repeat) {
      values = std::max<std::uint64_t>(apply(s), 1);
      continue;
    }
    while (values > 1) {
      const std::uint64_t left = apply(s);
      if (left >= values) break;  // a stage that leaves as many as it got: the remainder is added below
      values = left;
    }
  }
  depth += values > 1 ? values - 1 : 0;  // whatever is left is added in any order
  return depth + (order.productTerms ? 1 : 0);
}

double gammaBound(std::uint64_t k, double u) {
  const double ku = double(k) * u;
  if (ku < 0.5) return ku / (1 - ku);
  return std::expm1(double(k) * std::log1p(u));
}

double summationErrorBound(const SummationOrder& order, std::uint64_t n, double sumAbs, DType output) {
  const double u = unitRoundoff(order.accumulator);
  const double rel = order.compensated ? 2 * u + 4 * double(n) * u * u : gammaBound(summationDepth(order, n), u);
  double bound = rel * sumAbs;
  // Storing a wider accumulator's result as the output rounds once more, relative to |result| <= (1 + rel) sum|x|.
  if (const double uOut = unitRoundoff(output); uOut > u) bound += uOut * (1 + rel) * sumAbs;
  return bound;
}

SumTolerance sumTolerance(const SummationOrder& impl, const SummationOrder& reference, std::uint64_t n, double sumAbs,
                          DType output) {
  SumTolerance t;
  const double mine = summationErrorBound(impl, n, sumAbs, output);
  const double ref = summationErrorBound(reference, n, sumAbs, output);
  t.atol = mine + ref;
  std::ostringstream o;
  o << "|d| <= " << t.atol << ": " << impl.describe();
  if (!impl.compensated)
    o << ", depth " << summationDepth(impl, n) << ", gamma_d sum|x| = " << mine;
  else
    o << ", (2u + 4nu^2) sum|x| = " << mine;
  o << ", plus the reference's " << ref << " (sum|x| = " << sumAbs << ")";
  t.note = o.str();
  return t;
}

}  // namespace launchlab
