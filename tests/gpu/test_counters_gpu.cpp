// Hardware counters on the GPU (CUPTI's range profiler): the physics the memory lessons teach, not snapshots.
// Skipped with the reason where CUPTI's libraries are not on the loader's path (scripts/gpu/counters_check.sh puts
// them there); any other counter error fails.
#include <gtest/gtest.h>

#include "gpu_env.h"
#include "launchlab/profiler/cupti_profiler.h"

using namespace launchlab;

namespace {

Engine& profilingEngine() {
  Engine& e = *test::gpuEnv().engine;
  static const auto profiler = profiler::makeCuptiProfiler();
  e.setCounterProfiler(profiler);
  return e;
}

/// The counters of `impl` in a run of `req` (counters `ids`), or a skip/failure saying why there are none.
std::optional<ImplCounters> countersOf(RunRequest req, const std::string& impl, std::vector<std::string> ids) {
  Engine& e = profilingEngine();
  req.impls = {impl};
  req.counters = std::move(ids);
  req.reps = 1;
  EXPECT_TRUE(e.validate(req).empty());
  const RunResult r = e.run(req);
  const ImplResult* i = r.find(impl);
  if (!i || i->status != Status::Ok || !i->counters) {
    ADD_FAILURE() << impl << " did not run: " << (i ? i->reason : r.reason);
    return std::nullopt;
  }
  return *i->counters;
}

#define LAUNCHLAB_COUNTERS_OR_SKIP(var, expr)                                                               \
  auto var = (expr);                                                                                        \
  if (!var) return;                                                                                         \
  if (var->error.kind == CounterErrorKind::LibraryMissing) GTEST_SKIP() << counterErrorMessage(var->error); \
  ASSERT_TRUE(var->error.ok()) << counterErrorMessage(var->error)

RunRequest coalescing(int stride) { return test::coalescingRequest(stride); }

TEST(CountersGpu, CoalescedLoadsReadFourSectorsPerRequestStridedThirtyTwo) {
  LAUNCHLAB_COUNTERS_OR_SKIP(one,
                             countersOf(coalescing(1), "cuda-coalesced", {"sectors_per_request", "dram_bytes_read"}));
  EXPECT_NEAR(one->values.at("sectors_per_request"), 4.0, 0.2);
  EXPECT_GE(one->passes, 1);
  EXPECT_FALSE(one->kernels.empty());
  LAUNCHLAB_COUNTERS_OR_SKIP(wide, countersOf(coalescing(32), "cuda-strided", {"sectors_per_request"}));
  EXPECT_NEAR(wide->values.at("sectors_per_request"), 32.0, 1.0);
}

TEST(CountersGpu, PaddedTileHasUnderOnePercentOfTheUnpaddedBankConflicts) {
  RunRequest r;
  r.workload = "transpose";
  r.dtype = DType::F32;
  LAUNCHLAB_COUNTERS_OR_SKIP(tile, countersOf(r, "cuda-tile", {"bank_conflicts"}));
  LAUNCHLAB_COUNTERS_OR_SKIP(padded, countersOf(r, "cuda-tile-padded", {"bank_conflicts"}));
  const double unpadded = tile->values.at("bank_conflicts");
  EXPECT_GT(unpadded, 0);
  EXPECT_LT(padded->values.at("bank_conflicts"), 0.01 * unpadded) << "unpadded " << unpadded;
}

TEST(CountersGpu, VectorAddReadsEachInputOnceFromDram) {
  RunRequest r;
  r.workload = "vector_add";
  r.n = std::uint64_t(1) << 27;  // 1 GiB of inputs: far more than any L2, so what the H2D copy left there is noise
  r.dtype = DType::F32;
  LAUNCHLAB_COUNTERS_OR_SKIP(c, countersOf(r, "cuda-one-per-thread", {"dram_bytes_read", "dram_bytes_written"}));
  const double expected = 2.0 * double(*r.n) * sizeof(float);
  EXPECT_NEAR(c->values.at("dram_bytes_read"), expected, 0.05 * expected);
}

}  // namespace
