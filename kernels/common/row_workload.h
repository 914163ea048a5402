#pragma once
/// A workload on an n x d matrix (n = rows, the run's size; d = the integer parameter "d"): the parameter d, the
/// input shape {n, d}, a bound on n x d, and the tolerance of results built from a sum over each row in double.
#include <algorithm>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "common/cpu_loops.h"
#include "common/impl_helpers.h"

namespace launchlab::kernels {

class RowWorkload : public BasicWorkload {
 public:
  /// At most 2^32 elements (16 GiB of float32): beyond that the host copies alone take minutes.
  static constexpr std::uint64_t kMaxElements = std::uint64_t(1) << 32;

  static std::size_t rowLength(const RunSetup& s) { return static_cast<std::size_t>(s.params.integer("d")); }

  /// The parameter d (read by rowLength).
  static ParamSpec rowLengthParam(double defaultD, std::string help) {
    return {.name = "d",
            .label = "Row length d",
            .unit = "elements",
            .help = std::move(help),
            .kind = ParamSpec::Kind::Integer,
            .defaultValue = defaultD,
            .minValue = 1,
            .maxValue = 1 << 20,
            .logScale = true};
  }
  /// An n x d array, drawn as an image (one row per matrix row); `valueLabel` names its colour scale.
  static ArraySpec matrixSpec(std::string name, std::string title, std::string valueLabel) {
    return {.name = std::move(name),
            .title = std::move(title),
            .plot = PlotKind::Image,
            .xLabel = "column",
            .yLabel = std::move(valueLabel)};
  }

  std::string validate(const RunSetup& s) const override {
    const std::uint64_t d = rowLength(s);
    if (s.n > kMaxElements / d)
      return "n x d = " + std::to_string(s.n) + " x " + std::to_string(d) +
             " elements is more than 2^32: use fewer rows or a shorter d";
    return {};
  }

  /// The CPU loop over the rows of the input x: row(xRow, out, r, d) for every row r, with xRow = x + r * d and
  /// `out` the first output, both in the run's dtype (float or double).
  template <bool Parallel, typename Row>
  static void runCpuRows(ImplContext& ctx, const Row& row) {
    const std::size_t d = rowLength(ctx.setup);
    runCpuLoop<Parallel, float, double>(
        ctx,
        [&](auto tag) {
          using T = decltype(tag);
          const T* x = ctx.inputs[0].view<T>().data();
          T* out = ctx.outputs[0].view<T>().data();
          return [=](std::size_t r) { row(x + r * d, out, r, d); };
        },
        LoopItem::Row);
  }

  std::vector<std::vector<std::size_t>> inputShapes(const RunSetup& s) const override {
    return std::vector<std::vector<std::size_t>>(m_info.inputs.size(), {std::size_t(s.n), rowLength(s)});
  }

  /// Both sides sum each row in double, in a different order (serial against a tree): about d ulps of double
  /// apart, far below an ulp of float.
  Tolerance tolerance(const RunSetup& s, std::size_t) const override {
    const double d = double(rowLength(s));
    return s.dtype == DType::F32 ? Tolerance{1e-30, 1e-6} : Tolerance{1e-300, std::max(1e-14, 4e-16 * d)};
  }
};

}  // namespace launchlab::kernels
