#include <cmath>
#include <numbers>

#include "cpu_impl_checks.h"
#include "polar_distance/polar_distance.h"

using namespace launchlab;
using namespace launchlab::test;

TEST(PolarDistance, CpuParallelMatchesSerial) {
  expectCpuImplsPass(runCpu("polar_distance", 100003, DType::F32));
  expectCpuImplsPass(runCpu("polar_distance", 4099, DType::F64));
}

TEST(PolarDistance, InputsDeterministicAndInRange) {
  const auto s = setupFor("polar_distance", 50000, DType::F32);
  expectDeterministicInputs("polar_distance", s);
  auto in = workload("polar_distance").makeInputs(s);
  for (std::size_t k : {0u, 2u})
    for (float r : in[k].view<float>()) ASSERT_TRUE(r >= 0.5f && r < 1.5f) << r;
  for (std::size_t k : {1u, 3u})
    for (float t : in[k].view<float>()) ASSERT_TRUE(t >= -float(std::numbers::pi) && t <= float(std::numbers::pi)) << t;
}

TEST(PolarDistance, KnownDistances) {
  using namespace launchlab::kernels::polar_distance;
  const double pi = std::numbers::pi;
  EXPECT_NEAR(distance(polarToCartesian(1.0, 0.0), polarToCartesian(1.0, pi)), 2.0, 1e-15);
  EXPECT_NEAR(distance(polarToCartesian(1.0, 0.0), polarToCartesian(1.0, pi / 2)), std::sqrt(2.0), 1e-15);
  EXPECT_NEAR(distance(polarToCartesian(2.0f, 0.3f), polarToCartesian(2.0f, 0.3f)), 0.0f, 1e-7f);
  EXPECT_NEAR(distance(polarToCartesian(1.5, -1.0), polarToCartesian(0.5, -1.0)), 1.0, 1e-15);
}

TEST(PolarDistance, ValidateNamesTheRhoRange) {
  EXPECT_EQ(firstProblem("polar_distance", 1000, DType::F32), "");
  EXPECT_NE(firstProblem("polar_distance", 1000, DType::F32, {{"rho_min", "2"}, {"rho_max", "1"}}).find("rho_min"),
            std::string::npos);
  EXPECT_NE(firstProblem("polar_distance", 1000, DType::I32), "");
}

TEST(PolarDistance, FastMathHasItsOwnTolerance) {
  const Workload& w = workload("polar_distance");
  const auto s = setupFor("polar_distance", 1000, DType::F32);
  auto ref = w.makeOutputs(s);
  for (auto& v : ref[0].view<float>()) v = 1.0f;
  auto got = ref;
  got[0].view<float>()[10] = 1.0f + 2e-5f;  // beyond the precise tolerance (8e-6 here), within the fast-math one
  EXPECT_EQ(w.verify(s, ref, got, *w.findImpl("cuda-device-function")).outcome, Verification::Outcome::Fail);
  const auto fast = w.verify(s, ref, got, *w.findImpl("cuda-fast-math"));
  EXPECT_EQ(fast.outcome, Verification::Outcome::Pass);
  EXPECT_NE(fast.note.find("fast-math"), std::string::npos);
  got[0].view<float>()[10] = 1.001f;
  EXPECT_EQ(w.verify(s, ref, got, *w.findImpl("cuda-fast-math")).outcome, Verification::Outcome::Fail);
}

TEST(PolarDistance, MetadataFollowsTheSeed) {
  const auto& i = workload("polar_distance").info();
  EXPECT_EQ(i.defaultN, 1000000u);
  EXPECT_EQ(i.defaultDType, DType::F32);
  EXPECT_EQ(i.inputs.size(), 4u);
  EXPECT_NE(workload("polar_distance").findImpl("cuda-noinline"), nullptr);
}
