#include <cmath>

#include "cpu_impl_checks.h"
#include "quadratic/quadratic.h"

using namespace launchlab;
using namespace launchlab::test;

TEST(Quadratic, CpuVariantsGiveTheSameBits) {
  for (DType t : {DType::F64, DType::F32}) {
    RunResult r = runCpu("quadratic", 100003, t);
    expectCpuImplsPass(r);
    for (const char* id : {"cpu-parallel", "cpu-numpy-passes"}) {
      const ImplResult* i = r.find(id);
      ASSERT_NE(i, nullptr);
      EXPECT_EQ(i->verification.maxAbsError, 0.0) << id << " differs from the fused loop";
    }
  }
}

TEST(Quadratic, SeedValue) {
  // The seed: quadratic_formula(5, 10, -0.1) = 0.009950493836207741
  EXPECT_NEAR(kernels::quadratic::root(5.0, 10.0, -0.1), 0.009950493836207741, 1e-17);
  EXPECT_NEAR(kernels::quadratic::root(1.0, -3.0, 2.0), 2.0, 0.0);   // roots 1 and 2
  EXPECT_TRUE(std::isnan(kernels::quadratic::root(1.0, 0.0, 1.0)));  // no real root
}

TEST(Quadratic, EverySquareFormGivesTheSameBits) {
  // b * b, pow(b, 2.0) (CuPy's b**2) and the seed's intpow(b, 2) are the same correctly rounded product.
  for (const char* form : {"mul", "pow", "intpow"}) {
    RunResult r = runCpu("quadratic", 20011, DType::F64, {{"square", form}});
    ASSERT_EQ(r.status, Status::Ok) << r.reason;
    EXPECT_EQ(r.find("cpu-numpy-passes")->verification.maxAbsError, 0.0) << form;
  }
  EXPECT_EQ(kernels::quadratic::squareOf(13.25, int(kernels::quadratic::SquareForm::IntPow)), 13.25 * 13.25);
}

TEST(Quadratic, SeedScalarInputIsTheSeedsCall) {
  // quadratic_formula(5, 10, -0.1) = 0.009950493836207741, here as every element of the arrays.
  RunResult r = runCpu("quadratic", 1, DType::F64, {{"input", "seed-scalar"}});
  ASSERT_EQ(r.status, Status::Ok) << r.reason;
  expectCpuImplsPass(r);
  EXPECT_NEAR(r.find("cpu-serial")->outputs.at(0).view<double>()[0], 0.009950493836207741, 1e-17);
}

TEST(Quadratic, InputsDeterministicAndInTheSeedsRanges) {
  const auto s = setupFor("quadratic", 20000, DType::F64);
  expectDeterministicInputs("quadratic", s);
  auto in = workload("quadratic").makeInputs(s);
  const double lo[3] = {5, 10, -0.1}, hi[3] = {10, 20, 0.1};
  for (int k = 0; k < 3; ++k)
    for (double v : in[k].view<double>()) ASSERT_TRUE(v >= lo[k] && v < hi[k]) << in[k].name() << " " << v;
}

TEST(Quadratic, BytesPerVariant) {
  const std::uint64_t n = 4096;
  RunResult r = runCpu("quadratic", n, DType::F64);
  ASSERT_EQ(r.status, Status::Ok);
  EXPECT_DOUBLE_EQ(r.find("cpu-serial")->bytesMoved, 4.0 * n * 8);
  const ImplResult* numpy = r.find("cpu-numpy-passes");
  EXPECT_DOUBLE_EQ(numpy->bytesMoved, 22.0 * n * 8);
  EXPECT_EQ(numpy->metrics.at("passes"), 9.0);
  EXPECT_EQ(workload("quadratic").info().defaultDType, DType::F64);
}

TEST(Quadratic, ValidationNamesDTypeAndSize) {
  EXPECT_EQ(firstProblem("quadratic", 1000000, DType::F64), "");
  EXPECT_EQ(firstProblem("quadratic", 1000000, DType::F32), "");
  EXPECT_NE(firstProblem("quadratic", 1000, DType::I32).find("dtype"), std::string::npos);
  EXPECT_NE(firstProblem("quadratic", 0, DType::F64).find("n = 0"), std::string::npos);
}

TEST(Quadratic, NanRootsVerifyAsEqual) {
  const Workload& w = workload("quadratic");
  const auto s = setupFor("quadratic", 3, DType::F64);
  auto ref = w.makeOutputs(s);
  ref[0].view<double>()[0] = kernels::quadratic::root(1.0, 0.0, 1.0);
  ref[0].view<double>()[1] = 0.5;
  ref[0].view<double>()[2] = -0.25;
  auto got = ref;
  EXPECT_EQ(w.verify(s, ref, got, *w.findImpl("cuda-fused")).outcome, Verification::Outcome::Pass);
  got[0].view<double>()[1] = 0.5 + 1e-12;
  EXPECT_EQ(w.verify(s, ref, got, *w.findImpl("cuda-fused")).outcome, Verification::Outcome::Fail);
}
