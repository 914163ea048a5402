// monte_carlo_area on the CPU: the hit rules on points known by hand, the seed's mapping of uniforms to the boxes,
// the split of trials over 2^20 threads and the runs of the convergence series, estimates within 4 binomial
// standard errors of pi and of the Mandelbrot set's area, the point cloud inside its box with the rule's flags,
// and the CPU implementations against each other.
#include <cmath>
#include <numbers>

#include "launchlab/course/chapters.h"
#include "metadata_checks.h"
#include "monte_carlo_area/monte_carlo_area.h"

using namespace launchlab;
using namespace launchlab::test;
namespace mca = launchlab::kernels::monte_carlo_area;
using mca::Shape;

namespace {
template <Shape S>
bool hit(float x, float y, std::int32_t cap = 10000) {
  return mca::isHit<S, float>({x, y}, cap);
}

double estimateOf(const RunResult& r) { return output(r, "cpu-serial", "estimate").at(0); }
}  // namespace

TEST(MonteCarloArea, Metadata) {
  expectMetadata("monte_carlo_area", std::string(kChapterAtlasPython), 1);
  const auto& info = workload("monte_carlo_area").info();
  EXPECT_EQ(info.defaultN, 1u << 20);
  EXPECT_EQ(info.maxN, 10000ull << 20);  // the seed's largest run
  // The reference depends on the shape: pi (box 4) or Förstemann's 1.50659 (box 9).
  const ArraySpec est = resolvedForParams(info.outputs.at(0), {{"shape", "mandelbrot"}});
  EXPECT_EQ(est.referenceValue, 1.50659);
  EXPECT_EQ(est.samplingBox, 9);
  EXPECT_EQ(resolvedForParams(info.outputs.at(1), {{"shape", "circle"}}).referenceValue, std::numbers::pi);
  EXPECT_FALSE(resolvedForParams(info.outputs.at(1), {{"shape", "square"}}).referenceValue.has_value());
  EXPECT_EQ(info.outputs.at(2).plot, PlotKind::Points);
}

TEST(MonteCarloArea, HitRulesOnPointsKnownByHand) {
  EXPECT_TRUE(hit<Shape::Circle>(0, 0));
  EXPECT_TRUE(hit<Shape::Circle>(0.5f, -0.5f));     // 0.5 < 1
  EXPECT_FALSE(hit<Shape::Circle>(1, 0));           // x^2 + y^2 < 1 is strict, as in the seed
  EXPECT_FALSE(hit<Shape::Circle>(-0.99f, -0.2f));  // 0.9801 + 0.04 = 1.0201
  EXPECT_TRUE(hit<Shape::Mandelbrot>(0, 0));        // z stays 0
  EXPECT_TRUE(hit<Shape::Mandelbrot>(-1, 0));       // 0, -1, 0, -1: a 2-cycle
  EXPECT_TRUE(hit<Shape::Mandelbrot>(-2, 0));       // 0, -2, 2, 2: |z|^2 = 4 is not > 4
  EXPECT_TRUE(hit<Shape::Mandelbrot>(0, 1));        // 0, i, -1 + i, -i, -1 + i: pre-periodic
  EXPECT_FALSE(hit<Shape::Mandelbrot>(1, 0));       // 0, 1, 2, 5: escapes
  EXPECT_FALSE(hit<Shape::Mandelbrot>(0.5f, 0));
  EXPECT_TRUE(hit<Shape::Mandelbrot>(0.26f, 0, 5));  // escapes late: a cap of 5 rounds counts it inside
}

TEST(MonteCarloArea, UniformsMapToTheSeedsBoxes) {
  // Every point of a stream lies in its box: (-1, 1)^2 or (-2, 1) x (-1.5, 1.5), as 2u - 1 and 3u - 2, 3u - 1.5.
  const std::uint64_t key = streamKey(7, 3);
  for (std::uint64_t i = 0; i < 10000; ++i) {
    const auto c = mca::pointOf<Shape::Circle, float>(key, i);
    ASSERT_TRUE(c.x > -1 && c.x < 1 && c.y > -1 && c.y < 1) << i;
    const auto m = mca::pointOf<Shape::Mandelbrot, double>(key, i);
    ASSERT_TRUE(m.x >= -2 && m.x < 1 && m.y >= -1.5 && m.y < 1.5) << i;
  }
  // The same draw, scaled: x_circle = 2u - 1 and x_mandelbrot = 3u - 2 share u.
  const auto c = mca::pointOf<Shape::Circle, float>(key, 0);
  const auto m = mca::pointOf<Shape::Mandelbrot, float>(key, 0);
  EXPECT_NEAR((c.x + 1) / 2, (m.x + 2) / 3, 1e-6);
}

TEST(MonteCarloArea, TrialsSplitOverTheSeedsThreadsAndRuns) {
  const std::uint64_t t = mca::kThreads;
  EXPECT_EQ(mca::trialsOfThread(10 * t, 0), 10u);
  EXPECT_EQ(mca::trialsOfThread(10 * t + 3, 2), 11u);
  EXPECT_EQ(mca::trialsOfThread(10 * t + 3, 3), 10u);
  EXPECT_EQ(mca::trialsOfThread(31, 30), 1u);
  EXPECT_EQ(mca::trialsOfThread(31, 31), 0u);
  EXPECT_EQ(mca::runTrials(31, true), (std::vector<std::uint64_t>{31}));
  EXPECT_EQ(mca::runTrials(20 * t, true), (std::vector<std::uint64_t>{t, 2 * t, 5 * t, 10 * t, 20 * t}));
  EXPECT_EQ(mca::runTrials(21 * t, true), (std::vector<std::uint64_t>{t, 2 * t, 5 * t, 10 * t, 20 * t, 21 * t}));
  EXPECT_EQ(mca::runTrials(21 * t, false), (std::vector<std::uint64_t>{21 * t}));
  EXPECT_EQ(mca::pointCount(31), 31u);
  EXPECT_EQ(mca::pointCount(t), 20000u);
}

TEST(MonteCarloArea, EstimatesWithinFourStandardErrorsOfTheReference) {
  const std::uint64_t n = 1u << 20;
  struct Case {
    const char* shape;
    double reference, box;
  };
  for (const Case c : {Case{"circle", std::numbers::pi, 4}, Case{"mandelbrot", mca::kMandelbrotArea, 9}}) {
    SCOPED_TRACE(c.shape);
    const RunResult r = runCpu("monte_carlo_area", n, DType::F32, {{"shape", c.shape}, {"convergence", "none"}}, 11);
    expectCpuImplsPass(r);
    const double p = c.reference / c.box, sigma = c.box * std::sqrt(p * (1 - p) / double(n));
    EXPECT_NEAR(estimateOf(r), c.reference, 4 * sigma);  // circle: 4 sigma = 0.0064; mandelbrot: 0.013
  }
}

TEST(MonteCarloArea, SeriesRunsAreIndependentAndEndWithN) {
  const std::uint64_t t = mca::kThreads;
  const RunResult r = runCpu("monte_carlo_area", 3 * t, DType::F32, {}, 5);
  expectCpuImplsPass(r);
  const auto& series = output(r, "cpu-serial", "series");
  ASSERT_EQ(series.shape(), (std::vector<std::size_t>{2, 3}));  // 1 and 2 x 2^20, then N = 3 x 2^20
  EXPECT_EQ(series.at(0), double(t));
  EXPECT_EQ(series.at(2), double(3 * t));
  EXPECT_EQ(series.at(5), estimateOf(r));
  // Independent streams: the runs' estimates differ (equal counts of hits are possible but improbable).
  EXPECT_NE(series.at(3), series.at(4));
  for (std::size_t k = 3; k < 6; ++k) EXPECT_NEAR(series.at(k), std::numbers::pi, 0.01);
}

TEST(MonteCarloArea, PointsLieInTheBoxWithTheRulesFlags) {
  for (const char* shape : {"circle", "mandelbrot"}) {
    SCOPED_TRACE(shape);
    const RunResult r = runCpu("monte_carlo_area", 100003, DType::F32, {{"shape", shape}}, 9);
    expectCpuImplsPass(r);
    const auto& pts = output(r, "cpu-serial", "points");
    ASSERT_EQ(pts.shape(), (std::vector<std::size_t>{3, 20000}));
    const bool circle = std::string(shape) == "circle";
    std::size_t hits = 0;
    for (std::size_t j = 0; j < 20000; ++j) {
      const double x = pts.at(j), y = pts.at(20000 + j), flag = pts.at(40000 + j);
      ASSERT_TRUE(circle ? (x > -1 && x < 1 && y > -1 && y < 1) : (x >= -2 && x < 1 && y >= -1.5 && y < 1.5)) << j;
      const bool in = circle ? hit<Shape::Circle>(float(x), float(y)) : hit<Shape::Mandelbrot>(float(x), float(y));
      ASSERT_EQ(flag, in ? 1.0 : 0.0) << j;
      hits += in ? 1 : 0;
    }
    // 20000 points: the fraction of hits near pi / 4 or 1.50659 / 9 (4 sigma: 0.012, 0.011).
    EXPECT_NEAR(double(hits) / 20000, circle ? std::numbers::pi / 4 : mca::kMandelbrotArea / 9, 0.012);
  }
}

TEST(MonteCarloArea, CpuImplementationsAgreeOnOddSizesAndDTypes) {
  for (DType t : {DType::F32, DType::F64})
    for (std::uint64_t n : {1ull, 31ull, 1000003ull}) {
      SCOPED_TRACE(std::string(dtypeName(t)) + " n=" + std::to_string(n));
      expectCpuImplsPass(runCpu("monte_carlo_area", n, t, {}, 3000 + n));
    }
  expectCpuImplsPass(runCpu("monte_carlo_area", 4099, DType::F64, {{"shape", "mandelbrot"}}, 1));
}
