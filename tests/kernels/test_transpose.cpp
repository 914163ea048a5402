// transpose on the CPU: t[c][r] = a[r][c] on odd shapes against indices computed here, the bank picture computed from
// the addresses, and the 2-D launch rules the engine applies to a 2-D workload.
#include "launchlab/course/chapters.h"
#include "launchlab/explorer/sweep.h"
#include "metadata_checks.h"

using namespace launchlab;
using namespace launchlab::test;

namespace {

template <typename T>
void expectTransposed(std::size_t rows, std::size_t cols, DType dtype) {
  SCOPED_TRACE(std::to_string(rows) + "x" + std::to_string(cols) + " " + std::string(dtypeName(dtype)));
  const RunResult r = runCpu("transpose", rows, dtype, {{"cols", std::to_string(cols)}}, rows * 5 + cols);
  expectCpuImplsPass(r);
  const auto a = r.inputs[0].view<T>();
  for (const char* impl : {"cpu-serial", "cpu-parallel"}) {
    const HostArray& t = output(r, impl, "t");
    ASSERT_EQ(t.shape(), (std::vector<std::size_t>{cols, rows})) << impl;
    const auto v = t.view<T>();
    for (std::size_t y = 0; y < rows; ++y)
      for (std::size_t x = 0; x < cols; ++x)
        ASSERT_EQ(v[x * rows + y], a[y * cols + x]) << impl << " at " << y << "," << x;
  }
}

std::string launchProblem(const std::string& id, const char* block, const char* grid = nullptr) {
  RunRequest req;
  req.workload = id;
  req.n = 64;
  req.launch.block = parseDim3(block);
  if (grid) req.launch.grid = parseDim3(grid);
  const auto p = cpuEngine().validate(req);
  return p.empty() ? std::string() : p.front().field + ": " + p.front().message;
}

}  // namespace

TEST(Transpose, Metadata) {
  expectMetadata("transpose", std::string(kChapterMemory), 4);
  const auto& info = workload("transpose").info();
  EXPECT_EQ(info.launchDims, 2);
  EXPECT_EQ(info.inputs.at(0).name, "a");
  EXPECT_EQ(info.outputs.at(0).name, "t");
  EXPECT_EQ(info.outputs.at(0).plot, PlotKind::Image);
  EXPECT_EQ(info.outputs.at(1).plot, PlotKind::Image);
}

TEST(Transpose, CpuImplsTransposeOddShapes) {
  expectTransposed<float>(1, 1, DType::F32);
  expectTransposed<float>(31, 33, DType::F32);
  expectTransposed<float>(1000, 1003, DType::F32);
  expectTransposed<double>(33, 65, DType::F64);
  expectTransposed<std::int32_t>(70, 1, DType::I32);
}

TEST(Transpose, BankPictureIsAColumnOf32WithoutPaddingAndADiagonalWithIt) {
  const RunResult r = runCpu("transpose", 4, DType::F32);
  const HostArray& banks = output(r, "cpu-serial", "banks");
  ASSERT_EQ(banks.shape(), (std::vector<std::size_t>{32, 65}));
  const auto v = banks.view<std::int32_t>();
  for (std::size_t lane = 0; lane < 32; ++lane) {
    for (std::size_t bank = 0; bank < 32; ++bank) {
      // tile[lane][0] of a [32][32] float tile is word 32 * lane: bank 0 for every lane, 32 lanes on it.
      EXPECT_EQ(v[lane * 65 + bank], bank == 0 ? 32 : 0) << lane << " " << bank;
      // [32][33]: word 33 * lane, bank lane, alone on it.
      EXPECT_EQ(v[lane * 65 + 33 + bank], bank == lane ? 1 : 0) << lane << " " << bank;
    }
    EXPECT_EQ(v[lane * 65 + 32], -1);
  }
  EXPECT_TRUE(sameContents(banks, output(r, "cpu-parallel", "banks")));
}

TEST(Transpose, TwoDimensionalLaunchesAreCheckedPerDimensionWithTheLimitNamed) {
  EXPECT_EQ(launchProblem("transpose", "32x8", "4x4"), "");
  EXPECT_EQ(launchProblem("transpose", "256"), "");  // X alone is X x 1
  EXPECT_EQ(launchProblem("transpose", "32x64"), "block: 2048 threads per block > 1024 (the limit of any CUDA GPU)");
  EXPECT_EQ(launchProblem("transpose", "8x8", "1x65536"),
            "grid: 65536 blocks > 65535, the grid limit in y on any CUDA GPU");
  EXPECT_NE(launchProblem("transpose", "4x4x4").find("uses a 2D launch"), std::string::npos);
  EXPECT_NE(launchProblem("hypot", "16x16").find("uses a 1D launch"), std::string::npos);
}

TEST(Transpose, SweepsOver2DBlocksSkipInvalidShapesWithTheReason) {
  SweepPlan plan;
  plan.base.workload = "transpose";
  plan.base.n = "64";
  plan.base.impls = "cpu-serial";
  plan.axes = {{"block", {"32x8", "16x16", "64x32", "1x1024"}}};
  std::vector<RequestProblem> problems;
  const auto cells = expandSweep(
      plan, [](const RunRequest& r) { return cpuEngine().validate(r); }, problems);
  ASSERT_TRUE(problems.empty());
  ASSERT_EQ(cells.size(), 4u);
  EXPECT_EQ(cells[0].block, (Dim3{32, 8, 1}));
  EXPECT_TRUE(cells[1].request.has_value());
  EXPECT_EQ(cells[2].skipReason, "2048 threads per block > 1024 (the limit of any CUDA GPU)");
  EXPECT_TRUE(cells[3].skipReason.empty()) << cells[3].skipReason;  // 1 x 1024: y may hold the whole block
  // The window's and bench's 2-D block sweep: 32 x k shapes, every one valid for a 2-D workload.
  for (const Dim3& b : sweepBlocks(2)) {
    RunRequest r;
    r.workload = "transpose";
    r.n = 64;
    r.launch.block = b;
    EXPECT_TRUE(cpuEngine().validate(r).empty()) << formatDim3(b);
  }
}
