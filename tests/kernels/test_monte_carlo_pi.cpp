#include <gtest/gtest.h>

#include <cmath>
#include <numbers>
#include <numeric>
#include <set>
#include <utility>
#include <vector>

#include "metadata_checks.h"
#include "monte_carlo_pi/monte_carlo_pi.h"

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
  mc::writeOutputs([&](unsigned j) { return hits[j]; }, 3, 25, 10, 4.0, false, &pi, series);
  EXPECT_EQ(series[0], 10.0);
  EXPECT_EQ(series[1], 20.0);
  EXPECT_EQ(series[2], 25.0);
  EXPECT_DOUBLE_EQ(series[3], 4.0 * 8 / 10);
  EXPECT_DOUBLE_EQ(series[4], 4.0 * 15 / 20);
  EXPECT_DOUBLE_EQ(series[5], 4.0 * 19 / 25);
  EXPECT_DOUBLE_EQ(pi, 4.0 * 19 / 25);
  // Independent: each segment on its own (chunk 0, chunk 1, then the 5 samples of the partial chunk 2).
  mc::writeOutputs([&](unsigned j) { return hits[j]; }, 3, 25, 10, 4.0, true, &pi, series);
  EXPECT_EQ(series[0], 10.0);
  EXPECT_EQ(series[1], 10.0);
  EXPECT_EQ(series[2], 5.0);
  EXPECT_DOUBLE_EQ(series[3], 4.0 * 8 / 10);
  EXPECT_DOUBLE_EQ(series[4], 4.0 * 7 / 10);
  EXPECT_DOUBLE_EQ(series[5], 4.0 * 4 / 5);
  EXPECT_DOUBLE_EQ(pi, 4.0 * 19 / 25);  // the run's estimate uses every sample either way
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
  for (auto [shape, f] :
       {std::pair{S::Circle, fraction(mc::inside<S::Circle>)}, std::pair{S::Ring, fraction(mc::inside<S::Ring>)},
        std::pair{S::Curve, fraction(mc::inside<S::Curve>)}}) {
    const auto info = mc::shapeInfo(shape);
    EXPECT_NEAR(f, info.fraction, 2e-4);
    EXPECT_NEAR(info.piFactor * info.fraction, std::numbers::pi, 1e-12);
  }
}

TEST(MonteCarloPi, CpuEstimatesConvergeAndAgree) {
  for (const char* shape : {"circle", "ring", "under-curve"}) {
    auto r = test::runCpu("monte_carlo_pi", 2000000, DType::F32,
                          {{"iters", "1000"}, {"shape", shape}, {"convergence", "cumulative"}});
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

TEST(MonteCarloPi, IndependentConvergenceIsDisjointBlocksOfTheSameRun) {
  // The default: blocks of 1, 1, 2, 4, ..., 512 and the last 976 chunks of 1000 samples, each estimated on its own.
  auto r = test::runCpu("monte_carlo_pi", 2000000, DType::F32, {{"iters", "1000"}});
  test::expectCpuImplsPass(r);
  const auto s = test::output(r, "cpu-serial", "convergence").view<double>();
  ASSERT_EQ(s.size(), 24u);
  const double blocks[12] = {1, 1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 976};
  double samples = 0, hits = 0;
  for (int j = 0; j < 12; ++j) {
    EXPECT_EQ(s[std::size_t(j)], blocks[j] * 1000) << j;
    samples += s[std::size_t(j)];
    hits += s[std::size_t(12 + j)] * s[std::size_t(j)] / 4;  // estimate = 4 hits / samples
  }
  EXPECT_EQ(samples, 2e6);  // the blocks are disjoint and cover the run
  EXPECT_NEAR(4 * hits / samples, test::output(r, "cpu-serial", "pi").view<double>()[0], 1e-12);
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
  for (double& e : ref[2].view<double>()) e = std::numbers::pi;  // every chunk's estimate
  for (auto& c : ref[4].view<std::uint32_t>()) c = 0;
  ref[4].view<std::uint32_t>()[12] = 4096;  // all of them in the bin [0, 0.5) standard errors
  auto cloud = ref[3].view<double>();       // every point (0.5, 0.5), inside
  for (std::size_t j = 0; j < cloud.size(); ++j) cloud[j] = j < 2 * cloud.size() / 3 ? 0.5 : 1.0;
  const auto& impl = test::spec("monte_carlo_pi", "cuda-philox");
  auto got = ref;
  got[0].view<double>()[0] = std::numbers::pi + 0.001;  // ~2.4 standard errors at 2^24 samples: fine
  EXPECT_EQ(w.verify(s, ref, got, impl).outcome, Verification::Outcome::Pass);
  got[0].view<double>()[0] = std::numbers::pi + 0.01;  // ~24 standard errors: a bug
  EXPECT_EQ(w.verify(s, ref, got, impl).outcome, Verification::Outcome::Fail);
  got = ref;
  got[1].view<double>()[3] = 1.0;  // wrong sample count in the series
  EXPECT_EQ(w.verify(s, ref, got, impl).outcome, Verification::Outcome::Fail);
  got = ref;
  got[2].view<double>()[5] = 2.0;  // one thread's out[tid] far off: 4096 samples give sigma 0.026
  EXPECT_EQ(w.verify(s, ref, got, impl).outcome, Verification::Outcome::Fail);
  got = ref;
  got[3].view<double>()[2 * cloud.size() / 3] = 0.0;  // (0.5, 0.5) flagged as outside the circle
  EXPECT_EQ(w.verify(s, ref, got, impl).outcome, Verification::Outcome::Fail);
  got = ref;
  got[4].view<std::uint32_t>()[13] = 1;  // a histogram that is not the estimates binned
  EXPECT_EQ(w.verify(s, ref, got, impl).outcome, Verification::Outcome::Fail);
}

TEST(MonteCarloPi, PerThreadEstimatesAreTheSeedsOutTid) {
  // The seed's compute_pi[24, 64] with 10000 iterations: 1536 threads, each out[tid] = 4 * hits / 10000.
  auto r = test::runCpu("monte_carlo_pi", 24 * 64 * 10000, DType::F32);
  ASSERT_EQ(r.status, Status::Ok) << r.reason;
  test::expectCpuImplsPass(r);
  const auto est = test::output(r, "cpu-serial", "per_thread").view<double>();
  ASSERT_EQ(est.size(), 1536u);
  double sum = 0;
  for (double e : est) {
    const double hits = e * 10000 / 4;
    ASSERT_NEAR(hits, std::round(hits), 1e-9) << "an estimate is 4 * hits / 10000";
    sum += e;
  }
  // Equal chunks: the mean of out[tid] is the estimate of pi (the seed's out.mean()).
  EXPECT_NEAR(sum / 1536, test::output(r, "cpu-serial", "pi").view<double>()[0], 1e-12);
  // The histogram of out[tid], binned here independently: z = (estimate - pi) / (4 sqrt(p (1 - p) / 10000)) with
  // p = pi / 4, 24 bins of 0.5 over [-6, 6).
  const auto hist = test::output(r, "cpu-serial", "per_thread_hist").view<std::uint32_t>();
  ASSERT_EQ(hist.size(), 24u);
  std::vector<std::uint32_t> expected(24, 0);
  const double p = std::numbers::pi / 4, se = 4 * std::sqrt(p * (1 - p) / 10000);
  for (double e : est) {
    const double z = (e - std::numbers::pi) / se;
    if (z >= -6 && z < 6) ++expected[std::size_t((z + 6) * 2)];
  }
  EXPECT_EQ(std::vector<std::uint32_t>(hist.begin(), hist.end()), expected);
  EXPECT_EQ(std::accumulate(expected.begin(), expected.end(), 0u), 1536u);  // all within 6 standard errors
  EXPECT_GT(expected[11] + expected[12], expected[0] + expected[23]);       // a bell around pi
  // Chunk 0's estimate is the first point of the convergence series (the first chunk's samples).
  const auto conv = test::output(r, "cpu-serial", "convergence").view<double>();
  EXPECT_EQ(conv[conv.size() / 2], est[0]);
}

TEST(MonteCarloPi, PointCloudIsTheFirstSamplesOfTheFirstChunks) {
  EXPECT_EQ(mc::pointLayout(24 * 64 * 10000, 10000).count, 4096u);  // 64 points of 64 chunks
  const auto small = mc::pointLayout(100, 64);                      // chunks of 64 and 36 samples
  EXPECT_EQ(small.chunks, 2u);
  EXPECT_EQ(small.count, 100u);
  auto r = test::runCpu("monte_carlo_pi", 24 * 64 * 10000, DType::F32);
  const auto& cloud = test::output(r, "cpu-serial", "points");
  ASSERT_EQ(cloud.shape(), (std::vector<std::size_t>{3, 4096}));
  const auto p = cloud.view<double>();
  std::size_t inside = 0, checked = 0;
  std::set<std::pair<double, double>> distinct;
  for (std::size_t j = 0; j < 4096; ++j) {
    const double x = p[j], y = p[4096 + j], r2 = x * x + y * y;
    ASSERT_TRUE(x >= 0 && x < 1 && y >= 0 && y < 1) << j;
    distinct.emplace(x, y);
    inside += p[2 * 4096 + j] == 1.0;
    if (std::fabs(r2 - 1) > 1e-6) {  // away from the circle, the flag is the seed's x^2 + y^2 <= 1
      ++checked;
      EXPECT_EQ(p[2 * 4096 + j], r2 <= 1 ? 1.0 : 0.0) << j;
    }
  }
  EXPECT_GT(checked, 4000u);
  EXPECT_EQ(distinct.size(), 4096u);  // independent streams: no repeated points
  EXPECT_NEAR(double(inside) / 4096, std::numbers::pi / 4, 6 * std::sqrt(0.17 / 4096));
}
