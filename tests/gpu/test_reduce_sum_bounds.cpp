// reduce_sum in float32 over many launches: the bound each implementation's order of additions guarantees
// (launchlab/engine/summation.h) must never fail a correct sum, whatever order the blocks arrive in. The atomics add in
// arrival order, which changes from launch to launch, so one launch proves little: 3000 runs of every CUDA
// variant, at the default launch, several block sizes and grid-stride grids, on small n and on n = 1000003.
// Random data from the suite's seed (printed; LAUNCHLAB_TEST_SEED replays it).
#include <gtest/gtest.h>

#include <optional>

#include "gpu_env.h"
#include "launchlab/files/command_line.h"

using namespace launchlab;

namespace {

struct Launch {
  std::optional<unsigned> block;
  std::optional<unsigned> grid;  ///< set: fewer blocks than elements, so the kernels stride over the grid
};

}  // namespace

TEST(ReduceSumBounds, ThreeThousandLaunchesOfEveryVariantStayWithinTheirBounds) {
  auto& env = test::gpuEnv();
  if (!env.engine->deviceStatus().available) GTEST_SKIP() << "no GPU: " << env.engine->deviceStatus().reason;
  const Launch launches[] = {{}, {256, {}}, {128, {}}, {1024, 264}, {256, 1056}};
  const std::uint64_t sizes[] = {4099, 1000003};
  constexpr int kRunsPerCase = 300;  // 2 sizes x 5 launches x 300 = 3000 runs, each launching every variant once
  int runs = 0, verified = 0;
  for (std::uint64_t n : sizes)
    for (const Launch& l : launches) {
      RunRequest req;
      req.workload = "reduce_sum";
      req.n = n;
      req.dtype = DType::F32;
      req.params = {{"input", "random"}};
      req.reps = 1;
      req.warmup = 0;
      if (l.block) req.launch.block = Dim3{*l.block, 1, 1};
      if (l.grid) req.launch.grid = Dim3{*l.grid, 1, 1};
      for (const auto& s : env.registry.find("reduce_sum")->impls())
        if (s.isGpu() && !s.demonstration) req.impls.push_back(s.id);
      req.seed = test::caseSeed(runCommandLine(req));
      ASSERT_TRUE(env.engine->validate(req).empty()) << runCommandLine(req);
      // The same inputs every run of a case: cpu-serial runs once and is cached; the GPU order varies.
      for (int k = 0; k < kRunsPerCase; ++k, ++runs) {
        const RunResult r = env.engine->run(req);
        ASSERT_EQ(r.status, Status::Ok) << r.reason;
        for (const auto& i : r.impls) {
          if (!i.gpu) continue;
          ASSERT_EQ(i.status, Status::Ok) << i.implId << ": " << i.reason;
          RunRequest one = req;
          one.impls = {i.implId};
          ASSERT_EQ(i.verification.outcome, Verification::Outcome::Pass)
              << i.implId << ", run " << k << ": " << i.verification.note << "; replay: " << runCommandLine(one)
              << " (or LAUNCHLAB_TEST_SEED=" << test::suiteSeed() << ")";
          ++verified;
        }
      }
    }
  EXPECT_EQ(runs, 3000);
  EXPECT_GE(verified, 3000 * 5);  // atomics, two trees, the global-memory tree, warp shuffles (CUB when built)
}
