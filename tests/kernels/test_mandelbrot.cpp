// mandelbrot on the CPU: Floyd's test on points whose fate is known by hand, a row of known membership, both
// colourings, the cap's bias, and the CPU implementations against each other on odd shapes.
#include "launchlab/course/chapters.h"
#include "mandelbrot/mandelbrot.h"
#include "metadata_checks.h"

using namespace launchlab;
using namespace launchlab::test;
using launchlab::kernels::mandelbrot::classify;

TEST(Mandelbrot, Metadata) {
  expectMetadata("mandelbrot", std::string(kChapterAtlasPython), 4);
  const auto& info = workload("mandelbrot").info();
  EXPECT_EQ(info.launchDims, 2);
  EXPECT_EQ(info.outputs.at(0).name, "iters");
  EXPECT_EQ(info.outputs.at(0).plot, PlotKind::Image);
  EXPECT_EQ(info.defaultN, 1000u);
}

TEST(Mandelbrot, FloydsTestDecidesPointsKnownByHand) {
  // c = 0: z stays 0, hare and tortoise meet after the first round.
  EXPECT_TRUE(classify<double>(0, 0, 1000).inside);
  EXPECT_EQ(classify<double>(0, 0, 1000).rounds, 1);
  // c = -1: 0, -1, 0, -1, ...: a 2-cycle, inside.
  EXPECT_TRUE(classify<double>(-1, 0, 1000).inside);
  // c = 1: 0, 1, 2, 5: |z|^2 = 25 > 4 at the hare's third step (round 2).
  const auto one = classify<double>(1, 0, 1000);
  EXPECT_FALSE(one.inside);
  EXPECT_EQ(one.escapeStep, 3);
  EXPECT_EQ(one.rounds, 2);
  // c = 2i: 0, 2i, -4 + 2i: escapes at step 2 (|2i|^2 = 4 is not > 4).
  EXPECT_EQ(classify<double>(0, 2, 1000).escapeStep, 2);
  // c = 0.26 is just outside the cusp at 0.25: it escapes, but only after many steps; a cap of 5 rounds calls it
  // inside (the cap's bias).
  EXPECT_FALSE(classify<double>(0.26, 0, 100000).inside);
  EXPECT_TRUE(classify<double>(0.26, 0, 5).inside);
  EXPECT_EQ(classify<float>(0.26f, 0, 5).rounds, 5);
}

TEST(Mandelbrot, TheRealAxisRowHasTheKnownMembership) {
  // Row y = 0 of x in [-2.5, 1) with step 0.25: the set meets the real axis in [-2, 0.25].
  const RunResult r =
      runCpu("mandelbrot", 3, DType::F64, {{"cols", "14"}, {"x_min", "-2.5"}, {"y_min", "-0.25"}, {"step", "0.25"}});
  expectCpuImplsPass(r);
  const auto v = output(r, "cpu-serial", "iters").view<std::int32_t>();
  for (int i = 0; i < 14; ++i) {
    const double x = -2.5 + 0.25 * i;
    EXPECT_EQ(v[14 + i], (x >= -2 && x <= 0.25) ? 1 : 0) << "x = " << x;
  }
}

TEST(Mandelbrot, EscapeCountColouringAndOddShapes) {
  for (auto [rows, cols] : {std::pair<int, int>{1, 1}, {31, 33}, {70, 41}}) {
    SCOPED_TRACE(std::to_string(rows) + "x" + std::to_string(cols));
    const RunResult r = runCpu("mandelbrot", rows, DType::F32,
                               {{"cols", std::to_string(cols)}, {"output", "escape-count"}, {"cap", "200"}});
    expectCpuImplsPass(r);
    const auto it = output(r, "cpu-serial", "iters").view<std::int32_t>();
    const auto rounds = output(r, "cpu-serial", "rounds").view<std::int32_t>();
    for (std::size_t k = 0; k < it.size(); ++k) {
      ASSERT_GE(rounds[k], 1);
      ASSERT_LE(rounds[k], 200);
      if (it[k] > 0) {  // the escape step is one of the last round's two hare steps
        ASSERT_TRUE(it[k] == 2 * rounds[k] || it[k] == 2 * rounds[k] - 1) << k;
      }
    }
  }
}

TEST(Mandelbrot, FlopCountIs27PerRoundOfFloydsTest) {
  // Pixels c = 0 (1 round) and c = 1 (2 rounds, by hand above): 3 rounds x (3 steps of 7 + 2 escape tests of 3).
  const RunResult r =
      runCpu("mandelbrot", 1, DType::F64, {{"cols", "2"}, {"x_min", "0"}, {"y_min", "0"}, {"step", "1"}});
  expectCpuImplsPass(r);
  for (const char* impl : {"cpu-serial", "cpu-parallel"}) {
    SCOPED_TRACE(impl);
    EXPECT_EQ(r.find(impl)->flops, 81.0);
    EXPECT_GT(r.find(impl)->gflops, 0.0);
  }
}
