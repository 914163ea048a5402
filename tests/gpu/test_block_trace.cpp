// Blocks on SMs on the GPU: every instrumented implementation run with a block trace records one block per block
// of its launch (each exactly once, on an SM the device has, starting before it ends), still verifies, and runs
// untraced (no records) when the request does not ask.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <map>
#include <numeric>

#include "gpu_env.h"

using namespace launchlab;

namespace {

struct Traced {
  const char* workload;
  const char* impl;
  std::uint64_t n;
  std::map<std::string, std::string> params = {};
};

// The launch-sensitive variants that are instrumented (kernels/common/block_trace.cuh).
const Traced kTraced[] = {
    {"vector_add", "cuda-one-per-thread", 1000003},
    {"vector_add", "cuda-grid-stride", 1000003},
    {"vector_add", "cuda-vectorized", 1000003},
    {"histogram", "cuda-global-atomics", 1000003},
    {"reduce_sum", "cuda-warp-shuffle", 1000003},
    {"monte_carlo_pi", "cuda-philox", 24ull * 64 * 1000, {{"iters", "100"}}},
};

RunResult runTraced(const Traced& t, bool trace, const LaunchRequest& launch = {}) {
  RunRequest req;
  req.workload = t.workload;
  req.n = t.n;
  req.impls = {t.impl};
  req.reps = 2;
  req.warmup = 1;
  req.launch = launch;
  req.params = t.params;
  req.traceBlocks = trace;
  return test::gpuEnv().engine->run(req);
}

void expectCompleteTrace(const ImplResult& i, int sms) {
  ASSERT_EQ(i.status, Status::Ok) << i.reason;
  EXPECT_NE(i.verification.outcome, Verification::Outcome::Fail) << i.verification.mismatches << " mismatches";
  ASSERT_TRUE(i.launch.has_value());
  const std::uint64_t blocks = i.launch->grid.count();
  ASSERT_EQ(i.blockTrace.size(), blocks) << i.launchNote;
  std::vector<std::uint32_t> ids;
  std::uint64_t first = ~0ull;
  for (const auto& b : i.blockTrace) {
    EXPECT_LT(b.sm, std::uint32_t(sms)) << "block " << b.block;
    EXPECT_LE(b.startNs, b.endNs) << "block " << b.block;
    first = std::min(first, b.startNs);
    ids.push_back(b.block);
  }
  EXPECT_EQ(first, 0u);  // relative to the earliest start
  std::sort(ids.begin(), ids.end());
  std::vector<std::uint32_t> all(blocks);
  std::iota(all.begin(), all.end(), 0u);
  EXPECT_EQ(ids, all);  // every block, once
  EXPECT_NE(i.launchNote.find("blocks traced"), std::string::npos) << i.launchNote;
  const BlockTraceSummary s = summarizeBlockTrace(i, test::gpuEnv().engine->deviceStatus());
  EXPECT_GE(s.smsUsed, 1);
  EXPECT_LE(s.smsUsed, sms);
  EXPECT_GE(s.wavesObserved, 1u);
}

}  // namespace

TEST(BlockTrace, EveryInstrumentedImplementationRecordsEveryBlock) {
  const int sms = test::gpuEnv().engine->deviceStatus().info.multiprocessors;
  for (const Traced& t : kTraced) {
    SCOPED_TRACE(std::string(t.workload) + "/" + t.impl);
    const RunResult r = runTraced(t, true);
    ASSERT_EQ(r.status, Status::Ok) << r.reason;
    const ImplResult* i = r.find(t.impl);
    ASSERT_NE(i, nullptr);
    expectCompleteTrace(*i, sms);
    for (const auto& line : blockTraceSummaryLines(summarizeBlockTrace(*i, r.device)))
      std::printf("  %s\n", line.c_str());
  }
}

TEST(BlockTrace, AUserGridOfSeveralWavesIsTracedWhole) {
  const int sms = test::gpuEnv().engine->deviceStatus().info.multiprocessors;
  // Grid-stride with 5 blocks per SM and 128 threads: whatever the residency, every block appears once.
  const RunResult r = runTraced(kTraced[1], true, {Dim3{128, 1, 1}, Dim3{std::uint32_t(5 * sms), 1, 1}});
  ASSERT_EQ(r.status, Status::Ok) << r.reason;
  expectCompleteTrace(*r.find("cuda-grid-stride"), sms);
}

TEST(BlockTrace, OrdinaryRunsAreNotInstrumented) {
  for (const Traced& t : kTraced) {
    SCOPED_TRACE(std::string(t.workload) + "/" + t.impl);
    const RunResult r = runTraced(t, false);
    const ImplResult* i = r.find(t.impl);
    ASSERT_NE(i, nullptr);
    EXPECT_EQ(i->status, Status::Ok) << i->reason;
    EXPECT_TRUE(i->blockTrace.empty());
    EXPECT_EQ(i->launchNote.find("traced"), std::string::npos) << i->launchNote;
  }
  // A CPU implementation has no records even when asked.
  const RunResult cpu = runTraced({"vector_add", "cpu-parallel", 4096}, true);
  ASSERT_NE(cpu.find("cpu-parallel"), nullptr);
  EXPECT_TRUE(cpu.find("cpu-parallel")->blockTrace.empty());
}
