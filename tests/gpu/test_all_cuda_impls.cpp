// Every CUDA implementation of every registered workload against cpu-serial, on random inputs (a seed per case,
// drawn from the suite's seed, which the run prints: LAUNCHLAB_TEST_SEED replays it) and odd sizes, including
// tails that are not multiples of any block or vector width.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <optional>

#include "gpu_env.h"
#include "launchlab/files/command_line.h"

using namespace launchlab;

namespace {

test::GpuEnv& env() { return test::gpuEnv(); }

/// The command line that runs one implementation of a case again, with the case's seed.
std::string replayCommand(RunRequest req, const std::string& implId) {
  req.impls = {implId};
  return runCommandLine(req);
}

bool hasParam(const Workload& w, const std::string& name) {
  const auto& p = w.info().params;
  return std::any_of(p.begin(), p.end(), [&](const ParamSpec& s) { return s.name == name; });
}
/// A workload on rows x cols matrices (kernels/common/matrix_workload.h): n is the rows, the param "cols" the columns.
bool isMatrix(const Workload& w) { return hasParam(w, "cols"); }
/// Whether the param `name` is a choice that offers `value` (l2_norm's and row_normalize's inputs offer no "random").
bool offersChoice(const Workload& w, const std::string& name, const std::string& value) {
  for (const auto& p : w.info().params)
    if (p.name == name) return std::find(p.choices.begin(), p.choices.end(), value) != p.choices.end();
  return false;
}
/// A product of matrices (matmul): the param "k" is the inner dimension, and the work grows with it.
bool hasInnerDimension(const Workload& w) { return hasParam(w, "k"); }

// Runs every CUDA implementation of `w` at size n (clamped to the workload's range) and checks each one.
void checkWorkload(const Workload& w, std::uint64_t n, DType dtype, const LaunchRequest& launch = {},
                   const std::map<std::string, std::string>& params = {}) {
  const auto& info = w.info();
  n = std::clamp<std::uint64_t>(n, info.minN, info.maxN);
  RunRequest req;
  req.workload = info.id;
  req.n = n;
  req.dtype = dtype;
  req.params = params;
  // float32 sums on random data: arange's integer values ignore the seed, and replaying needs inputs it draws.
  if (offersChoice(w, "input", "random") && dtype == DType::F32 && !req.params.count("input"))
    req.params["input"] = "random";
  req.reps = 1;
  req.warmup = 0;
  req.launch = launch;
  req.seed = test::caseSeed(runCommandLine(req));  // the case as a command line names it
  for (const auto& s : w.impls())
    if (s.isGpu()) req.impls.push_back(s.id);
  if (req.impls.empty()) return;
  auto problems = env().engine->validate(req);
  ASSERT_TRUE(problems.empty()) << info.id << ": " << problems.front().message;
  RunResult r = env().engine->run(req);
  ASSERT_EQ(r.status, Status::Ok) << info.id << ": " << r.reason;
  for (const auto& i : r.impls) {
    SCOPED_TRACE(info.id + "/" + i.implId + " n=" + std::to_string(n) +
                 (params.count("cols") ? " cols=" + params.at("cols") : "") +
                 (params.count("k") ? " k=" + params.at("k") : "") + " dtype=" + std::string(dtypeName(dtype)) +
                 " seed=" + std::to_string(req.seed) + "; replay: " + replayCommand(req, i.implId) +
                 " (or the suite with LAUNCHLAB_TEST_SEED=" + std::to_string(test::suiteSeed()) + ")");
    if (!i.gpu) continue;
    EXPECT_EQ(i.status, Status::Ok) << i.reason;
    EXPECT_NE(i.verification.outcome, Verification::Outcome::Fail)
        << i.verification.mismatches << " mismatches of " << i.verification.compared << ", first at "
        << (i.verification.firstMismatches.empty() ? 0 : i.verification.firstMismatches.front()) << " ("
        << i.verification.note << ")";
    EXPECT_NE(i.verification.outcome, Verification::Outcome::NotChecked);
    EXPECT_TRUE(i.launch.has_value());
  }
}

}  // namespace

TEST(AllCudaImpls, OddSizesEveryDType) {
  for (const auto& w : env().registry.all())
    for (DType t : w->info().dtypes) {
      if (isMatrix(*w)) {
        // rows x cols: one element, odd sides, and sides that are not multiples of a 32 x 32 tile.
        const std::pair<int, int> shapes[] = {{1, 1}, {31, 33}, {33, 31}, {1000, 1003}, {70, 4099}, {4099, 70}};
        for (const auto& [rows, cols] : shapes) checkWorkload(*w, rows, t, {}, {{"cols", std::to_string(cols)}});
        continue;
      }
      for (std::uint64_t n : {std::uint64_t(1), std::uint64_t(31), std::uint64_t(1000003)}) checkWorkload(*w, n, t);
    }
}

TEST(AllCudaImpls, LargeDefaultDType) {
  for (const auto& w : env().registry.all()) {
    // 2^27 elements; a product keeps its inner dimension small and odd (the reference runs on one core).
    if (hasInnerDimension(*w))
      checkWorkload(*w, 8192, w->info().defaultDType, {}, {{"cols", "16384"}, {"k", "33"}});
    else if (isMatrix(*w))
      checkWorkload(*w, 8192, w->info().defaultDType, {}, {{"cols", "16384"}});
    else
      checkWorkload(*w, std::uint64_t(1) << 27, w->info().defaultDType);
  }
}

TEST(AllCudaImpls, TwoDimensionalLaunchesOfAnyShapeCoverOddMatrices) {
  // 2-D kernels stride over the grid in both axes: any block and grid, including grids far too small.
  for (const auto& w : env().registry.all()) {
    if (w->info().launchDims != 2) continue;
    for (Dim3 b : {Dim3{1, 1, 1}, Dim3{33, 3, 1}, Dim3{32, 8, 1}, Dim3{16, 16, 1}, Dim3{32, 32, 1}})
      for (std::optional<Dim3> g : {std::optional<Dim3>(), std::optional<Dim3>(Dim3{3, 2, 1})}) {
        LaunchRequest l;
        l.block = b;
        l.grid = g;
        checkWorkload(*w, 100, w->info().defaultDType, l, {{"cols", "103"}});
      }
  }
}

TEST(AllCudaImpls, SmallAndOddLaunches) {
  // Grid-stride and bounds-checked kernels must be right with any block (including non-multiples of 32).
  for (const auto& w : env().registry.all()) {
    if (w->info().launchDims != 1) continue;
    for (unsigned b : {1u, 33u, 1024u}) {
      LaunchRequest l;
      l.block = Dim3{b, 1, 1};
      // A matrix workload with a 1-D launch (row_col_sums: a thread per line) on an odd rows x cols instead.
      if (isMatrix(*w))
        checkWorkload(*w, 317, w->info().defaultDType, l, {{"cols", "1031"}});
      else
        checkWorkload(*w, 100003, w->info().defaultDType, l);
    }
  }
}

TEST(AllCudaImpls, RowColSumsSeedLaunchAndPatternsAreExact) {
  // The seed's 64 x 256 launch on 16384 x 16384 (ones, column 3 or row 3 set to 9): every variant verifies against
  // cpu-serial (the variants that choose their own launch run theirs).
  const Workload* w = env().registry.find("row_col_sums");
  ASSERT_NE(w, nullptr);
  LaunchRequest seed;
  seed.block = Dim3{256, 1, 1};
  seed.grid = Dim3{64, 1, 1};
  for (const char* pattern : {"seed-cols", "seed-rows"})
    checkWorkload(*w, 16384, DType::F32, seed, {{"input", pattern}});
}

TEST(AllCudaImpls, CoalescingEveryStrideFrom1To64) {
  const Workload* w = env().registry.find("coalescing");
  ASSERT_NE(w, nullptr);
  for (int s = 1; s <= 64; s += (s < 8 ? 1 : 7))
    for (DType t : w->info().dtypes) checkWorkload(*w, 100003, t, {}, {{"stride", std::to_string(s)}});
}

TEST(AllCudaImpls, InnerDimensionTailsAndWholeTiles) {
  // m x k x n products: odd sides, sides that are not multiples of any tile (16 x 16, 128 x 128, 8 or 16 deep), and
  // exact multiples of the 128 x 128 x 8 register tile (its unchecked 16-byte path), with auto and odd launches.
  struct Mkn {
    int m, k, n;
  };
  const Mkn shapes[] = {{1, 1, 1},    {31, 17, 33},     {100, 103, 97}, {129, 7, 130},   {127, 9, 255},
                        {1, 4099, 1}, {257, 1000, 383}, {128, 8, 128},  {256, 136, 384}, {1024, 1024, 1024}};
  for (const auto& w : env().registry.all()) {
    if (!hasInnerDimension(*w)) continue;
    for (const Mkn& s : shapes)
      checkWorkload(*w, s.m, w->info().defaultDType, {}, {{"k", std::to_string(s.k)}, {"cols", std::to_string(s.n)}});
    // 1024 x 1: the tiled kernel's (1 + 1024) x 16 floats of shared memory need the opt-in beyond 48 KiB.
    for (Dim3 b :
         {Dim3{1, 1, 1}, Dim3{33, 3, 1}, Dim3{16, 16, 1}, Dim3{32, 32, 1}, Dim3{1024, 1, 1}, Dim3{1, 1024, 1}}) {
      LaunchRequest l;
      l.block = b;
      l.grid = Dim3{3, 2, 1};  // far fewer blocks than tiles: the kernels stride over the grid
      checkWorkload(*w, 129, w->info().defaultDType, l, {{"k", "31"}, {"cols", "130"}});
    }
  }
}
