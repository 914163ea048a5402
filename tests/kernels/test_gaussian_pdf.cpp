#include <cmath>
#include <numbers>

#include "cpu_impl_checks.h"
#include "gaussian_pdf/gaussian_pdf.h"

using namespace launchlab;
using namespace launchlab::test;

TEST(GaussianPdf, CpuParallelMatchesSerialForEveryDtypeAndOddSizes) { expectCpuImplsPassForEveryDType("gaussian_pdf"); }

TEST(GaussianPdf, MatchesTheClosedForm) {
  using kernels::gaussian_pdf::pdf;
  EXPECT_NEAR(pdf(0.0, 0.0, 1.0), 1.0 / std::sqrt(2 * std::numbers::pi), 1e-15);
  EXPECT_NEAR(pdf(1.0, 0.0, 1.0), std::exp(-0.5) / std::sqrt(2 * std::numbers::pi), 1e-15);
  EXPECT_NEAR(pdf(3.0, 1.0, 2.0), std::exp(-0.5) / (2 * std::sqrt(2 * std::numbers::pi)), 1e-15);
  RunResult r = runCpu("gaussian_pdf", 10000, DType::F32, {{"mean", "0.5"}, {"sigma", "2"}}, 1000 + 10000);
  auto x = r.inputs[0].view<float>();
  auto y = r.find("cpu-serial")->outputs.at(0).view<float>();
  for (std::size_t i = 0; i < x.size(); ++i) {
    EXPECT_GE(x[i], -3.0f);
    EXPECT_LT(x[i], 3.0f);
    const double expect = std::exp(-0.5 * std::pow((x[i] - 0.5) / 2.0, 2)) / (2.0 * std::sqrt(2 * std::numbers::pi));
    ASSERT_NEAR(y[i], expect, 1e-6 * expect);
  }
}
