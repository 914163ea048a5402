// groupby_sum on the CPU: a hand-checked group-by with single-row keys and skipped (empty) keys, Awkward's per-list
// sum of the seed's [[1.1, 2.2, 3.3], [], [4.4, 5.5]], unsorted keys refused, the generator's statistics, and the
// CPU implementations against each other on odd sizes.
#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <numeric>

#include "groupby_sum/groupby_sum.h"
#include "launchlab/course/chapters.h"
#include "launchlab/files/npy.h"
#include "metadata_checks.h"

using namespace launchlab;
using namespace launchlab::test;
namespace gb = launchlab::kernels::groupby_sum;

namespace {

/// Runs the CPU implementations on hand-written columns (jetid and px, py, pz, E as f64).
RunResult runOn(const std::vector<std::int64_t>& jet, const std::vector<std::vector<double>>& cols) {
  RunRequest req;
  req.workload = "groupby_sum";
  req.n = jet.size();
  req.dtype = DType::F64;
  req.reps = 1;
  req.warmup = 0;
  req.keepOutputs = true;
  req.impls = {"cpu-serial", "cpu-parallel"};
  const auto dir = std::filesystem::temp_directory_path() / ("gb_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  HostArray j("jetid", DType::I64, {jet.size()});
  std::copy(jet.begin(), jet.end(), j.view<std::int64_t>().begin());
  npy::save((dir / "jetid.npy").string(), j);
  req.inputFiles["jetid"] = (dir / "jetid.npy").string();
  const char* names[] = {"px", "py", "pz", "E"};
  for (std::size_t c = 0; c < 4; ++c) {
    HostArray a(names[c], DType::F64, {jet.size()});
    std::copy(cols[c].begin(), cols[c].end(), a.view<double>().begin());
    npy::save((dir / (std::string(names[c]) + ".npy")).string(), a);
    req.inputFiles[names[c]] = (dir / (std::string(names[c]) + ".npy")).string();
  }
  return cpuEngine().run(req);
}

}  // namespace

TEST(GroupbySum, Metadata) {
  expectMetadata("groupby_sum", std::string(kChapterAtlasPython), 5);
  const auto& info = workload("groupby_sum").info();
  EXPECT_EQ(info.defaultN, 1000000u);  // the seed's DataFrame
  EXPECT_EQ(info.inputs.at(0).name, "jetid");
  EXPECT_EQ(info.outputs.at(0).name, "keys");
  EXPECT_EQ(info.outputs.at(1).name, "sums");
  EXPECT_EQ(workload("groupby_sum").findImpl("cuda-cub")->kind, ImplKind::CudaLibrary);
}

TEST(GroupbySum, HandCheckedGroupsWithSingleRowAndSkippedKeys) {
  // jetid 0, 0, 0, 1, 4, 4, 5: keys 2 and 3 have no row (Poisson gave 3 there) and do not appear, as in cuDF; keys
  // 1 and 5 have a single row.
  const std::vector<std::int64_t> jet = {0, 0, 0, 1, 4, 4, 5};
  const std::vector<double> px = {1, 2, 3, 10, 100, 200, -7};
  const std::vector<double> e = {0.5, 0.25, 0.125, 4, 8, 16, 32};
  const RunResult r = runOn(jet, {px, px, {0, 0, 0, 0, 0, 0, 0}, e});
  expectCpuImplsPass(r);
  const auto keys = output(r, "cpu-serial", "keys").view<std::int64_t>();
  EXPECT_EQ(std::vector<std::int64_t>(keys.begin(), keys.end()), (std::vector<std::int64_t>{0, 1, 4, 5}));
  const auto sums = output(r, "cpu-serial", "sums");
  ASSERT_EQ(sums.shape(), (std::vector<std::size_t>{4, 4}));
  const double want[4][4] = {{6, 6, 0, 0.875}, {10, 10, 0, 4}, {300, 300, 0, 24}, {-7, -7, 0, 32}};
  for (std::size_t g = 0; g < 4; ++g)
    for (std::size_t c = 0; c < 4; ++c) EXPECT_EQ(sums.at(g * 4 + c), want[g][c]) << g << "," << c;
  EXPECT_EQ(output(r, "cpu-parallel", "sums").at(2 * 4), 300);
}

TEST(GroupbySum, UnsortedKeysAreRefusedWithTheRow) {
  const RunResult r = runOn({0, 1, 1, 0}, {{1, 2, 3, 4}, {1, 2, 3, 4}, {1, 2, 3, 4}, {1, 2, 3, 4}});
  const ImplResult* ref = r.find("cpu-serial");
  ASSERT_NE(ref, nullptr);
  EXPECT_EQ(ref->status, Status::Failed);
  EXPECT_NE(ref->reason.find("jetid must be sorted"), std::string::npos) << ref->reason;
  EXPECT_NE(ref->reason.find("row 3"), std::string::npos) << ref->reason;
  EXPECT_THROW(gb::requireSorted(std::vector<std::int64_t>{5, 4}), std::invalid_argument);
  EXPECT_NO_THROW(gb::requireSorted(std::vector<std::int64_t>{-3, -3, 7}));
}

TEST(GroupbySum, AwkwardPerListSumOfTheSeed) {
  // ak.Array([[1.1, 2.2, 3.3], [], [4.4, 5.5]]): offsets 0, 3, 3, 5; sum_in_cuda gives [6.6, 0, 9.9].
  const std::vector<std::uint64_t> offsets = {0, 3, 3, 5};
  const double content[] = {1.1, 2.2, 3.3, 4.4, 5.5};
  double out[3] = {-1, -1, -1};
  gb::sumLists<false, double>(offsets, content, out, 1);
  EXPECT_DOUBLE_EQ(out[0], 6.6);
  EXPECT_EQ(out[1], 0.0);  // the empty list
  EXPECT_DOUBLE_EQ(out[2], 9.9);
  double par[3] = {-1, -1, -1};
  gb::sumLists<true, double>(offsets, content, par, 1);
  EXPECT_EQ(std::vector<double>(par, par + 3), std::vector<double>(out, out + 3));
}

TEST(GroupbySum, StartsAndDenseSpan) {
  const std::vector<std::int64_t> keys = {3, 3, 4, 7, 7, 7, 8};
  EXPECT_EQ(gb::countGroups(keys), 4u);
  std::vector<std::uint64_t> s(5), p(5);
  gb::findStarts<false>(keys, s);
  gb::findStarts<true>(keys, p);
  EXPECT_EQ(s, (std::vector<std::uint64_t>{0, 2, 3, 6, 7}));
  EXPECT_EQ(p, s);
  EXPECT_EQ(gb::denseSpan(keys), 6u);  // 8 - 3 + 1
  EXPECT_THROW(gb::denseSpan(std::vector<std::int64_t>{0, 1000000000}), std::invalid_argument);
}

TEST(GroupbySum, PoissonInversion) {
  // P(0) = e^-0.1 = 0.904837: u below it gives 0; P(<= 1) = 0.995321.
  EXPECT_EQ(gb::poissonDraw(0.0, 0.1), 0);
  EXPECT_EQ(gb::poissonDraw(0.9048, 0.1), 0);
  EXPECT_EQ(gb::poissonDraw(0.9049, 0.1), 1);
  EXPECT_EQ(gb::poissonDraw(0.9953, 0.1), 1);
  EXPECT_EQ(gb::poissonDraw(0.9954, 0.1), 2);
}

TEST(GroupbySum, GeneratorHasTheSeedsStatistics) {
  const std::uint64_t n = 1000000;
  const RunSetup s = setupFor("groupby_sum", n, DType::F64);
  const auto in = workload("groupby_sum").makeInputs(s);
  const auto jet = in[0].view<std::int64_t>();
  // jetid[n-1] - jetid[0] + P(first) = sum of n Poisson(0.1): mean 1e5, sigma sqrt(1e5) = 316.
  std::uint64_t zeros = 0;
  for (std::size_t i = 1; i < n; ++i) {
    ASSERT_GE(jet[i], jet[i - 1]);
    zeros += jet[i] == jet[i - 1] ? 1 : 0;
  }
  EXPECT_NEAR(double(jet[n - 1]), 0.1 * n, 5 * std::sqrt(0.1 * n));
  // The fraction of rows that continue a group: e^-0.1 (sigma of the count sqrt(n p (1 - p)) = 293).
  EXPECT_NEAR(double(zeros), std::exp(-0.1) * double(n), 5 * std::sqrt(n * 0.905 * 0.095));
  const double mean[4] = {0, 0, 0, 20};
  for (std::size_t c = 0; c < 4; ++c) {
    const auto x = in[1 + c].view<double>();
    const double m = std::accumulate(x.begin(), x.end(), 0.0) / double(n);
    double v = 0;
    for (double a : x) v += (a - m) * (a - m);
    EXPECT_NEAR(m, mean[c], 5 * 10 / std::sqrt(double(n))) << c;  // 5 standard errors of the mean
    EXPECT_NEAR(std::sqrt(v / double(n)), 10, 0.05) << c;
  }
  // A pure function of the seed (jetid is int64, so expectDeterministicInputs, which wants the run's dtype, does
  // not apply).
  RunSetup other = s;
  other.seed = s.seed + 1;
  const auto again = workload("groupby_sum").makeInputs(s), changed = workload("groupby_sum").makeInputs(other);
  for (std::size_t k = 0; k < in.size(); ++k) {
    EXPECT_TRUE(sameContents(in[k], again[k])) << k;
    EXPECT_FALSE(sameContents(in[k], changed[k])) << k;
  }
}

TEST(GroupbySum, CpuImplementationsAgreeOnOddSizes) {
  for (DType t : {DType::F32, DType::F64})
    for (std::uint64_t n : {1ull, 31ull, 1000003ull}) {
      SCOPED_TRACE(std::string(dtypeName(t)) + " n=" + std::to_string(n));
      const RunResult r = runCpu("groupby_sum", n, t, {}, 2000 + n);
      expectCpuImplsPass(r);
      const auto& keys = output(r, "cpu-serial", "keys");
      EXPECT_EQ(keys.size(), kernels::groupby_sum::countGroups(r.inputs.at(0).view<std::int64_t>()));
      EXPECT_EQ(output(r, "cpu-parallel", "sums").shape(), (std::vector<std::size_t>{keys.size(), 4}));
    }
}
