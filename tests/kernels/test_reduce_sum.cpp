#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <numeric>
#include <random>
#include <span>
#include <vector>

#include "launchlab/engine/rng.h"
#include "launchlab/engine/summation.h"
#include "metadata_checks.h"
#include "reduce_sum/reduce_sum.h"

using namespace launchlab;
namespace rs = launchlab::kernels::reduce_sum;

TEST(ReduceSum, Metadata) {
  test::expectMetadata("reduce_sum", "Session 3 — Reduce generation", 10);
  const auto& info = test::workload("reduce_sum").info();
  EXPECT_EQ(info.defaultN, 1234u);  // the seed's np.arange(1234) + 1
  EXPECT_EQ(info.defaultDType, DType::F64);
  EXPECT_EQ(test::spec("reduce_sum", "cuda-cub").kind, ImplKind::CudaLibrary);
}

TEST(ReduceSum, SeedExampleIsExact) {
  auto r = test::runCpu("reduce_sum", 1234, DType::F64);
  test::expectCpuImplsPass(r);
  EXPECT_EQ(test::output(r, "cpu-serial", "sum").view<double>()[0], 761995.0);
  EXPECT_EQ(test::output(r, "cpu-parallel", "sum").view<double>()[0], 761995.0);
}

TEST(ReduceSum, CompensatedAndWrappingSums) {
  const std::vector<double> d = {1e16, 1.0, -1e16, 1.0};
  EXPECT_EQ(rs::neumaierSum(d), 2.0);  // a plain float64 loop gives 1 or 0
  const std::vector<std::int32_t> i = {std::numeric_limits<std::int32_t>::max(), 1, 5};
  EXPECT_EQ(rs::wrappingSum(i), std::numeric_limits<std::int32_t>::min() + 5);
}

TEST(ReduceSum, EveryDTypeAndInputAgreesOnTheCpu) {
  for (DType t : {DType::F32, DType::F64, DType::I32})
    for (const char* input : {"arange", "random"})
      for (std::uint64_t n : {1ull, 31ull, 1000003ull})
        test::expectCpuImplsPass(test::runCpu("reduce_sum", n, t, {{"input", input}}));
  // int32 arange wraps past 2^31 identically on both sides: 1 + ... + 100000 = 5000050000 = 705082704 mod 2^32.
  auto r = test::runCpu("reduce_sum", 100000, DType::I32);
  EXPECT_EQ(test::output(r, "cpu-serial", "sum").view<std::int32_t>()[0], 705082704);
}

namespace {

/// The seed of the randomised tests below: LAUNCHLAB_TEST_SEED when set (to replay a failure), else a fixed one.
std::uint64_t testSeed() {
  const char* e = std::getenv("LAUNCHLAB_TEST_SEED");
  const std::uint64_t seed = e && *e ? std::strtoull(e, nullptr, 10) : 20261127;
  std::printf("reduce_sum random-order tests: seed %llu (LAUNCHLAB_TEST_SEED=%llu replays them)\n",
              static_cast<unsigned long long>(seed), static_cast<unsigned long long>(seed));
  return seed;
}

double sumOfAbs(std::span<const float> v) {
  double a = 0;
  for (float f : v) a += std::fabs(double(f));
  return a;
}

}  // namespace

// The bound an order guarantees must hold for every order it allows, and the orders must really differ: float32
// data summed sequentially in many random orders (what "any order" allows, e.g. atomics in arrival order) stay
// within gamma_{n-1} sum|x|, and some of those orders break the far tighter bound of a tree (gamma_{log2 n}).
TEST(ReduceSum, AnyOrderBoundHoldsForRandomOrdersAndTheTreeBoundDoesNot) {
  const std::uint64_t seed = testSeed();
  const std::size_t n = 16384;
  HostArray x("x", DType::F32, {n});
  fillUniform(x, 0, 1, seed, 0);  // one sign: every partial sum grows, the case where the order matters most
  const auto v = x.view<float>();
  const double exact = rs::neumaierSum(v), sumAbs = sumOfAbs(v);
  const auto ref = SummationOrder::compensatedSum(DType::F64);
  const double anyBound = sumTolerance(SummationOrder::anyOrder(DType::F32), ref, n, sumAbs, DType::F32).atol;
  const double treeBound = sumTolerance(SummationOrder::pairwise(DType::F32), ref, n, sumAbs, DType::F32).atol;
  ASSERT_LT(treeBound, anyBound / 100);
  std::vector<float> order(v.begin(), v.end());
  std::mt19937_64 rng(seed);
  int overTree = 0;
  double worst = 0;
  for (int k = 0; k < 200; ++k) {
    std::shuffle(order.begin(), order.end(), rng);
    float s = 0;
    for (float f : order) s += f;
    const double err = std::fabs(double(float(exact)) - double(s));  // against the reference as verification sees it
    EXPECT_LE(err, anyBound) << "order " << k << " (seed " << seed << ")";
    worst = std::max(worst, err);
    overTree += err > treeBound;
  }
  EXPECT_GT(overTree, 0) << "no order exceeded the tree's bound " << treeBound << "; worst error " << worst << " (seed "
                         << seed << ")";
  // A tree over the same data keeps to the tree's bound.
  std::vector<float> tree(v.begin(), v.end());
  for (std::size_t m = n; m > 1; m /= 2)
    for (std::size_t k = 0; k < m / 2; ++k) tree[k] = tree[2 * k] + tree[2 * k + 1];
  EXPECT_LE(std::fabs(double(tree[0]) - double(float(exact))), treeBound);
}

TEST(ReduceSum, TheSeedsArangeInFloat32FitsTheSequentialBoundInEitherOrder) {
  // Integer-valued data correlate the rounding errors of a sequential chain, which broke the earlier
  // probabilistic bound on the GPU; the worst-case bound holds for them as for any data.
  const std::size_t n = 1000003;
  HostArray x("x", DType::F32, {n});
  fillArange(x, 1, 1);
  const auto v = x.view<float>();
  const double exact = rs::neumaierSum(v);
  const double tol = sumTolerance(SummationOrder::sequential(DType::F32), SummationOrder::compensatedSum(DType::F64), n,
                                  exact, DType::F32)
                         .atol;
  float forward = 0, backward = 0;
  for (std::size_t i = 0; i < n; ++i) forward += v[i];
  for (std::size_t i = n; i-- > 0;) backward += v[i];
  EXPECT_LE(std::fabs(double(forward) - exact), tol);
  EXPECT_LE(std::fabs(double(backward) - exact), tol);
}

TEST(ReduceSum, EveryImplementationDeclaresTheOrderItAddsIn) {
  const std::uint64_t n = 1000003;
  const auto depth = [&](const char* id, const LaunchConfig* l) {
    return summationDepth(rs::summationOrder(id, DType::F32, n, l), n);
  };
  EXPECT_EQ(depth("cuda-atomics", nullptr), n - 1);
  EXPECT_EQ(depth("cuda-cub", nullptr), n - 1);                // CUB documents no order
  EXPECT_EQ(depth("my-kernel", nullptr), n - 1);               // a student's kernel: any order
  EXPECT_EQ(depth("cuda-tree-global-halving", nullptr), 20u);  // ceil(log2 1000003)
  EXPECT_TRUE(rs::summationOrder("cpu-serial", DType::F32, n, nullptr).compensated);
  // Harris's trees at the auto launch (one element per thread, 977 blocks of 1024): a block's tree (10), then
  // passes of 256 over 977 and 4 partial sums (8 each).
  const LaunchConfig autoLaunch{Dim3{977, 1, 1}, Dim3{1024, 1, 1}, 0};
  EXPECT_EQ(depth("cuda-tree-sequential", &autoLaunch), 10u + 16u);
  // A grid of 2 blocks of 32: each thread adds ceil(n / 64) = 15626 terms in order first.
  const LaunchConfig small{Dim3{2, 1, 1}, Dim3{32, 1, 1}, 0};
  EXPECT_EQ(depth("cuda-tree-interleaved", &small), 15625u + 5u + 8u);
  // The one-pass kernel at a resident grid: about n / threads terms per thread, two block trees, a short run.
  const LaunchConfig resident{Dim3{264, 1, 1}, Dim3{1024, 1, 1}, 0};
  const std::uint64_t d = depth("cuda-warp-shuffle", &resident);
  EXPECT_GT(d, 20u);
  EXPECT_LT(d, 40u);
}

TEST(ReduceSum, VerificationFollowsTheImplementationsOrder) {
  const auto& w = test::workload("reduce_sum");
  auto s = test::setupFor("reduce_sum", 1000, DType::F32, {{"input", "random"}});
  auto in = w.makeInputs(s);
  const double sumAbs = sumOfAbs(in[0].view<float>());
  auto ref = w.makeOutputs(s);
  ref[0].view<float>()[0] = float(rs::neumaierSum(in[0].view<float>()));
  const auto tolOf = [&](const char* id) {
    return sumTolerance(rs::summationOrder(id, DType::F32, 1000, nullptr),
                        rs::summationOrder("cpu-serial", DType::F32, 1000, nullptr), 1000, sumAbs, DType::F32)
        .atol;
  };
  const double anyTol = tolOf("cuda-atomics"), treeTol = tolOf("cuda-tree-global-halving");
  ASSERT_LT(4 * treeTol, anyTol);
  auto got = ref;
  // An error the atomics' order allows but a pairwise tree's does not.
  got[0].view<float>()[0] = float(double(ref[0].view<float>()[0]) + 2 * treeTol);
  EXPECT_EQ(w.verifyLaunched(s, in, ref, got, test::spec("reduce_sum", "cuda-atomics"), nullptr).outcome,
            Verification::Outcome::Pass);
  auto v = w.verifyLaunched(s, in, ref, got, test::spec("reduce_sum", "cuda-tree-global-halving"), nullptr);
  EXPECT_EQ(v.outcome, Verification::Outcome::Fail);
  EXPECT_NE(v.note.find("one tree"), std::string::npos) << v.note;
  got[0].view<float>()[0] = float(double(ref[0].view<float>()[0]) + 2 * anyTol);
  EXPECT_EQ(w.verifyLaunched(s, in, ref, got, test::spec("reduce_sum", "cuda-atomics"), nullptr).outcome,
            Verification::Outcome::Fail);
  // int32: exact.
  const auto& impl = test::spec("reduce_sum", "cuda-atomics");
  auto si = test::setupFor("reduce_sum", 10, DType::I32);
  auto ini = w.makeInputs(si);
  auto refi = w.makeOutputs(si);
  refi[0].view<std::int32_t>()[0] = 55;
  auto goti = refi;
  goti[0].view<std::int32_t>()[0] = 56;
  EXPECT_EQ(w.verifyWithInputs(si, ini, refi, goti, impl).outcome, Verification::Outcome::Fail);
}

TEST(ReduceSum, TreeOutputIsAtlasPairwiseTree) {
  // ATLAS's example: [3, 1, 7, 0, 4, 1, 6, 3] -> [4, 7, 5, 9] -> [11, 14] -> [25], zeros past each level's width.
  const Workload& w = test::workload("reduce_sum");
  auto treeOf = [&](std::vector<double> x) {
    const RunSetup s = test::setupFor("reduce_sum", x.size(), DType::F64);
    std::vector<HostArray> in;
    in.emplace_back("x", DType::F64, std::vector<std::size_t>{x.size()});
    std::copy(x.begin(), x.end(), in[0].view<double>().begin());
    auto out = w.makeOutputs(s);
    ImplContext ctx(s, in, out);
    ctx.warmup = 0;
    ctx.reps = 1;
    w.findImpl("cpu-serial")->run(ctx);
    EXPECT_EQ(out[0].view<double>()[0], std::accumulate(x.begin(), x.end(), 0.0));
    EXPECT_EQ(out[1].shape(), (std::vector<std::size_t>{4, 8}));
    auto t = out[1].view<double>();
    return std::vector<double>(t.begin(), t.end());
  };
  EXPECT_EQ(treeOf({3, 1, 7, 0, 4, 1, 6, 3}), (std::vector<double>{3,  1,  7, 0, 4, 1, 6, 3,  //
                                                                   4,  7,  5, 9, 0, 0, 0, 0,  //
                                                                   11, 14, 0, 0, 0, 0, 0, 0,  //
                                                                   25, 0,  0, 0, 0, 0, 0, 0}));
  // Fewer than 8 values: the missing ones are 0; more: the tree of the first 8 only.
  EXPECT_EQ(treeOf({1, 2, 3}), (std::vector<double>{1, 2, 3, 0, 0, 0, 0, 0, 3, 3, 0, 0, 0, 0, 0, 0,  //
                                                    6, 0, 0, 0, 0, 0, 0, 0, 6, 0, 0, 0, 0, 0, 0, 0}));
  const auto big = treeOf({1, 1, 1, 1, 1, 1, 1, 1, 100});
  EXPECT_EQ(big[24], 8.0);
}

TEST(ReduceSum, TheNaiveRaceIsTheLessonOnlyWhenItLostUpdates) {
  const auto& w = test::workload("reduce_sum");
  const ImplSpec& race = test::spec("reduce_sum", "cuda-naive-race");
  EXPECT_FALSE(race.expectedOutcome.empty());
  auto s = test::setupFor("reduce_sum", 1000, DType::F64, {{"input", "random"}});
  auto in = w.makeInputs(s);
  const auto x = in[0].view<double>();
  auto ref = w.makeOutputs(s);
  ref[0].view<double>()[0] = rs::neumaierSum(x);
  rs::pairwiseTree(x.data(), x.size(), ref[1].view<double>().data());
  const auto verdict = [&](double sum) {
    auto got = ref;
    got[0].view<double>()[0] = sum;
    Verification v = w.verifyLaunched(s, in, ref, got, race, nullptr);
    settleDemonstration(v, race);
    return v;
  };
  // Threads overwrote each other: what is left is the sum of some of the elements.
  double some = 0;
  for (std::size_t i = 0; i < x.size(); i += 7) some += x[i];
  const auto lost = verdict(some);
  EXPECT_EQ(lost.outcome, Verification::Outcome::Demonstration);
  EXPECT_NE(lost.note.find("the threads' updates overwrote each other \u2014 the race this experiment demonstrates"),
            std::string::npos)
      << lost.note;
  // A sum beyond every element's, or NaN, no race can leave: a broken kernel, red.
  double positive = 0;
  for (double e : x) positive += e > 0 ? e : 0;
  EXPECT_EQ(verdict(positive + 10).outcome, Verification::Outcome::Fail);
  EXPECT_EQ(verdict(std::nan("")).outcome, Verification::Outcome::Fail);
  // The other reductions have no expected outcome: the same partial sum fails them.
  Verification atomics = w.verifyLaunched(s, in, ref, ref, test::spec("reduce_sum", "cuda-atomics"), nullptr);
  EXPECT_EQ(atomics.outcome, Verification::Outcome::Pass);
  auto got = ref;
  got[0].view<double>()[0] = some;
  EXPECT_EQ(w.verifyLaunched(s, in, ref, got, test::spec("reduce_sum", "cuda-atomics"), nullptr).outcome,
            Verification::Outcome::Fail);
}
