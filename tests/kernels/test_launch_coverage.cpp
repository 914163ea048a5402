#include <gtest/gtest.h>

#include "common/index_math.h"
#include "launch_coverage/launch_coverage.h"
#include "metadata_checks.h"

using namespace launchlab;
namespace lc = launchlab::kernels::launch_coverage;

TEST(LaunchCoverage, Metadata) {
  test::expectMetadata("launch_coverage", "TP 3.2 — Custom CUDA kernels", 2);
  EXPECT_EQ(test::workload("launch_coverage").info().defaultN, 4096u);  // the seed's n
  EXPECT_EQ(test::workload("launch_coverage").info().outputs[0].plot, PlotKind::Image);
  EXPECT_TRUE(test::spec("launch_coverage", "cuda-no-bounds-check").demonstration);
  EXPECT_FALSE(test::spec("launch_coverage", "cuda-bounds-checked").demonstration);
}

TEST(LaunchCoverage, DefaultLaunchIsTheSeeds) {
  LaunchRequest none;
  EXPECT_EQ(lc::blockSize(none), 128u);
  EXPECT_EQ(lc::gridSize(none, 4096), 32u);
  EXPECT_EQ(lc::gridSize(none, 4097), 33u);
  LaunchRequest user;
  user.block = Dim3{33, 1, 1};
  EXPECT_EQ(lc::gridSize(user, 100), 4u);
  user.grid = Dim3{2, 1, 1};
  EXPECT_EQ(lc::gridSize(user, 100), 2u);
}

TEST(LaunchCoverage, ReferenceMapUsesTheLaunchedBlockAndPadsTheLastRow) {
  RunRequest req;
  req.workload = "launch_coverage";
  req.n = 1000;
  req.params = {{"width", "64"}};
  req.launch.block = Dim3{33, 1, 1};
  req.impls = {"cpu-serial", "cpu-parallel"};
  req.warmup = 0;
  req.reps = 1;
  req.keepOutputs = true;
  auto r = test::cpuEngine().run(req);
  test::expectCpuImplsPass(r);
  const auto& map = test::output(r, "cpu-serial", "writer_block");
  ASSERT_EQ(map.shape(), (std::vector<std::size_t>{16, 64}));  // ceil(1000 / 64) rows
  auto v = map.view<std::int32_t>();
  for (std::size_t i = 0; i < 1000; ++i) ASSERT_EQ(v[i], std::int32_t(i / 33)) << i;
  for (std::size_t i = 1000; i < v.size(); ++i) ASSERT_EQ(v[i], lc::kPadding) << i;
}

TEST(LaunchCoverage, GuardPlanHoldsEveryOvershootOrClampsTheGrid) {
  auto p = lc::planGuard(4096, 128, 32, 1u << 20);  // exact cover
  EXPECT_EQ(p.grid, 32u);
  EXPECT_EQ(p.guardElements, 0u);
  EXPECT_FALSE(p.clamped);
  p = lc::planGuard(4096, 128, 40, 1u << 20);  // the seed's "increase blocks_per_grid"
  EXPECT_EQ(p.guardElements, 40u * 128 - 4096);
  EXPECT_FALSE(p.clamped);
  p = lc::planGuard(4096, 128, 24, 1u << 20);  // too small: nothing past the end
  EXPECT_EQ(p.guardElements, 0u);
  p = lc::planGuard(1000, 1024, 2147483647u, 1u << 20);  // absurd grid: clamped to what the guard holds
  EXPECT_TRUE(p.clamped);
  EXPECT_LE(p.grid * 1024 - 1000, std::uint64_t(1) << 20);
  EXPECT_EQ(p.guardElements, p.grid * 1024 - 1000);
  EXPECT_GT((p.grid + 1) * 1024 - 1000, std::uint64_t(1) << 20);  // the largest such grid
}

TEST(LaunchCoverage, SimulatedLaunchesMatchOrLeaveTheTailUnwritten) {
  // Every thread of a launch, simulated with the kernels' index math: grids that cover n give the ideal map, a
  // smaller grid leaves exactly n - grid * block elements unwritten.
  const std::uint64_t n = 1000;
  for (std::uint32_t block : {1u, 32u, 33u, 128u}) {
    const std::uint64_t cover = ceilDiv(n, block);
    for (std::uint64_t grid : {cover / 2, cover, cover + 3}) {
      std::vector<std::int32_t> got(n, lc::kNeverWritten), ideal(n);
      for (std::uint64_t b = 0; b < grid; ++b)
        for (std::uint32_t t = 0; t < block; ++t)
          if (const std::uint64_t i = idx::global1D(std::uint32_t(b), block, t); i < n) got[i] = std::int32_t(b);
      lc::fillIdealMap(ideal, n, block, lc::Value::BlockId, false);
      const std::uint64_t expectedUnwritten = grid * block >= n ? 0 : n - grid * block;
      EXPECT_EQ(lc::countNeverWritten(got, n), expectedUnwritten) << block << " x " << grid;
      for (std::uint64_t i = 0; i < n; ++i)
        if (got[i] != lc::kNeverWritten) {
          ASSERT_EQ(got[i], ideal[i]);
        }
    }
  }
}

namespace {
/// The workload's verification of `got` as a launch of `grid` x 128 threads reported it.
Verification verifyAs(const char* impl, const std::vector<HostArray>& ref, const std::vector<HostArray>& got,
                      std::uint64_t grid = 24) {
  const auto& w = test::workload("launch_coverage");
  LaunchConfig launched;
  launched.grid = {std::uint32_t(grid), 1, 1};
  launched.block = {128, 1, 1};
  return w.verifyLaunched(test::setupFor("launch_coverage", 4096, DType::I32), {}, ref, got,
                          test::spec("launch_coverage", impl), &launched);
}
}  // namespace

TEST(LaunchCoverage, VerificationNamesTheUnwrittenElements) {
  const auto& w = test::workload("launch_coverage");
  auto s = test::setupFor("launch_coverage", 4096, DType::I32);
  auto ref = w.makeOutputs(s);
  lc::fillIdealMap(ref[0].view<std::int32_t>(), 4096, 128, lc::Value::BlockId, false);
  auto got = ref;
  auto g = got[0].view<std::int32_t>();
  for (std::size_t i = 3072; i < 4096; ++i) g[i] = lc::kNeverWritten;  // --grid 24: 3072 threads
  // Exactly the tail a short grid leaves: the expected outcome, the lesson, not a failure.
  auto v = verifyAs("cuda-bounds-checked", ref, got);
  EXPECT_EQ(v.outcome, Verification::Outcome::Demonstration);
  EXPECT_EQ(v.mismatches, 1024u);
  EXPECT_NE(v.note.find("1024 of 4096 elements never written"), std::string::npos) << v.note;
  // Fewer threads than elements: none ran past the end, so the guard zone is not mentioned.
  v = verifyAs("cuda-no-bounds-check", ref, got);
  EXPECT_EQ(v.note.find("guard zone"), std::string::npos) << v.note;
  EXPECT_EQ(v.note, verifyAs("cpu-emulated-launch", ref, got).note);
  v = verifyAs("cuda-bounds-checked", ref, ref, 32);
  EXPECT_EQ(v.outcome, Verification::Outcome::Pass);
  // A gap inside the array, or a wrong value, is no launch's expected outcome: a real failure.
  auto gap = ref;
  gap[0].view<std::int32_t>()[100] = lc::kNeverWritten;
  EXPECT_EQ(verifyAs("cuda-bounds-checked", ref, gap).outcome, Verification::Outcome::Fail);
  got[0].view<std::int32_t>()[10] = 7;
  EXPECT_EQ(verifyAs("cpu-emulated-launch", ref, got).outcome, Verification::Outcome::Fail);
}

TEST(LaunchCoverage, TooManyThreadsCountsTheMaskedSurplus) {
  const auto& w = test::workload("launch_coverage");
  auto ref = w.makeOutputs(test::setupFor("launch_coverage", 4096, DType::I32));
  lc::fillIdealMap(ref[0].view<std::int32_t>(), 4096, 128, lc::Value::BlockId, false);
  // 64 x 128 threads on 4096 elements: the map is exact, the lesson is the 4096 threads the check masked.
  auto v = verifyAs("cpu-emulated-launch", ref, ref, 64);
  EXPECT_EQ(v.outcome, Verification::Outcome::Demonstration);
  EXPECT_EQ(v.mismatches, 0u);
  EXPECT_NE(v.note.find("8192 threads for 4096 elements: the bounds check if (i < n) masked 4096 surplus threads"),
            std::string::npos)
      << v.note;
  // The exact grid, or less than a block over (an automatic grid's rounding), is a plain pass.
  EXPECT_EQ(verifyAs("cpu-emulated-launch", ref, ref, 32).outcome, Verification::Outcome::Pass);
  // The implementation without the check is the other demonstration: its surplus writes land in the guard zone.
  EXPECT_NE(
      verifyAs("cuda-no-bounds-check", ref, ref, 64).note.find("4096 threads past the end wrote into the guard zone"),
      std::string::npos);
  // The CPU fills that ignore the launch never teach it.
  EXPECT_EQ(verifyAs("cpu-parallel", ref, ref, 64).outcome, Verification::Outcome::Pass);
}

TEST(LaunchCoverage, ReferenceCacheKeysOnTheLaunch) {
  // The engine reuses cpu-serial's output across runs of one setup; this workload's reference depends on the block,
  // so a run with another block must not be checked against the cached map.
  RunRequest req;
  req.workload = "launch_coverage";
  req.n = 1000;
  req.reps = 1;
  req.warmup = 0;
  req.impls = {"cpu-parallel"};
  auto first = test::cpuEngine().run(req);
  ASSERT_EQ(first.status, Status::Ok) << first.reason;
  EXPECT_EQ(first.find("cpu-parallel")->verification.outcome, Verification::Outcome::Pass);
  req.launch.block = Dim3{33, 1, 1};
  auto second = test::cpuEngine().run(req);
  ASSERT_EQ(second.status, Status::Ok) << second.reason;
  EXPECT_EQ(second.find("cpu-parallel")->verification.outcome, Verification::Outcome::Pass)
      << second.find("cpu-parallel")->verification.note;
}

TEST(LaunchCoverage, SeedValuesAreXPlusY) {
  RunRequest req;
  req.workload = "launch_coverage";
  req.n = 4096;
  req.params = {{"value", "x-plus-y"}};
  req.impls = {"cpu-serial", "cpu-parallel"};
  req.warmup = 0;
  req.reps = 1;
  req.keepOutputs = true;
  auto r = test::cpuEngine().run(req);
  ASSERT_EQ(r.status, Status::Ok) << r.reason;
  auto map = r.find("cpu-serial")->outputs.at(0).view<std::int32_t>();
  ASSERT_EQ(map.size(), 4096u);
  for (std::size_t i = 0; i < map.size(); ++i) ASSERT_EQ(map[i], std::int32_t(i) + 1);  // arange + ones: 1 ... 4096
  EXPECT_EQ(r.find("cpu-parallel")->verification.outcome, Verification::Outcome::Pass);
}
