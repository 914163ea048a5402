#include <cmath>

#include "cpu_impl_checks.h"

using namespace launchlab;
using namespace launchlab::test;

TEST(Hypot, CpuParallelMatchesSerialForEveryDtypeAndOddSizes) { expectCpuImplsPassForEveryDType("hypot"); }

TEST(Hypot, IsTheHypotenuse) {
  RunResult r = runCpu("hypot", 1000, DType::F64, {}, 1000 + 1000);
  auto a = r.inputs[0].view<double>();
  auto b = r.inputs[1].view<double>();
  auto c = r.find("cpu-parallel")->outputs.at(0).view<double>();
  for (std::size_t i = 0; i < c.size(); ++i) {
    EXPECT_GE(a[i], -12.0);
    EXPECT_LT(a[i], 12.0);
    ASSERT_NEAR(c[i], std::sqrt(a[i] * a[i] + b[i] * b[i]), 1e-12);
  }
}
