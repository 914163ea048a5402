// row_col_sums on the CPU: both sums on odd shapes against plain double loops written here, the seed's inputs
// (ones with column 3 or row 3 set to 9) and their exact sums, the tolerance catching a wrong sum, and the waves note.
#include <cmath>

#include "launchlab/course/chapters.h"
#include "metadata_checks.h"
#include "row_col_sums/row_col_sums.h"

using namespace launchlab;
using namespace launchlab::test;

namespace {

template <typename T>
void expectRowColSums(std::size_t rows, std::size_t cols, DType dtype) {
  SCOPED_TRACE(std::to_string(rows) + "x" + std::to_string(cols));
  const RunResult r = runCpu("row_col_sums", rows, dtype, {{"cols", std::to_string(cols)}}, rows + 3 * cols);
  expectCpuImplsPass(r);
  const auto a = r.inputs[0].view<T>();
  std::vector<double> rowSum(rows, 0.0), colSum(cols, 0.0);
  for (std::size_t y = 0; y < rows; ++y)
    for (std::size_t x = 0; x < cols; ++x) {
      rowSum[y] += double(a[y * cols + x]);
      colSum[x] += double(a[y * cols + x]);
    }
  // The CPU sums are double-accumulated then rounded to T: within one rounding of T (and double noise) of these.
  const double eps = std::is_same_v<T, float> ? 1.2e-7 : 1e-12;
  for (const char* impl : {"cpu-serial", "cpu-parallel"}) {
    const auto rs = output(r, impl, "row_sums").view<T>();
    const auto cs = output(r, impl, "col_sums").view<T>();
    ASSERT_EQ(rs.size(), rows);
    ASSERT_EQ(cs.size(), cols);
    for (std::size_t y = 0; y < rows; ++y) ASSERT_NEAR(rs[y], rowSum[y], eps * (std::fabs(rowSum[y]) + 1)) << impl;
    for (std::size_t x = 0; x < cols; ++x) ASSERT_NEAR(cs[x], colSum[x], eps * (std::fabs(colSum[x]) + 1)) << impl;
  }
}

}  // namespace

TEST(RowColSums, Metadata) {
  expectMetadata("row_col_sums", std::string(kChapterMemory), 3);
  const auto& info = workload("row_col_sums").info();
  EXPECT_EQ(info.launchDims, 1);
  EXPECT_EQ(info.inputs[0].name, "a");
  EXPECT_EQ(info.outputs[0].name, "row_sums");
  EXPECT_EQ(info.outputs[1].name, "col_sums");
  EXPECT_EQ(info.defaultN, 16384u);
  EXPECT_TRUE(spec("row_col_sums", "cuda-thread-per-line").usesLaunchConfig);
  EXPECT_EQ(spec("row_col_sums", "cuda-cub-segmented").kind, ImplKind::CudaLibrary);
}

TEST(RowColSums, CpuImplsSumOnOddShapes) {
  expectRowColSums<float>(1, 1, DType::F32);
  expectRowColSums<float>(31, 33, DType::F32);
  expectRowColSums<double>(1000, 1003, DType::F64);
  expectRowColSums<float>(1003, 1000, DType::F32);
}

TEST(RowColSums, SeedInputsGiveTheSeedsSums) {
  const RunResult c = runCpu("row_col_sums", 64, DType::F32, {{"input", "seed-cols"}});
  expectCpuImplsPass(c);
  const auto cs = output(c, "cpu-parallel", "col_sums").view<float>();
  const auto rs = output(c, "cpu-parallel", "row_sums").view<float>();
  for (std::size_t x = 0; x < 64; ++x) ASSERT_EQ(cs[x], x == 3 ? 9.0f * 64 : 64.0f);  // truth = a.sum(axis=0)
  for (std::size_t y = 0; y < 64; ++y) ASSERT_EQ(rs[y], 63.0f + 9.0f);
  const RunResult r = runCpu("row_col_sums", 64, DType::F32, {{"input", "seed-rows"}, {"cols", "5"}});
  const auto rs2 = output(r, "cpu-serial", "row_sums").view<float>();
  const auto cs2 = output(r, "cpu-serial", "col_sums").view<float>();
  for (std::size_t y = 0; y < 64; ++y) ASSERT_EQ(rs2[y], y == 3 ? 45.0f : 5.0f);
  for (std::size_t x = 0; x < 5; ++x) ASSERT_EQ(cs2[x], 63.0f + 9.0f);
}

TEST(RowColSums, VerificationToleratesReorderingButNotAWrongSum) {
  const RunResult r = runCpu("row_col_sums", 300, DType::F32, {{"cols", "200"}});
  ASSERT_EQ(r.status, Status::Ok);
  const auto& ref = r.find("cpu-serial")->outputs;
  const Workload& w = workload("row_col_sums");
  const RunSetup s = setupFor("row_col_sums", 300, DType::F32, {{"cols", "200"}});
  const ImplSpec& impl = spec("row_col_sums", "cuda-block-reduce");
  // A float sum in another order: each row re-added in float from the last column to the first.
  std::vector<HostArray> reordered = ref;
  const auto a = r.inputs[0].view<float>();
  for (std::size_t y = 0; y < 300; ++y) {
    float acc = 0;
    for (std::size_t x = 200; x-- > 0;) acc += a[y * 200 + x];
    reordered[0].view<float>()[y] = acc;
  }
  EXPECT_EQ(w.verifyWithInputs(s, r.inputs, ref, reordered, impl).outcome, Verification::Outcome::Pass);
  std::vector<HostArray> wrong = ref;
  wrong[1].view<float>()[17] += 0.5f;  // one column sum off by half an element
  EXPECT_EQ(w.verifyWithInputs(s, r.inputs, ref, wrong, impl).outcome, Verification::Outcome::Fail);
}

TEST(RowColSums, WavesNoteSaysWhy64BlocksCannotFill132Sms) {
  const std::string seed = kernels::row_col_sums::wavesNote(64, 132, 8);
  EXPECT_NE(seed.find("64 blocks on 132 SMs"), std::string::npos) << seed;
  EXPECT_NE(seed.find("1056 at once"), std::string::npos) << seed;
  EXPECT_NE(seed.find("0.06 waves"), std::string::npos) << seed;
  EXPECT_NE(seed.find("68 SMs get no block"), std::string::npos) << seed;
  const std::string full = kernels::row_col_sums::wavesNote(2112, 132, 8);
  EXPECT_NE(full.find("2.00 waves"), std::string::npos) << full;
  EXPECT_EQ(full.find("no block"), std::string::npos) << full;
}
