#include "row_col_sums/row_col_sums.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "common/cpu_loops.h"
#include "common/matrix_workload.h"
#include "launchlab/engine/registry.h"
#include "launchlab/engine/summation.h"

namespace launchlab::kernels {

namespace row_col_sums {

std::string wavesNote(std::uint64_t blocks, int sms, int residentPerSm) {
  const std::uint64_t atOnce = std::uint64_t(std::max(sms, 1)) * std::uint64_t(std::max(residentPerSm, 1));
  char waves[32];
  std::snprintf(waves, sizeof waves, "%.2f", double(blocks) / double(atOnce));
  std::string s = std::to_string(blocks) + " blocks on " + std::to_string(sms) + " SMs (" +
                  std::to_string(residentPerSm) + " resident per SM, " + std::to_string(atOnce) +
                  " at once): " + waves + " waves";
  if (blocks < std::uint64_t(sms)) s += "; " + std::to_string(std::uint64_t(sms) - blocks) + " SMs get no block";
  return s;
}

}  // namespace row_col_sums

namespace {

/// Columns per strip of the CPU's column pass: each strip's partial sums stay in cache while the rows go by.
constexpr std::size_t kStrip = 256;

/// Sum of f over row r in double: four interleaved chains (column c in chain c mod 4), added at the end.
template <typename T, typename F>
double rowSum(const T* row, std::size_t cols, F f) {
  double acc[4] = {0, 0, 0, 0};
  for (std::size_t c = 0; c < cols; ++c) acc[c % 4] += f(row[c]);
  return (acc[0] + acc[1]) + (acc[2] + acc[3]);
}

/// Row and column sums of f(a[r][c]) in double, each in a fixed order (a row as rowSum adds it, a column from row 0
/// down), so the two CPU implementations agree bit for bit. One core: a single pass over a, each row's elements
/// added to its sum and to the column sums. All cores: rows shared out, then strips of kStrip columns shared out.
template <bool Parallel, typename T, typename F>
void lineSums(const T* a, MatrixShape m, double* rowSums, double* colSums, F f) {
  if constexpr (!Parallel) {
    std::fill(colSums, colSums + m.cols, 0.0);
    for (std::size_t r = 0; r < m.rows; ++r) {
      const T* row = a + r * m.cols;
      double acc[4] = {0, 0, 0, 0};  // rowSum's chains, in the same loop as the column sums (one read of a)
      std::size_t c = 0;
      for (; c + 4 <= m.cols; c += 4)
        for (std::size_t k = 0; k < 4; ++k) {  // four lanes: the compiler makes one vector of them
          const double v = f(row[c + k]);
          acc[k] += v;
          colSums[c + k] += v;
        }
      for (; c < m.cols; ++c) {
        const double v = f(row[c]);
        acc[c % 4] += v;
        colSums[c] += v;
      }
      rowSums[r] = (acc[0] + acc[1]) + (acc[2] + acc[3]);
    }
    return;
  }
  forEachRow<true>(m.rows, [&](std::size_t r) { rowSums[r] = rowSum(a + r * m.cols, m.cols, f); });
  forEachRow<true>((m.cols + kStrip - 1) / kStrip, [&](std::size_t k) {
    const std::size_t c0 = k * kStrip, c1 = std::min(m.cols, c0 + kStrip);
    std::fill(colSums + c0, colSums + c1, 0.0);
    for (std::size_t r = 0; r < m.rows; ++r)
      for (std::size_t c = c0; c < c1; ++c) colSums[c] += f(a[r * m.cols + c]);
  });
}

template <bool Parallel>
void runCpu(ImplContext& ctx) {
  visitDTypeAmong<float, double>(ctx.setup.dtype, [&](auto tag) {
    using T = decltype(tag);
    const MatrixShape m = MatrixWorkload::shapeOf(ctx.setup);
    std::vector<double> rows(m.rows), cols(m.cols);
    const T* a = ctx.inputs[0].view<T>().data();
    runCpuTimed(ctx, [&] { lineSums<Parallel>(a, m, rows.data(), cols.data(), [](T v) { return double(v); }); });
    std::transform(rows.begin(), rows.end(), ctx.outputs[0].view<T>().begin(), [](double v) { return T(v); });
    std::transform(cols.begin(), cols.end(), ctx.outputs[1].view<T>().begin(), [](double v) { return T(v); });
  });
}

/// The order an implementation sums a line in: the CPU ones in double, one line at a time; the seed's kernels a
/// thread per line, in order; the block reduction, the column strips' atomics and CUB in no order they fix.
SummationOrder lineOrder(std::string_view implId, DType dtype) {
  if (implId == kCpuSerial || implId == "cpu-parallel") return SummationOrder::sequential(DType::F64);
  return implId == "cuda-thread-per-line" ? SummationOrder::sequential(dtype) : SummationOrder::anyOrder(dtype);
}

/// The tolerance of the sums of lines of `len` terms: the bound for the line with the largest sum of |a|.
Tolerance lineTolerance(std::string_view implId, const RunSetup& s, std::size_t len,
                        const std::vector<double>& absSums) {
  const double worst = absSums.empty() ? 0 : *std::max_element(absSums.begin(), absSums.end());
  return {sumTolerance(lineOrder(implId, s.dtype), lineOrder(kCpuSerial, s.dtype), len, worst, s.dtype).atol, 0};
}

class RowColSums final : public MatrixWorkload {
 public:
  RowColSums() {
    auto& i = m_info;
    i.id = "row_col_sums";
    i.title = "Row and column sums: one thread per line, a block per row, CUB";
    i.chapter = kChapterMemory;
    configureMatrix(i, 16384, "");
    i.dtypes = {DType::F32, DType::F64};
    i.launchDims = 1;
    i.params.back() = {.name = "input",
                       .label = "Input pattern",
                       .help =
                           "random: uniform in [-1, 1); seed-cols: ones with column 3 set to 9 (the seed's "
                           "col_sums); seed-rows: ones with row 3 set to 9 (row_sums)",
                       .kind = ParamSpec::Kind::Choice,
                       .choices = {"random", "seed-cols", "seed-rows"}};
    i.inputs = {imageSpec("a", "a (rows x cols)", "a")};
    i.outputs = {{.name = "row_sums", .title = "row_sums[r] = sum of row r", .xLabel = "row", .yLabel = "sum"},
                 {.name = "col_sums", .title = "col_sums[c] = sum of column c", .xLabel = "column", .yLabel = "sum"}};

    addReference("CPU serial", "One core, one pass over a, both sums accumulated in double: the reference.",
                 runCpu<false>);
    addCpu("cpu-parallel", "CPU parallel (OpenMP)",
           "All cores: rows shared out for the row sums, strips of 256 columns for the column sums.", runCpu<true>);
    addGpu("cuda-thread-per-line", "CUDA one thread per row / per column (the seed's kernels)",
           "row_sums: thread r walks row r (lanes a row apart: strided); col_sums: thread c walks column c (lanes on "
           "neighbouring columns: coalesced). Metrics row_sums_ms and col_sums_ms time each.",
           LAUNCHLAB_CUDA_ENTRY(row_col_sums::cudaThreadPerLine));
    addGpu("cuda-block-reduce", "CUDA block per row (CUB BlockReduce) + column strips",
           "row_sums: a block of 256 threads per row, coalesced, reduced with cub::BlockReduce; col_sums: 256-column "
           "strips cut into row chunks, enough blocks for every SM, partial sums added atomically.",
           LAUNCHLAB_CUDA_ENTRY(row_col_sums::cudaBlockReduce), ImplKind::Cuda, false);
    addGpu("cuda-cub-segmented", "CUB DeviceSegmentedReduce (library reference)",
           "cub::DeviceSegmentedReduce::Sum with one segment per row; the column sums as segments of a column-major "
           "view (an index-mapping iterator), which is what a library does with a strided layout.",
           LAUNCHLAB_CUDA_ENTRY(row_col_sums::cudaCubSegmented), ImplKind::CudaLibrary, false);
  }

  std::vector<HostArray> makeInputs(const RunSetup& s) const override {
    auto v = allocateInputs(s);
    const std::string pattern = s.params.choice("input");
    if (pattern == "random") {
      fillUniform(v[0], -1, 1, s.seed, 0);
      return v;
    }
    const MatrixShape m = shapeOf(s);
    visitDTypeAmong<float, double>(s.dtype, [&](auto tag) {
      using T = decltype(tag);
      auto a = v[0].view<T>();
      std::fill(a.begin(), a.end(), T(1));
      if (pattern == "seed-cols" && m.cols > 3)
        for (std::size_t r = 0; r < m.rows; ++r) a[r * m.cols + 3] = T(9);
      if (pattern == "seed-rows" && m.rows > 3) std::fill_n(a.begin() + 3 * m.cols, m.cols, T(9));
    });
    return v;
  }

  std::vector<std::vector<std::size_t>> outputShapes(const RunSetup& s) const override {
    const MatrixShape m = shapeOf(s);
    return {{m.rows}, {m.cols}};
  }

  /// Each sum against the double-accumulated reference, within the error bound of the implementation's order for
  /// its line length and the inputs' largest sum of |a| over a line (launchlab/engine/summation.h).
  Verification verifyWithInputs(const RunSetup& s, const std::vector<HostArray>& inputs,
                                const std::vector<HostArray>& reference, const std::vector<HostArray>& got,
                                const ImplSpec& impl) const override {
    const MatrixShape m = shapeOf(s);
    std::vector<double> rowAbs(m.rows), colAbs(m.cols);
    Tolerance tRow, tCol;
    visitDTypeAmong<float, double>(s.dtype, [&](auto tag) {
      using T = decltype(tag);
      lineSums<true>(inputs[0].view<T>().data(), m, rowAbs.data(), colAbs.data(),
                     [](T v) { return std::fabs(double(v)); });
      tRow = lineTolerance(impl.id, s, m.cols, rowAbs);
      tCol = lineTolerance(impl.id, s, m.rows, colAbs);
    });
    return mergeVerifications({compareArrays(reference[0], got[0], tRow), compareArrays(reference[1], got[1], tCol)});
  }

  // Each pass reads a once; the sums are written once.
  double bytesMoved(const RunSetup& s) const override {
    const MatrixShape m = shapeOf(s);
    return double(2 * m.elements() + m.rows + m.cols) * double(dtypeSize(s.dtype));
  }
  double flops(const RunSetup& s) const override { return 2.0 * double(shapeOf(s).elements()); }
};

}  // namespace

void register_row_col_sums(Registry& r) { r.add(std::make_unique<RowColSums>()); }

}  // namespace launchlab::kernels
