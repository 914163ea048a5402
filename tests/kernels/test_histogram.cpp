#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <numeric>

#include "histogram/histogram.h"
#include "metadata_checks.h"

using namespace launchlab;
namespace hg = launchlab::kernels::histogram;

TEST(Histogram, Metadata) {
  test::expectMetadata("histogram", "TP 3.2 — Atomics and races", 3);
  const auto& info = test::workload("histogram").info();
  EXPECT_EQ(info.defaultN, 10000u);  // the seed's 10000 values, 10 bins on [-4, 4)
  EXPECT_EQ(info.outputs[0].plot, PlotKind::Histogram);
  EXPECT_EQ(info.outputs[0].xMinParam, "xmin");
  EXPECT_EQ(info.outputs[0].xMaxParam, "xmax");
  EXPECT_EQ(test::spec("histogram", "cuda-cub").kind, ImplKind::CudaLibrary);
  auto s = test::setupFor("histogram", 10, DType::F32);
  EXPECT_EQ(s.params.integer("bins"), 10);
  EXPECT_EQ(s.params.number("xmin"), -4.0);
  EXPECT_EQ(s.params.number("xmax"), 4.0);
}

TEST(Histogram, BinRuleEdges) {
  const auto r = hg::BinRule<float>::make(-4.0, 4.0, 10);
  EXPECT_EQ(r(-4.0f), 0);
  EXPECT_EQ(r(4.0f), -1);  // x == xmax is outside [xmin, xmax)
  // 4 - 2^-22 rounds to 8 when xmin = -4 is subtracted (round to even): bin 10 = bins, dropped (CUB drops it too).
  EXPECT_EQ(r(std::nextafter(4.0f, 0.0f)), -1);
  EXPECT_EQ(r(3.9999f), 9);
  EXPECT_EQ(r(std::nextafter(-4.0f, -5.0f)), -1);  // the seed's truncation would put this in bin 0
  EXPECT_EQ(r(-4.5f), -1);
  EXPECT_EQ(r(std::numeric_limits<float>::quiet_NaN()), -1);
  EXPECT_EQ(r(-3.0f), 1);
  EXPECT_EQ(r(-3.2f), 0);  // -3.2f lies just below -3.2, the edge between bins 0 and 1
  EXPECT_EQ(r(0.0f), 5);
}

TEST(Histogram, BinRuleAgreesWithExactArithmeticExceptAtEdgesAndNeverOverflows) {
  // Against exact (long double) binning, float rounding may move a value by one bin right at a bin edge, and the
  // rule never yields `bins` for x < xmax.
  for (int bins : {1, 7, 10, 256, 1000}) {
    const auto r = hg::BinRule<float>::make(-4.0, 4.0, bins);
    int moved = 0;
    for (int k = 0; k < 200000; ++k) {
      const float x = std::nextafter(-4.0f + 8.0f * float(k) / 200000.0f, 5.0f);
      const int b = r(x);
      ASSERT_GE(b, 0);
      ASSERT_LT(b, bins);
      const long double exact = std::floor((static_cast<long double>(x) + 4) * bins / 8);
      ASSERT_LE(std::fabs(static_cast<long double>(b) - exact), 1.0L) << x;
      moved += static_cast<long double>(b) != exact;
    }
    EXPECT_LT(moved, 200) << bins;
    EXPECT_LT(r(std::nextafter(4.0f, 0.0f)), bins);
  }
}

TEST(Histogram, CpuVariantsAgreeAndCountEveryValidElement) {
  for (DType t : {DType::F32, DType::F64})
    for (std::uint64_t n : {1ull, 31ull, 10000ull, 1000003ull}) {
      auto r = test::runCpu("histogram", n, t, {{"bins", "256"}});
      test::expectCpuImplsPass(r);
      const auto counts = test::output(r, "cpu-serial", "counts").view<std::uint32_t>();
      ASSERT_EQ(counts.size(), 256u);
      const auto& x = r.inputs[0];
      std::uint64_t valid = 0;
      for (std::size_t i = 0; i < x.size(); ++i) valid += (x.at(i) >= -4.0 && x.at(i) < 4.0) ? 1 : 0;
      EXPECT_EQ(std::accumulate(counts.begin(), counts.end(), std::uint64_t(0)), valid);
    }
}

TEST(Histogram, NormalDataPeaksInTheMiddleAndUniformDataIsAllCounted) {
  auto r = test::runCpu("histogram", 100000, DType::F32);
  test::expectCpuImplsPass(r);
  const auto c = test::output(r, "cpu-serial", "counts").view<std::uint32_t>();
  // normal(0, 1) on 10 bins of width 0.8: [-0.8, 0) and [0, 0.8) hold 28.81% each (standard error 0.14%).
  EXPECT_NEAR(double(c[4]), 28814.0, 800.0);
  EXPECT_NEAR(double(c[5]), 28814.0, 800.0);
  EXPECT_EQ(c[4] > c[3] && c[3] > c[2] && c[2] > c[1], true);
  r = test::runCpu("histogram", 100000, DType::F64, {{"distribution", "uniform"}, {"xmin", "-1"}, {"xmax", "3"}});
  test::expectCpuImplsPass(r);
  const auto u = test::output(r, "cpu-serial", "counts").view<std::uint32_t>();
  EXPECT_EQ(std::accumulate(u.begin(), u.end(), std::uint64_t(0)), 100000u);
  for (auto v : u) EXPECT_NEAR(double(v), 10000.0, 600.0);
}

TEST(Histogram, RejectsAnEmptyRange) {
  RunRequest req;
  req.workload = "histogram";
  req.params = {{"xmin", "2"}, {"xmax", "2"}};
  auto p = test::cpuEngine().validate(req);
  ASSERT_FALSE(p.empty());
  EXPECT_NE(p.front().message.find("xmin"), std::string::npos);
  req.params = {{"bins", "70000"}};
  EXPECT_FALSE(test::cpuEngine().validate(req).empty());
}

TEST(Histogram, SeedRuleCountsValuesJustBelowXminInBinZero) {
  // [-4, 4) in 10 bins of 0.8: -4.5 is in (xmin - 0.8, xmin), so the seed's truncation toward zero puts it in bin 0;
  // -4.9 is a full bin below and 4.0 is xmax: dropped by both rules.
  const Workload& w = test::workload("histogram");
  const RunSetup s = test::setupFor("histogram", 6, DType::F64, {{"bins", "10"}});
  std::vector<HostArray> in;
  in.emplace_back("x", DType::F64, std::vector<std::size_t>{6});
  const double x[6] = {-4.5, -4.9, -3.9, 0.1, 3.99, 4.0};
  std::copy(x, x + 6, in[0].view<double>().begin());
  auto countsOf = [&](const std::string& impl, std::map<std::string, double>* metrics) {
    auto out = w.makeOutputs(s);
    ImplContext ctx(s, in, out);
    ctx.warmup = 0;
    ctx.reps = 1;
    w.findImpl(impl)->run(ctx);
    if (metrics) *metrics = ctx.metrics;
    auto c = out[0].view<std::uint32_t>();
    return std::vector<std::uint32_t>(c.begin(), c.end());
  };
  std::map<std::string, double> metrics;
  EXPECT_EQ(countsOf("cpu-serial", nullptr), (std::vector<std::uint32_t>{1, 0, 0, 0, 0, 1, 0, 0, 0, 1}));
  EXPECT_EQ(countsOf("cpu-seed-rule", &metrics), (std::vector<std::uint32_t>{2, 0, 0, 0, 0, 1, 0, 0, 0, 1}));
  EXPECT_EQ(metrics.at("below_xmin_in_bin_0"), 1.0);
  EXPECT_TRUE(test::spec("histogram", "cpu-seed-rule").demonstration);
}
