#pragma once
/// A workload on rows x cols matrices (C order): the run's size n is the number of rows, the integer parameter
/// "cols" the number of columns (0: as many as rows, a square matrix, so `--n 4096` is 4096 x 4096). A .npy input of
/// shape (rows, cols) needs `--n rows --param cols=cols` unless it is square.
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "common/impl_helpers.h"
#include "common/matrix_shape.h"
#include "launchlab/engine/rng.h"

namespace launchlab::kernels {

class MatrixWorkload : public BasicWorkload {
 public:
  /// At most 2^32 elements (16 GiB of float32) per matrix, and at most 2^31 - 1 along either side.
  static constexpr std::uint64_t kMaxElements = std::uint64_t(1) << 32;
  static constexpr std::uint64_t kMaxSide = (std::uint64_t(1) << 31) - 1;

  static MatrixShape shapeOf(const RunSetup& s) { return matrixShape(s); }

  /// The parameter "cols" (read by shapeOf).
  static ParamSpec colsParam() {
    return {.name = "cols",
            .label = "Columns (0: square)",
            .unit = "elements",
            .help = "Columns of the rows x cols matrix (N is the number of rows); 0 makes it square (N x N).",
            .kind = ParamSpec::Kind::Integer,
            .defaultValue = 0,
            .minValue = 0,
            .maxValue = double(kMaxSide),
            .logScale = true};
  }
  /// The parameter "input": random values, or the seed's arange(rows * cols) in C order.
  static ParamSpec inputParam(std::string help) {
    return {.name = "input",
            .label = "Input pattern",
            .help = std::move(help),
            .kind = ParamSpec::Kind::Choice,
            .choices = {"random", "arange"}};
  }
  /// A rows x cols array drawn as an image with a colour bar labelled `valueLabel`.
  static ArraySpec imageSpec(std::string name, std::string title, std::string valueLabel) {
    return {.name = std::move(name),
            .title = std::move(title),
            .plot = PlotKind::Image,
            .xLabel = "column",
            .yLabel = std::move(valueLabel)};
  }

  /// What every matrix workload shares: f32 (default), f64 and i32; n = rows (default `defaultRows`, square); a 2-D
  /// launch; the parameters cols and input (its help given). A workload adds its own parameters after these.
  static void configureMatrix(WorkloadInfo& i, std::uint64_t defaultRows, std::string inputHelp) {
    i.dtypes = {DType::F32, DType::F64, DType::I32};
    i.defaultDType = DType::F32;
    i.defaultN = defaultRows;
    i.maxN = kMaxSide;
    i.sizeLabel = "rows (N); the matrix is N x cols (cols = 0: N x N)";
    i.launchDims = 2;
    i.params = {colsParam(), inputParam(std::move(inputHelp))};
  }

  std::string validate(const RunSetup& s) const override {
    const MatrixShape m = shapeOf(s);
    if (m.cols > kMaxElements / m.rows)
      return std::to_string(m.rows) + " x " + std::to_string(m.cols) +
             " elements is more than 2^32: use fewer rows or columns";
    return {};
  }

  /// Every input is rows x cols.
  std::vector<std::vector<std::size_t>> inputShapes(const RunSetup& s) const override {
    const MatrixShape m = shapeOf(s);
    return std::vector<std::vector<std::size_t>>(m_info.inputs.size(), {m.rows, m.cols});
  }

  /// Each input filled with the pattern of the "input" parameter (random in [lo, hi), or arange from 0).
  static void fillPattern(std::vector<HostArray>& in, const RunSetup& s, double lo, double hi) {
    const bool arange = s.params.choice("input") == "arange";
    for (std::size_t k = 0; k < in.size(); ++k) {
      if (arange)
        fillArange(in[k], 0, 1);
      else
        fillUniform(in[k], lo, hi, s.seed, k);
    }
  }
};

}  // namespace launchlab::kernels
