#include <gtest/gtest.h>

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

TEST(AtomicCounter, LostUpdatesFailUnlessDemonstrated) {
  const auto& w = test::workload("atomic_counter");
  auto s = test::setupFor("atomic_counter", 4096, DType::I32);
  auto ref = w.makeOutputs(s);
  ref[0].view<std::int32_t>()[0] = 4096;
  auto got = ref;
  got[0].view<std::int32_t>()[0] = 37;  // what a race leaves
  auto v = w.verify(s, ref, got, test::spec("atomic_counter", "cuda-atomic"));
  EXPECT_EQ(v.outcome, Verification::Outcome::Fail);
  v = w.verify(s, ref, got, test::spec("atomic_counter", "cuda-race"));
  EXPECT_NE(v.note.find("4059 lost"), std::string::npos) << v.note;
}

TEST(AtomicCounter, CounterMustHoldN) {
  RunRequest req;
  req.workload = "atomic_counter";
  req.n = std::uint64_t(1) << 31;  // one more than int32 holds
  EXPECT_FALSE(test::cpuEngine().validate(req).empty());
}
