#include <gtest/gtest.h>

#include "atomic_counter/atomic_counter.h"
#include "metadata_checks.h"

using namespace launchlab;

TEST(AtomicCounter, Metadata) {
  test::expectMetadata("atomic_counter", "TP 3.2 — Atomics and races", 3);
  EXPECT_EQ(test::workload("atomic_counter").info().defaultN, 4096u);  // the seed's 64 x 64 threads
  EXPECT_TRUE(test::spec("atomic_counter", "cuda-race").demonstration);
  EXPECT_FALSE(test::spec("atomic_counter", "cuda-atomic").demonstration);
  EXPECT_FALSE(test::spec("atomic_counter", "cuda-warp-aggregated").demonstration);
}

TEST(AtomicCounter, CpuCountsEveryIncrement) {
  for (std::uint64_t n : {1ull, 4096ull, 1000003ull}) {
    auto r = test::runCpu("atomic_counter", n, DType::I32);
    test::expectCpuImplsPass(r);
    for (const char* impl : {"cpu-serial", "cpu-parallel"}) {
      EXPECT_EQ(test::output(r, impl, "counter").view<std::int32_t>()[0], std::int32_t(n)) << impl;
      const auto& m = r.find(impl)->metrics;
      EXPECT_EQ(m.at("expected"), double(n));
      EXPECT_EQ(m.at("observed"), double(n));
      EXPECT_EQ(m.at("lost_updates"), 0.0);
    }
  }
}

namespace {
/// The engine's verdict on a counter of `observed` after 4096 increments by implementation `impl`.
Verification counted(const char* impl, std::int32_t observed) {
  const auto& w = test::workload("atomic_counter");
  auto s = test::setupFor("atomic_counter", 4096, DType::I32);
  auto ref = w.makeOutputs(s);
  ref[0].view<std::int32_t>()[0] = 4096;
  auto got = ref;
  got[0].view<std::int32_t>()[0] = observed;
  const ImplSpec& spec = test::spec("atomic_counter", impl);
  Verification v = w.verify(s, ref, got, spec);
  settleDemonstration(v, spec);
  return v;
}
}  // namespace

TEST(AtomicCounter, TheRaceIsTheLessonWithItsCount) {
  EXPECT_FALSE(test::spec("atomic_counter", "cuda-race").expectedOutcome.empty());
  const auto v = counted("cuda-race", 33);  // what a race leaves
  EXPECT_EQ(v.outcome, Verification::Outcome::Demonstration);
  EXPECT_EQ(v.note,
            "expected outcome: lost 99.2 % of the increments (4063 of 4096) \u2014 the race this experiment "
            "demonstrates");
  EXPECT_TRUE(v.passed());  // the CLI's exit status and the window's colour follow passed()
}

TEST(AtomicCounter, LostUpdatesAreAFailureWhereNoRaceIsMeant) {
  EXPECT_EQ(counted("cuda-atomic", 33).outcome, Verification::Outcome::Fail);
  EXPECT_EQ(counted("cuda-warp-aggregated", 4095).outcome, Verification::Outcome::Fail);
  EXPECT_EQ(counted("cuda-atomic", 4096).outcome, Verification::Outcome::Pass);
}

TEST(AtomicCounter, ACountNoRaceCanLeaveStaysAFailure) {
  // A race only loses increments and keeps at least one: more than n, or none, is a broken run (red).
  EXPECT_EQ(counted("cuda-race", 5000).outcome, Verification::Outcome::Fail);
  EXPECT_EQ(counted("cuda-race", 0).outcome, Verification::Outcome::Fail);
  EXPECT_FALSE(counted("cuda-race", 0).passed());
  // No increment lost this time: nothing to teach, nothing wrong.
  EXPECT_TRUE(counted("cuda-race", 4096).passed());
}

TEST(AtomicCounter, TheLostShareNeverRoundsToAll) {
  namespace ac = launchlab::kernels::atomic_counter;
  EXPECT_EQ(ac::lostText(16777159, 16777216), "lost 99.9997 % of the increments (16777159 of 16777216)");
  EXPECT_EQ(ac::lostText(1, 4), "lost 25.0 % of the increments (1 of 4)");
  EXPECT_EQ(ac::lostText(1, 100000000), "lost 0.000001 % of the increments (1 of 100000000)");
}

TEST(AtomicCounter, CounterMustHoldN) {
  RunRequest req;
  req.workload = "atomic_counter";
  req.n = std::uint64_t(1) << 31;  // one more than int32 holds
  EXPECT_FALSE(test::cpuEngine().validate(req).empty());
}
