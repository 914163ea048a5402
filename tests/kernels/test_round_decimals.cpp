#include <cmath>

#include "cpu_impl_checks.h"
#include "round_decimals/round_decimals.h"

using namespace launchlab;
using namespace launchlab::test;
using kernels::round_decimals::rint;
using kernels::round_decimals::roundTo;
using kernels::round_decimals::scaleFor;

TEST(RoundDecimals, RintRoundsHalfToEven) {
  EXPECT_EQ(rint(0.5), 0.0);
  EXPECT_EQ(rint(1.5), 2.0);
  EXPECT_EQ(rint(2.5), 2.0);
  EXPECT_EQ(rint(3.5), 4.0);
  EXPECT_EQ(rint(-0.5), 0.0);
  EXPECT_EQ(rint(-1.5), -2.0);
  EXPECT_EQ(rint(2.4), 2.0);
  EXPECT_EQ(rint(2.6), 3.0);
  EXPECT_EQ(rint(7.0f), 7.0f);
  EXPECT_EQ(rint(2.5f), 2.0f);
  // Same answers as the C library's rint (round-to-nearest-even mode) on a sweep of halves and others.
  for (int k = -200; k <= 200; ++k) {
    const double x = k * 0.25;
    EXPECT_EQ(rint(x), std::rint(x)) << x;
  }
}

TEST(RoundDecimals, RoundsToDecimals) {
  EXPECT_EQ(scaleFor<double>(0), 1.0);
  EXPECT_EQ(scaleFor<double>(3), 1000.0);
  EXPECT_EQ(scaleFor<float>(2), 100.0f);
  EXPECT_DOUBLE_EQ(roundTo(0.123456, 1000.0), 0.123);
  EXPECT_DOUBLE_EQ(roundTo(0.98765, 100.0), 0.99);
  EXPECT_DOUBLE_EQ(roundTo(0.6, 1.0), 1.0);
  EXPECT_FLOAT_EQ(roundTo(0.3333f, 10.0f), 0.3f);
}

TEST(RoundDecimals, CpuParallelMatchesSerialExactly) {
  for (DType t : {DType::F64, DType::F32}) {
    RunResult r = runCpu("round_decimals", 77777, t, {{"decimals", "2"}});
    expectCpuImplsPass(r);
    EXPECT_EQ(r.find("cpu-parallel")->verification.maxAbsError, 0.0);
    // Every result is a multiple of 0.01 (to rounding) within 0.005 of its input.
    const auto& x = r.inputs[0];
    const auto& y = r.find("cpu-serial")->outputs[0];
    for (std::size_t i = 0; i < x.size(); ++i) {
      EXPECT_LE(std::fabs(x.at(i) - y.at(i)), 0.005 + 1e-6);
      EXPECT_NEAR(y.at(i) * 100, std::round(y.at(i) * 100), 1e-3);
    }
  }
}

TEST(RoundDecimals, SeedDefaultsAndValidation) {
  const auto& info = workload("round_decimals").info();
  EXPECT_EQ(info.defaultN, 10u);
  EXPECT_EQ(info.defaultDType, DType::F64);
  EXPECT_FALSE(workload("round_decimals").findImpl("cuda-forall")->usesLaunchConfig);
  EXPECT_TRUE(workload("round_decimals").findImpl("cuda-manual")->usesLaunchConfig);
  expectDeterministicInputs("round_decimals", setupFor("round_decimals", 1000, DType::F64));
  EXPECT_EQ(firstProblem("round_decimals", 10, DType::F64, {{"decimals", "3"}}), "");
  EXPECT_NE(firstProblem("round_decimals", 10, DType::F64, {{"decimals", "16"}}).find("decimals"), std::string::npos);
  EXPECT_NE(firstProblem("round_decimals", 10, DType::F64, {{"decimals", "-1"}}), "");
}
