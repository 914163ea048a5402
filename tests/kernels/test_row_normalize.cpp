#include <set>

#include "common/row_layout.h"
#include "cpu_impl_checks.h"

using namespace launchlab;
using namespace launchlab::test;

TEST(RowNormalize, SeedExample) {
  // x = np.arange(32 * 3).astype(np.float32).reshape((32, 3)); x[i, :] / x[i, :].mean()
  RunResult r = runCpu("row_normalize", 32, DType::F32);
  expectCpuImplsPass(r);
  const auto& y = r.find("cpu-serial")->outputs[0];
  ASSERT_EQ(y.shape(), (std::vector<std::size_t>{32, 3}));
  auto v = y.view<float>();
  EXPECT_EQ(v[0], 0.0f);
  EXPECT_EQ(v[1], 1.0f);
  EXPECT_EQ(v[2], 2.0f);
  EXPECT_EQ(v[3], 0.75f);  // [3, 4, 5] / 4
  EXPECT_EQ(v[4], 1.0f);
  EXPECT_EQ(v[5], 1.25f);
  for (std::size_t row = 0; row < 32; ++row) EXPECT_FLOAT_EQ(v[row * 3 + 1], 1.0f);  // the middle one is the mean
}

TEST(RowNormalize, CpuParallelMatchesSerial) {
  for (const char* d : {"1", "3", "33", "1000"}) {
    expectCpuImplsPass(runCpu("row_normalize", 257, DType::F32, {{"d", d}, {"input", "uniform"}}));
    expectCpuImplsPass(runCpu("row_normalize", 65, DType::F64, {{"d", d}}));
  }
}

TEST(RowNormalize, RowMeansBecomeOne) {
  RunResult r = runCpu("row_normalize", 50, DType::F64, {{"d", "17"}, {"input", "uniform"}});
  ASSERT_EQ(r.status, Status::Ok);
  auto y = r.find("cpu-serial")->outputs[0].view<double>();
  for (std::size_t row = 0; row < 50; ++row) {
    double s = 0;
    for (std::size_t j = 0; j < 17; ++j) s += y[row * 17 + j];
    EXPECT_NEAR(s / 17, 1.0, 1e-14);
  }
}

TEST(RowNormalize, ShapesDeterminismAndValidation) {
  const auto s = setupFor("row_normalize", 40, DType::F32, {{"d", "5"}, {"input", "uniform"}});
  const Workload& w = workload("row_normalize");
  EXPECT_EQ(w.inputShapes(s)[0], (std::vector<std::size_t>{40, 5}));
  EXPECT_EQ(w.makeOutputs(s)[0].shape(), (std::vector<std::size_t>{40, 5}));
  EXPECT_EQ(w.info().outputs[0].plot, PlotKind::Image);
  expectDeterministicInputs("row_normalize", s);
  EXPECT_NE(firstProblem("row_normalize", std::uint64_t(1) << 28, DType::F32, {{"d", "64"}}).find("2^32"),
            std::string::npos);
  EXPECT_EQ(firstProblem("row_normalize", std::uint64_t(1) << 27, DType::F32), "");
}

// The warp split used by the warp- and block-per-row kernels (and l2_norm's): for every block size the suite and
// users may choose, the warps' lanes cover the block's threads exactly once, and masks name existing lanes only.
TEST(RowLayout, WarpsCoverAnyBlockExactlyOnce) {
  for (std::uint32_t block = 1; block <= 1024; ++block) {
    const std::uint32_t warps = idx::warpsPerBlock(block);
    ASSERT_LE(warps, 32u);
    std::uint32_t covered = 0;
    for (std::uint32_t w = 0; w < warps; ++w) {
      const std::uint32_t lanes = idx::lanesInWarp(block, w);
      ASSERT_GE(lanes, 1u);
      ASSERT_LE(lanes, 32u);
      if (w + 1 < warps) {
        ASSERT_EQ(lanes, 32u);
      }
      ASSERT_EQ(__builtin_popcount(idx::laneMask(lanes)), int(lanes));
      covered += lanes;
    }
    ASSERT_EQ(covered, block);
    // blockSum's second stage: warp 0 has enough lanes to hold one partial sum per warp.
    ASSERT_GE(idx::lanesInWarp(block, 0), warps);
  }
}

// The grid-stride loop over rows of the warp-per-row kernels: with any grid and block, every row is handled by
// exactly one warp.
TEST(RowLayout, WarpPerRowVisitsEveryRowOnce) {
  for (std::uint32_t block : {1u, 31u, 33u, 64u, 1024u})
    for (std::uint32_t grid : {1u, 3u, 7u})
      for (std::uint64_t rows : {1u, 5u, 100u, 1001u}) {
        std::vector<int> seen(rows, 0);
        const std::uint64_t warps = idx::warpsPerBlock(block);
        for (std::uint32_t b = 0; b < grid; ++b)
          for (std::uint32_t w = 0; w < warps; ++w)
            for (std::uint64_t r = b * warps + w; r < rows; r += grid * warps) ++seen[r];
        for (std::uint64_t r = 0; r < rows; ++r) ASSERT_EQ(seen[r], 1) << block << " " << grid << " " << r;
      }
}
