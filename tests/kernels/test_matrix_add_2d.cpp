// matrix_add_2d on the CPU: out = a + b element by element on odd shapes, against sums computed here; metadata and
// the seed's arange inputs.
#include "launchlab/course/chapters.h"
#include "metadata_checks.h"

using namespace launchlab;
using namespace launchlab::test;

namespace {

template <typename T>
void expectElementSums(std::size_t rows, std::size_t cols, DType dtype) {
  SCOPED_TRACE(std::to_string(rows) + "x" + std::to_string(cols) + " " + std::string(dtypeName(dtype)));
  const RunResult r = runCpu("matrix_add_2d", rows, dtype, {{"cols", std::to_string(cols)}}, rows * 7 + cols);
  expectCpuImplsPass(r);
  ASSERT_EQ(r.inputs[0].shape(), (std::vector<std::size_t>{rows, cols}));
  const auto a = r.inputs[0].view<T>(), b = r.inputs[1].view<T>();
  for (const char* impl : {"cpu-serial", "cpu-parallel"}) {
    const HostArray& out = output(r, impl, "out");
    ASSERT_EQ(out.shape(), (std::vector<std::size_t>{rows, cols})) << impl;
    const auto o = out.view<T>();
    for (std::size_t y = 0; y < rows; ++y)
      for (std::size_t x = 0; x < cols; ++x) ASSERT_EQ(o[y * cols + x], T(a[y * cols + x] + b[y * cols + x])) << impl;
  }
}

}  // namespace

TEST(MatrixAdd2D, Metadata) {
  expectMetadata("matrix_add_2d", std::string(kChapterMemory), 3);
  const auto& info = workload("matrix_add_2d").info();
  EXPECT_EQ(info.launchDims, 2);
  EXPECT_EQ(info.inputs[0].name, "a");
  EXPECT_EQ(info.inputs[1].name, "b");
  EXPECT_EQ(info.outputs[0].name, "out");
  EXPECT_EQ(info.outputs[0].plot, PlotKind::Image);
}

TEST(MatrixAdd2D, CpuImplsAddOnOddShapes) {
  expectElementSums<float>(1, 1, DType::F32);
  expectElementSums<float>(31, 33, DType::F32);
  expectElementSums<double>(1000, 1003, DType::F64);
  expectElementSums<std::int32_t>(33, 31, DType::I32);
}

TEST(MatrixAdd2D, ZeroColumnsMeansSquareAndArangeIsTheSeeds) {
  const RunResult r = runCpu("matrix_add_2d", 64, DType::F32, {{"input", "arange"}});
  ASSERT_EQ(r.status, Status::Ok) << r.reason;
  ASSERT_EQ(r.inputs[0].shape(), (std::vector<std::size_t>{64, 64}));
  const auto out = output(r, "cpu-serial", "out").view<float>();
  for (std::size_t i = 0; i < out.size(); ++i) ASSERT_EQ(out[i], 2.0f * float(i));  // a = b = arange
}

TEST(MatrixAdd2D, TooManyElementsIsRefusedWithTheReason) {
  EXPECT_NE(firstProblem("matrix_add_2d", 100000, DType::F32, {{"cols", "100000"}}).find("more than 2^32"),
            std::string::npos);
  EXPECT_EQ(firstProblem("matrix_add_2d", 31, DType::F32, {{"cols", "33"}}), "");
}

TEST(MatrixAdd2D, ThreadMapIsTheSeedsGet2DIndicesWithBlockBorders) {
  // The seed's result for blocks = (2, 2), threads_per_block = (2, 2): A[x][y] = x + y / 10, e.g. A[3][1] = 3.1;
  // here with a line of -1 between the blocks (row and column 2 of the 5 x 5 picture).
  const double seed[4][4] = {{0.0, 0.1, 0.2, 0.3}, {1.0, 1.1, 1.2, 1.3}, {2.0, 2.1, 2.2, 2.3}, {3.0, 3.1, 3.2, 3.3}};
  const RunResult r = runCpu("matrix_add_2d", 3, DType::F32, {{"cols", "5"}});
  for (const char* impl : {"cpu-serial", "cpu-parallel"}) {
    const HostArray& map = output(r, impl, "thread_map");
    ASSERT_EQ(map.shape(), (std::vector<std::size_t>{5, 5}));
    const auto v = map.view<double>();
    for (std::size_t i = 0; i < 5; ++i)
      for (std::size_t j = 0; j < 5; ++j) {
        const double want = (i == 2 || j == 2) ? -1.0 : seed[i < 2 ? i : i - 1][j < 2 ? j : j - 1];
        EXPECT_DOUBLE_EQ(v[i * 5 + j], want) << impl << " (" << i << ", " << j << ")";
      }
  }
}
