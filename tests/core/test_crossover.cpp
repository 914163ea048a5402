// Where the GPU starts to win, from sweep points over N (core/include/launchlab/explorer/crossover.h), on hand-made
// points.
#include <gtest/gtest.h>

#include "launchlab/explorer/crossover.h"

using namespace launchlab;

namespace {

SweepPoint point(const std::string& n, const std::string& impl, bool gpu, double kernelMs, double totalMs) {
  SweepPoint p;
  p.values = {n};
  p.implId = impl;
  p.gpu = gpu;
  p.kernelMs = kernelMs;
  p.totalMs = totalMs;
  return p;
}

}  // namespace

TEST(Crossover, TheBestCpuAgainstTheKernelAloneAndWithCopies) {
  // N:            2^10   2^14   2^18   2^22
  // cpu-serial    0.001  0.016  0.25   4.0
  // cpu-parallel  0.02   0.02   0.03   0.5     (slower than serial at 2^10 and 2^14: thread start-up)
  // GPU kernel    0.004  0.004  0.006  0.05    -> wins from 2^14 (0.004 < 0.016)
  // GPU total     0.03   0.05   0.4    0.45    -> wins only at 2^22 (0.45 < 0.5); 2^18: 0.4 > 0.03
  std::vector<SweepPoint> pts;
  const std::vector<std::string> ns = {"2^10", "16384", "2^18", "4Mi"};
  const double serial[] = {0.001, 0.016, 0.25, 4.0}, parallel[] = {0.02, 0.02, 0.03, 0.5};
  const double kernel[] = {0.004, 0.004, 0.006, 0.05}, total[] = {0.03, 0.05, 0.4, 0.45};
  for (std::size_t i = 0; i < ns.size(); ++i) {
    pts.push_back(point(ns[i], "cpu-serial", false, serial[i], serial[i]));
    pts.push_back(point(ns[i], "cpu-parallel", false, parallel[i], parallel[i]));
    pts.push_back(point(ns[i], "cuda-x", true, kernel[i], total[i]));
  }
  const auto cs = crossovers({"n"}, pts);
  ASSERT_EQ(cs.size(), 1u);
  const Crossover& c = cs[0];
  EXPECT_EQ(c.gpuImpl, "cuda-x");
  EXPECT_EQ(c.group, "");
  ASSERT_EQ(c.rows.size(), 4u);
  EXPECT_EQ(c.rows[0], (CrossoverRow{1024, "cpu-serial", 0.001, 0.004, 0.03}));
  EXPECT_EQ(c.rows[2], (CrossoverRow{262144, "cpu-parallel", 0.03, 0.006, 0.4}));
  EXPECT_EQ(c.kernelOnlyFrom, 16384u);
  EXPECT_EQ(c.withCopiesFrom, 4194304u);
  EXPECT_EQ(crossoverLine(c),
            "cuda-x: the kernel alone beats the best CPU from N = 16384 (16Ki (2^14)); with its copies from N = "
            "4194304 (4Mi (2^22))");
}

TEST(Crossover, AWinThatDoesNotLastIsNoCrossoverAndOtherAxesGroup) {
  // The GPU wins at 2^12 but loses again at 2^16 and 2^20: "from" needs every larger N.
  std::vector<SweepPoint> pts;
  for (const auto& [n, cpu, gpu] :
       {std::tuple{"4096", 1.0, 0.5}, std::tuple{"65536", 1.0, 2.0}, std::tuple{"1048576", 1.0, 3.0}})
    for (const char* dtype : {"f32", "f64"}) {
      SweepPoint c = point(n, "cpu-serial", false, cpu, cpu), g = point(n, "cuda-x", true, gpu, gpu * 2);
      c.values = g.values = {dtype, n};
      if (std::string(dtype) == "f64") g.kernelMs = g.totalMs = 0.1;  // f64: the GPU always wins
      pts.push_back(c);
      pts.push_back(g);
    }
  const auto cs = crossovers({"dtype", "n"}, pts);
  ASSERT_EQ(cs.size(), 2u);
  EXPECT_EQ(cs[0].group, "dtype=f32");
  EXPECT_FALSE(cs[0].kernelOnlyFrom.has_value());
  EXPECT_FALSE(cs[0].withCopiesFrom.has_value());
  EXPECT_EQ(crossoverLine(cs[0]),
            "cuda-x [dtype=f32]: the kernel alone beats the best CPU never, up to N = 1048576 "
            "(1Mi (2^20)); with its copies never, up to N = 1048576 (1Mi (2^20))");
  EXPECT_EQ(cs[1].group, "dtype=f64");
  EXPECT_EQ(cs[1].kernelOnlyFrom, 4096u);
  EXPECT_EQ(cs[1].withCopiesFrom, 4096u);
}

TEST(Crossover, NoNAxisOrNoMeasuredSideGivesNothing) {
  std::vector<SweepPoint> pts = {point("32", "cpu-serial", false, 1, 1), point("32", "cuda-x", true, 1, 1)};
  EXPECT_TRUE(crossovers({"block"}, pts).empty());
  pts[0].status = Status::Skipped;  // no CPU point measured
  EXPECT_TRUE(crossovers({"n"}, pts).empty());
}
