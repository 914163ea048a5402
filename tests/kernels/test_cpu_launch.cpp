// The launch emulated on the CPU (kernels/common/cpu_launch.h): every (block, thread) of the requested launch runs
// the kernel's body, so the elements left unwritten are exactly those the launch math predicts.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <vector>

#include "common/cpu_launch.h"
#include "cpu_impl_checks.h"
#include "launch_coverage/launch_coverage.h"
#include "launchlab/engine/errors.h"
#include "launchlab/explorer/occupancy.h"

using namespace launchlab;
using namespace launchlab::kernels;
namespace lc = launchlab::kernels::launch_coverage;

namespace {

LaunchConfig launch1D(std::uint32_t grid, std::uint32_t block) {
  LaunchConfig c;
  c.grid = Dim3{grid, 1, 1};
  c.block = Dim3{block, 1, 1};
  return c;
}

RunRequest emulated(const std::string& workload, std::uint64_t n, DType dtype, const std::string& impl,
                    std::optional<Dim3> block, std::optional<Dim3> grid) {
  RunRequest req;
  req.workload = workload;
  req.n = n;
  req.dtype = dtype;
  req.impls = {"cpu-serial", impl};
  req.launch.block = block;
  req.launch.grid = grid;
  req.warmup = 0;
  req.reps = 1;
  req.keepOutputs = true;
  return req;
}

const ImplResult& impl(const RunResult& r, const std::string& id) {
  for (const auto& i : r.impls)
    if (i.implId == id) return i;
  throw std::logic_error("no " + id);
}

}  // namespace

TEST(CpuLaunch, EveryThreadOfTheLaunchRunsOnceWithItsIndices) {
  // 7 x 33 stays on one core; 300 x 257 (above kParallelEmulationThreads) is shared out when Parallel.
  for (const auto& [grid, block] : {std::pair{7u, 33u}, std::pair{300u, 257u}})
    for (bool parallel : {false, true}) {
      const LaunchConfig cfg = launch1D(grid, block);
      std::vector<std::atomic<int>> seen(std::size_t(grid) * block);
      std::atomic<int> wrong{0};
      const std::uint64_t stride = std::uint64_t(grid) * block;
      const auto body = [&, g = grid, b = block](const EmulatedThread& t) {
        if (t.blockDim != b || t.gridDim != g || t.gridStride() != stride || t.thread >= b) ++wrong;
        ++seen[t.global()];
      };
      if (parallel)
        emulateLaunch1D<true>(cfg, body);
      else
        emulateLaunch1D<false>(cfg, body);
      EXPECT_EQ(wrong.load(), 0);
      for (std::size_t i = 0; i < seen.size(); ++i) ASSERT_EQ(seen[i].load(), 1) << i;
    }
}

TEST(CpuLaunch, AutoGridCoversOrStopsAtTheResidentBlocks) {
  const std::vector<HostArray> in;
  std::vector<HostArray> out;
  const RunSetup s = test::setupFor("vector_add", 1000, DType::F32);
  ImplContext ctx(s, in, out);
  EXPECT_EQ(resolveEmulatedLaunch1D(ctx, 1000, EmulatedGrid::Cover).grid.x, 4u);  // ceil(1000 / 256)
  EXPECT_EQ(ctx.launched->block.x, 256u);
  // sm_90: 2048 threads and 32 blocks per SM, so 8 blocks of 256 on each of the profile's SMs.
  const ArchProfile& p = defaultArchProfile();
  const std::uint32_t resident = std::uint32_t(8 * p.smCount);
  EXPECT_EQ(resolveEmulatedLaunch1D(ctx, std::uint64_t(1) << 30, EmulatedGrid::Resident).grid.x, resident);
  EXPECT_NE(ctx.launchNote.find("resident"), std::string::npos) << ctx.launchNote;
  EXPECT_EQ(resolveEmulatedLaunch1D(ctx, 1000, EmulatedGrid::Resident).grid.x, 4u);  // fewer than resident
  ctx.launch.block = Dim3{32, 1, 1};  // blocks per SM limit: 32 blocks of 32 threads per SM
  EXPECT_EQ(resolveEmulatedLaunch1D(ctx, std::uint64_t(1) << 30, EmulatedGrid::Resident).grid.x,
            std::uint32_t(32 * p.smCount));
  ctx.launch.grid = Dim3{5, 1, 1};
  EXPECT_EQ(resolveEmulatedLaunch1D(ctx, 1000, EmulatedGrid::Resident), launch1D(5, 32));
  EXPECT_EQ(ctx.launchNote, "as requested; every thread emulated on the CPU");
}

TEST(CpuLaunch, LaunchesAGpuWouldRefuseOrTooLargeToEmulateAreInvalid) {
  const std::vector<HostArray> in;
  std::vector<HostArray> out;
  const RunSetup s = test::setupFor("vector_add", 1000, DType::F32);
  ImplContext ctx(s, in, out);
  ctx.launch.block = Dim3{2048, 1, 1};
  EXPECT_THROW(resolveEmulatedLaunch1D(ctx, 1000, EmulatedGrid::Cover), InvalidLaunch);
  ctx.launch.block = Dim3{16, 16, 1};
  EXPECT_THROW(resolveEmulatedLaunch1D(ctx, 1000, EmulatedGrid::Cover), InvalidLaunch);
  ctx.launch.block = Dim3{1024, 1, 1};
  ctx.launch.grid = Dim3{std::uint32_t(kMaxEmulatedThreads / 1024 + 1), 1, 1};
  try {
    resolveEmulatedLaunch1D(ctx, 1000, EmulatedGrid::Cover);
    FAIL() << "accepted " << ctx.launch.grid->x << " blocks";
  } catch (const InvalidLaunch& e) {
    EXPECT_NE(std::string(e.what()).find("the most the CPU emulation runs"), std::string::npos) << e.what();
  }
}

TEST(CpuLaunch, LaunchCoverageLeavesExactlyTheElementsPastTheLastThreadUnwritten) {
  const std::uint64_t n = 1000;
  for (std::uint32_t block : {1u, 32u, 33u, 128u}) {
    const std::uint64_t cover = ceilDiv(n, block);
    for (std::uint64_t grid : {cover / 2, cover, cover + 3}) {
      SCOPED_TRACE(std::to_string(grid) + " x " + std::to_string(block));
      const RunResult r = test::cpuEngine().run(emulated("launch_coverage", n, DType::I32, "cpu-emulated-launch",
                                                         Dim3{block, 1, 1}, Dim3{std::uint32_t(grid), 1, 1}));
      ASSERT_EQ(r.status, Status::Ok) << r.reason;
      const ImplResult& e = impl(r, "cpu-emulated-launch");
      ASSERT_EQ(e.status, Status::Ok) << e.reason;
      const std::uint64_t threads = grid * block;
      const std::uint64_t unwritten = threads >= n ? 0 : n - threads;
      EXPECT_EQ(e.metrics.at("elements_never_written"), double(unwritten));
      EXPECT_EQ(e.metrics.at("threads_past_end"), double(threads > n ? threads - n : 0));
      EXPECT_EQ(e.verification.mismatches, unwritten);
      const auto map = test::output(r, "cpu-emulated-launch", "writer_block").view<std::int32_t>();
      for (std::uint64_t i = 0; i < n; ++i)
        ASSERT_EQ(map[i], i < threads ? std::int32_t(i / block) : lc::kNeverWritten) << i;
    }
  }
}

TEST(CpuLaunch, OnePerThreadLeavesTheTailThatGridStrideCovers) {
  // TP 3.2's grid-stride add_kernel[30, 128] on 100000: 3840 threads.
  const Dim3 block{128, 1, 1}, grid{30, 1, 1};
  const RunResult one =
      test::cpuEngine().run(emulated("vector_add", 100000, DType::I32, "cpu-emulated-one-per-thread", block, grid));
  const ImplResult& o = impl(one, "cpu-emulated-one-per-thread");
  ASSERT_EQ(o.status, Status::Ok) << o.reason;
  // The tail and nothing else: the outcome the seed's launch teaches, not a failure.
  EXPECT_EQ(o.verification.outcome, Verification::Outcome::Demonstration);
  EXPECT_EQ(o.verification.note.rfind(kExpectedOutcome, 0), 0u) << o.verification.note;
  EXPECT_NE(o.verification.note.find("96160 of 100000 elements never written: 3840 threads"), std::string::npos);
  EXPECT_EQ(o.verification.mismatches, 100000u - 3840u);
  EXPECT_EQ(o.verification.firstMismatches.front(), 3840u);
  EXPECT_EQ(o.metrics.at("threads_launched"), 3840.0);

  const RunResult stride =
      test::cpuEngine().run(emulated("vector_add", 100000, DType::I32, "cpu-emulated-grid-stride", block, grid));
  const ImplResult& g = impl(stride, "cpu-emulated-grid-stride");
  EXPECT_EQ(g.verification.outcome, Verification::Outcome::Pass) << g.verification.note;
  EXPECT_EQ(g.launch, launch1D(30, 128));
}

TEST(CpuLaunch, HypotOneThreadDoesAllTheWorkAndGetsTheSameAnswer) {
  for (std::uint32_t blocks : {1u, 128u}) {
    const std::uint32_t threads = blocks == 1 ? 1 : 64;
    const RunResult r = test::cpuEngine().run(
        emulated("hypot", 10007, DType::F32, "cpu-emulated-grid-stride", Dim3{threads, 1, 1}, Dim3{blocks, 1, 1}));
    const ImplResult& e = impl(r, "cpu-emulated-grid-stride");
    ASSERT_EQ(e.status, Status::Ok) << e.reason;
    EXPECT_EQ(e.verification.outcome, Verification::Outcome::Pass) << e.verification.note;
    EXPECT_EQ(e.verification.mismatches, 0u);
    EXPECT_EQ(e.metrics.at("threads_launched"), double(blocks * threads));
  }
}
