// histogram_contention: z_mass's masses as input, hand-checked bins (bin = 10 m at 1200 bins), the private
// histograms' memory, and every bin count of the sweep.
#include <gtest/gtest.h>

#include <filesystem>
#include <numeric>

#include "cpu_impl_checks.h"
#include "histogram_contention/histogram_contention.h"
#include "launchlab/course/chapters.h"
#include "launchlab/files/npy.h"
#include "metadata_checks.h"

using namespace launchlab;
namespace hc = launchlab::kernels::histogram_contention;

TEST(HistogramContention, Metadata) {
  test::expectMetadata("histogram_contention", std::string(kChapterAtlasPython), 4);
  const auto& info = test::workload("histogram_contention").info();
  EXPECT_TRUE(info.outputs[0].logY);
  const auto s = test::setupFor("histogram_contention", 10, DType::F32);
  EXPECT_EQ(s.params.integer("bins"), 1200);  // the seed's bin = 10 m
  EXPECT_NE(test::firstProblem("histogram_contention", 10, DType::F32, {{"bins", "1201"}}), "");
  EXPECT_EQ(test::firstProblem("histogram_contention", 10, DType::F32, {{"bins", "1"}}), "");
}

TEST(HistogramContention, TheSeedsPrivateHistogramsTake4Point8GB) {
  EXPECT_EQ(hc::privateBytes(10000000, 120), 4.8e9);  // 10M threads x 120 bins x 4 B
  EXPECT_EQ(hc::privateBytes(1024, 1200), 4915200.0);
}

TEST(HistogramContention, InputIsZMassesMasses) {
  const RunSetup s = test::setupFor("histogram_contention", 3000, DType::F32, {}, 5);
  const auto in = test::workload("histogram_contention").makeInputs(s);
  ASSERT_EQ(in.size(), 1u);
  const RunResult z = test::runCpu("z_mass", 3000, DType::F32, {}, 5);
  ASSERT_EQ(z.status, Status::Ok) << z.reason;
  EXPECT_TRUE(test::sameContents(in[0], test::output(z, "cpu-serial", "mass")));
}

TEST(HistogramContention, HandCheckedBinsFromAFile) {
  const auto dir = std::filesystem::temp_directory_path() / "llhc_hand";
  std::filesystem::create_directories(dir);
  HostArray mass("mass", DType::F32, {6});
  const float v[6] = {-1.0f, 0.05f, 91.19f, 119.99f, 120.0f, 3.0969f};
  std::copy(v, v + 6, mass.view<float>().begin());
  const std::string path = (dir / "mass.npy").string();
  npy::save(path, mass);
  for (const auto& [bins, expected] : std::vector<std::pair<int, std::map<int, unsigned>>>{
           {1200, {{0, 1}, {911, 1}, {1199, 1}, {30, 1}}}, {120, {{0, 1}, {91, 1}, {119, 1}, {3, 1}}}, {1, {{0, 4}}}}) {
    SCOPED_TRACE(bins);
    RunRequest req;
    req.workload = "histogram_contention";
    req.inputFiles["mass"] = path;
    req.params["bins"] = std::to_string(bins);
    req.reps = 1;
    req.warmup = 0;
    req.keepOutputs = true;
    req.impls = {"cpu-serial", "cpu-parallel"};
    const RunResult r = test::cpuEngine().run(req);
    test::expectCpuImplsPass(r);
    const auto c = test::output(r, "cpu-serial", "counts").view<std::uint32_t>();
    ASSERT_EQ(c.size(), std::size_t(bins));
    for (int b = 0; b < bins; ++b) EXPECT_EQ(c[std::size_t(b)], expected.count(b) ? expected.at(b) : 0u) << b;
  }
  std::filesystem::remove_all(dir);
}

TEST(HistogramContention, EveryBinCountOfTheSweepCountsTheSameMasses) {
  unsigned total = 0;
  for (int bins : {1200, 600, 300, 150, 75, 60, 30, 15, 10, 5, 4, 3, 2, 1}) {
    SCOPED_TRACE(bins);
    const RunResult r = test::runCpu("histogram_contention", 20000, DType::F32, {{"bins", std::to_string(bins)}}, 9);
    test::expectCpuImplsPass(r);
    const auto c = test::output(r, "cpu-serial", "counts").view<std::uint32_t>();
    const unsigned sum = std::accumulate(c.begin(), c.end(), 0u);
    if (total == 0) total = sum;
    EXPECT_EQ(sum, total);  // the masses in [0, 120) GeV, whatever the bins
  }
  EXPECT_GT(total, 20000u * 3 / 4);  // most events have an opposite-charge pair
}
