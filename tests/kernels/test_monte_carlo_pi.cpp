#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

#include "monte_carlo_pi/monte_carlo_pi.h"
#include "metadata_checks.h"

using namespace launchlab;
namespace mc = launchlab::kernels::monte_carlo_pi;

TEST(MonteCarloPi, Metadata) {
  test::expectMetadata("monte_carlo_pi", "Session 3 — Random number generation", 2);
  const auto& info = test::workload("monte_carlo_pi").info();
  EXPECT_EQ(info.defaultN, 24u * 64 * 10000);  // the seed's 24 x 64 threads x 10000 iterations
  EXPECT_EQ(info.outputs[0].plot, PlotKind::Scalar);
  ASSERT_TRUE(info.outputs[0].referenceValue.has_value());
  EXPECT_EQ(*info.outputs[0].referenceValue, std::numbers::pi);
  EXPECT_EQ(info.outputs[1].plot, PlotKind::Series);
  EXPECT_TRUE(test::spec("monte_carlo_pi", "cuda-shared-seed").demonstration);
}

TEST(MonteCarloPi, UnitFloatIsTheMidpointLattice) {
  EXPECT_EQ(mc::unitFloat(0), 0x1p-24f);
  EXPECT_EQ(mc::unitFloat(0xFFFFFFFFu), 1.0f - 0x1p-24f);
  EXPECT_EQ(mc::unitFloat(0x80000000u), 0.5f + 0x1p-24f);
  for (std::uint32_t k : {1u, 12345u, (1u << 23) - 1}) EXPECT_EQ(mc::unitFloat(k << 9), (float(k) + 0.5f) * 0x1p-23f);
}

TEST(MonteCarloPi, SegmentsDoubleInLength) {
  EXPECT_EQ(mc::segmentOf(0), 0u);
  EXPECT_EQ(mc::segmentOf(1), 1u);
  EXPECT_EQ(mc::segmentOf(2), 2u);
  EXPECT_EQ(mc::segmentOf(3), 2u);
  EXPECT_EQ(mc::segmentOf(4), 3u);
  EXPECT_EQ(mc::segmentOf(7), 3u);
  EXPECT_EQ(mc::segmentCount(1), 1u);
  EXPECT_EQ(mc::segmentCount(2), 2u);
  EXPECT_EQ(mc::segmentCount(4), 3u);
  EXPECT_EQ(mc::segmentCount(5), 4u);
  // 3 chunks of 10 samples, the last one partial (n = 25): the series covers 10, 20, 25 samples.
  const unsigned long long hits[] = {8, 7, 4};
  double pi = 0, series[6] = {};
  mc::writeOutputs([&](unsigned j) { return hits[j]; }, 3, 25, 10, 4.0, &pi, series);
  EXPECT_EQ(series[0], 10.0);
  EXPECT_EQ(series[1], 20.0);
  EXPECT_EQ(series[2], 25.0);
  EXPECT_DOUBLE_EQ(series[3], 4.0 * 8 / 10);
  EXPECT_DOUBLE_EQ(series[4], 4.0 * 15 / 20);
  EXPECT_DOUBLE_EQ(series[5], 4.0 * 19 / 25);
  EXPECT_DOUBLE_EQ(pi, 4.0 * 19 / 25);
}

TEST(MonteCarloPi, ShapesHaveTheAreasTheirFactorsAssume) {
  // Midpoint integration of each shape's indicator on a fine grid: fraction = p within the boundary's share.
  const int g = 2048;
  auto fraction = [&](auto insideFn) {
    std::uint64_t in = 0;
    for (int i = 0; i < g; ++i)
      for (int j = 0; j < g; ++j) in += insideFn((float(i) + 0.5f) / g, (float(j) + 0.5f) / g) ? 1 : 0;
    return double(in) / (double(g) * g);
  };
  using S = mc::Shape;
  for (auto [shape, f] : {std::pair{S::Circle, fraction(mc::inside<S::Circle>)},
                          std::pair{S::Ring, fraction(mc::inside<S::Ring>)},
                          std::pair{S::Curve, fraction(mc::inside<S::Curve>)}}) {
    const auto info = mc::shapeInfo(shape);
    EXPECT_NEAR(f, info.fraction, 2e-4);
    EXPECT_NEAR(info.piFactor * info.fraction, std::numbers::pi, 1e-12);
  }
}

TEST(MonteCarloPi, CpuEstimatesConvergeAndAgree) {
  for (const char* shape : {"circle", "ring", "under-curve"}) {
    auto r = test::runCpu("monte_carlo_pi", 2000000, DType::F32, {{"iters", "1000"}, {"shape", shape}});
    test::expectCpuImplsPass(r);
    const auto& a = test::output(r, "cpu-serial", "pi");
    const auto& b = test::output(r, "cpu-parallel", "pi");
    EXPECT_EQ(a.view<double>()[0], b.view<double>()[0]) << shape;  // same streams per chunk
    const auto info = mc::shapeInfo(mc::parseShape(shape));
    EXPECT_LT(std::fabs(a.view<double>()[0] - std::numbers::pi), 6 * mc::standardError(info, 2e6)) << shape;
    const auto& series = test::output(r, "cpu-serial", "convergence");
    ASSERT_EQ(series.shape(), (std::vector<std::size_t>{2, 12}));  // 2000 chunks: 1, 2, 4, ..., 1024, 2000
    EXPECT_EQ(series.view<double>()[11], 2e6);
    EXPECT_EQ(series.view<double>()[23], a.view<double>()[0]);
  }
}

TEST(MonteCarloPi, VerificationIsStatistical) {
  const auto& w = test::workload("monte_carlo_pi");
  auto s = test::setupFor("monte_carlo_pi", 1u << 24, DType::F32, {{"iters", "4096"}});
  auto ref = w.makeOutputs(s);  // 4096 chunks: 13 series points
  ASSERT_EQ(ref[1].shape(), (std::vector<std::size_t>{2, 13}));
  auto r = ref[1].view<double>();
  for (std::size_t j = 0; j < 13; ++j) {
    r[j] = double(4096ull << j);
    r[13 + j] = std::numbers::pi;
  }
  ref[0].view<double>()[0] = std::numbers::pi;
  const auto& impl = test::spec("monte_carlo_pi", "cuda-philox");
  auto got = ref;
  got[0].view<double>()[0] = std::numbers::pi + 0.001;  // ~2.4 standard errors at 2^24 samples: fine
  EXPECT_EQ(w.verify(s, ref, got, impl).outcome, Verification::Outcome::Pass);
  got[0].view<double>()[0] = std::numbers::pi + 0.01;  // ~24 standard errors: a bug
  EXPECT_EQ(w.verify(s, ref, got, impl).outcome, Verification::Outcome::Fail);
  got = ref;
  got[1].view<double>()[3] = 1.0;  // wrong sample count in the series
  EXPECT_EQ(w.verify(s, ref, got, impl).outcome, Verification::Outcome::Fail);
}
