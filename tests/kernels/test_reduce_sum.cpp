#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <numeric>
#include <vector>

#include "launchlab/rng.h"
#include "metadata_checks.h"
#include "reduce_sum/reduce_sum.h"

using namespace launchlab;
namespace rs = launchlab::kernels::reduce_sum;

TEST(ReduceSum, Metadata) {
  test::expectMetadata("reduce_sum", "Session 3 — Reduce generation", 7);
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
      for (std::uint64_t n : {1ull, 31ull, 1000003ull}) test::expectCpuImplsPass(test::runCpu("reduce_sum", n, t, {{"input", input}}));
  // int32 arange wraps past 2^31 identically on both sides: 1 + ... + 100000 = 5000050000 = 705082704 mod 2^32.
  auto r = test::runCpu("reduce_sum", 100000, DType::I32);
  EXPECT_EQ(test::output(r, "cpu-serial", "sum").view<std::int32_t>()[0], 705082704);
}

// The tolerance must accept the worst summation order an implementation uses (one sequential float chain, like
// the atomics) and a tree, for same-sign and mixed-sign data, yet reject an error of a few terms' worth.
TEST(ReduceSum, ToleranceAcceptsSequentialAndTreeOrdersOfFloat32) {
  const std::uint64_t n = 1u << 21;
  for (auto [lo, hi] : {std::pair{0.0, 1.0}, std::pair{-1.0, 1.0}}) {
    HostArray x("x", DType::F32, {n});
    fillUniform(x, lo, hi, 3, 0);
    const auto v = x.view<float>();
    const double exact = rs::neumaierSum(v);
    double sumAbs = 0;
    for (float f : v) sumAbs += std::fabs(double(f));
    const double tol = rs::sumTolerance(0x1p-24, n, sumAbs);
    float seq = 0;
    for (float f : v) seq += f;
    EXPECT_LE(std::fabs(double(seq) - exact), tol) << "sequential, data in [" << lo << ", " << hi << ")";
    std::vector<float> tree(v.begin(), v.end());
    for (std::size_t m = n; m > 1; m /= 2)
      for (std::size_t k = 0; k < m / 2; ++k) tree[k] = tree[2 * k] + tree[2 * k + 1];
    EXPECT_LE(std::fabs(double(tree[0]) - exact), tol);
    EXPECT_LT(tol, 1e-2 * sumAbs);  // still a real check at this size
  }
}

TEST(ReduceSum, ToleranceAcceptsTheSeedsArangeInFloat32InEitherOrder) {
  // Integer-valued data correlate the rounding errors of a sequential chain: the hardest case the GPU suite runs
  // (float32 atomics on arange at n = 1000003) must still pass with a margin.
  const std::size_t n = 1000003;
  HostArray x("x", DType::F32, {n});
  fillArange(x, 1, 1);
  const auto v = x.view<float>();
  const double exact = rs::neumaierSum(v);
  const double tol = rs::sumTolerance(0x1p-24, n, exact);
  float forward = 0, backward = 0;
  for (std::size_t i = 0; i < n; ++i) forward += v[i];
  for (std::size_t i = n; i-- > 0;) backward += v[i];
  EXPECT_LT(std::fabs(double(forward) - exact), 0.5 * tol);
  EXPECT_LT(std::fabs(double(backward) - exact), 0.8 * tol);
}

TEST(ReduceSum, VerificationUsesTheInputsCondition) {
  const auto& w = test::workload("reduce_sum");
  auto s = test::setupFor("reduce_sum", 1000, DType::F32, {{"input", "random"}});
  auto in = w.makeInputs(s);
  double sumAbs = 0;
  for (float f : in[0].view<float>()) sumAbs += std::fabs(double(f));
  auto ref = w.makeOutputs(s);
  ref[0].view<float>()[0] = float(rs::neumaierSum(in[0].view<float>()));
  const double tol = rs::sumTolerance(0x1p-24, 1000, sumAbs);
  auto got = ref;
  got[0].view<float>()[0] = ref[0].view<float>()[0] + float(0.5 * tol);
  const auto& impl = test::spec("reduce_sum", "cuda-atomics");
  EXPECT_EQ(w.verifyWithInputs(s, in, ref, got, impl).outcome, Verification::Outcome::Pass);
  got[0].view<float>()[0] = ref[0].view<float>()[0] + float(2 * tol);
  auto v = w.verifyWithInputs(s, in, ref, got, impl);
  EXPECT_EQ(v.outcome, Verification::Outcome::Fail);
  EXPECT_NE(v.note.find("sqrt(n)"), std::string::npos) << v.note;
  // int32: exact.
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
  EXPECT_EQ(treeOf({3, 1, 7, 0, 4, 1, 6, 3}), (std::vector<double>{3, 1, 7, 0, 4, 1, 6, 3,  //
                                                                   4, 7, 5, 9, 0, 0, 0, 0,  //
                                                                   11, 14, 0, 0, 0, 0, 0, 0,  //
                                                                   25, 0, 0, 0, 0, 0, 0, 0}));
  // Fewer than 8 values: the missing ones are 0; more: the tree of the first 8 only.
  EXPECT_EQ(treeOf({1, 2, 3}), (std::vector<double>{1, 2, 3, 0, 0, 0, 0, 0, 3, 3, 0, 0, 0, 0, 0, 0,  //
                                                    6, 0, 0, 0, 0, 0, 0, 0, 6, 0, 0, 0, 0, 0, 0, 0}));
  const auto big = treeOf({1, 1, 1, 1, 1, 1, 1, 1, 100});
  EXPECT_EQ(big[24], 8.0);
}
