// matmul on the CPU: every CPU implementation against a naive triple loop in double computed here on odd shapes, the
// shapes and validation messages of A (m x k), B (k x n), C (m x n), the Sigma|a||b| bound and the tolerance, which
// must catch one missing product and tell TF32 inputs from float32 ones.
#include <cmath>

#include "launchlab/course/chapters.h"
#include "launchlab/engine/verify.h"
#include "matmul/matmul.h"
#include "metadata_checks.h"

using namespace launchlab;
using namespace launchlab::test;
using kernels::matmul::matmulTolerance;
using kernels::matmul::sumAbsProductBound;

namespace {

std::map<std::string, std::string> shapeParams(std::size_t k, std::size_t n) {
  return {{"k", std::to_string(k)}, {"cols", std::to_string(n)}};
}

/// C = A B in double by the textbook triple loop, and Sigma_l |a_il||b_lj| per element.
struct Exact {
  std::vector<double> c, sumAbs;
};
Exact tripleLoop(const HostArray& a, const HostArray& b, std::size_t m, std::size_t k, std::size_t n) {
  Exact e{std::vector<double>(m * n), std::vector<double>(m * n)};
  const auto av = a.view<float>();
  const auto bv = b.view<float>();
  for (std::size_t i = 0; i < m; ++i)
    for (std::size_t j = 0; j < n; ++j)
      for (std::size_t l = 0; l < k; ++l) {
        const double p = double(av[i * k + l]) * double(bv[l * n + j]);
        e.c[i * n + j] += p;
        e.sumAbs[i * n + j] += std::fabs(p);
      }
  return e;
}

void expectCpuImplsMatchTripleLoop(std::size_t m, std::size_t k, std::size_t n) {
  SCOPED_TRACE(std::to_string(m) + "x" + std::to_string(k) + "x" + std::to_string(n));
  const RunResult r = runCpu("matmul", m, DType::F32, shapeParams(k, n), m * 7 + k * 3 + n);
  expectCpuImplsPass(r);
  ASSERT_EQ(r.inputs.size(), 2u);
  EXPECT_EQ(r.inputs[0].shape(), (std::vector<std::size_t>{m, k}));
  EXPECT_EQ(r.inputs[1].shape(), (std::vector<std::size_t>{k, n}));
  const Exact e = tripleLoop(r.inputs[0], r.inputs[1], m, k, n);
  for (const auto& i : r.impls) {
    if (i.gpu || i.status != Status::Ok) continue;
    const HostArray& c = output(r, i.implId, "C");
    ASSERT_EQ(c.shape(), (std::vector<std::size_t>{m, n})) << i.implId;
    const auto cv = c.view<float>();
    // Blocked loops accumulate in double: the float32 rounding of the exact value. Eigen sums in float32: within the
    // workload's own bound, per element.
    const bool doubleSums = i.implId != "cpu-eigen";
    for (std::size_t x = 0; x < m * n; ++x) {
      const double tol = doubleSums ? 0x1p-24 * std::fabs(e.c[x]) + 1e-12 * e.sumAbs[x]
                                    : matmulTolerance(kernels::matmul::matmulOrder("cpu-eigen"), k, e.sumAbs[x], false);
      ASSERT_LE(std::fabs(double(cv[x]) - e.c[x]), tol) << i.implId << " at " << x / n << "," << x % n;
    }
    if (i.implId != "cpu-serial") {
      EXPECT_EQ(i.verification.compared, m * n) << i.implId;
    }
  }
}

/// A float rounded to TF32 (10 explicit mantissa bits, to nearest even), as tensor cores read it.
float toTf32(float x) {
  std::uint32_t u;
  std::memcpy(&u, &x, 4);
  u = (u + 0xFFFu + ((u >> 13) & 1u)) & ~0x1FFFu;
  std::memcpy(&x, &u, 4);
  return x;
}

}  // namespace

TEST(Matmul, Metadata) {
  expectMetadata("matmul", std::string(kChapterMemory), 5);
  const auto& info = workload("matmul").info();
  EXPECT_EQ(info.launchDims, 2);
  EXPECT_EQ(info.dtypes, (std::vector<DType>{DType::F32}));
  ASSERT_EQ(info.inputs.size(), 2u);
  EXPECT_EQ(info.inputs[0].name, "A");
  EXPECT_EQ(info.inputs[1].name, "B");
  ASSERT_EQ(info.outputs.size(), 1u);
  EXPECT_EQ(info.outputs[0].name, "C");
  EXPECT_EQ(info.outputs[0].plot, PlotKind::Image);
  for (const char* id : {"cuda-naive", "cuda-tiled-16", "cuda-register-tiled"})
    EXPECT_EQ(spec("matmul", id).kind, ImplKind::Cuda);
  for (const char* id : {"cublas-sgemm", "cublas-tf32"}) EXPECT_EQ(spec("matmul", id).kind, ImplKind::CudaLibrary);
  EXPECT_NE(spec("matmul", "cublas-tf32").title.find("TF32"), std::string::npos);
  EXPECT_TRUE(spec("matmul", "cuda-tiled-16").usesLaunchConfig);
  EXPECT_FALSE(spec("matmul", "cuda-register-tiled").usesLaunchConfig);
}

TEST(Matmul, CpuImplsMatchANaiveDoubleTripleLoopOnOddShapes) {
  expectCpuImplsMatchTripleLoop(1, 1, 1);
  expectCpuImplsMatchTripleLoop(31, 17, 33);
  expectCpuImplsMatchTripleLoop(100, 103, 97);
  expectCpuImplsMatchTripleLoop(33, 600, 1);  // a column: several blocks of k, one column of C
  expectCpuImplsMatchTripleLoop(70, 1, 520);  // one product per element, C wider than one block of columns
}

TEST(Matmul, ShapesFollowNAndTheParametersKAndColsZeroMeaningM) {
  const Workload& w = workload("matmul");
  const RunSetup square = setupFor("matmul", 5, DType::F32);
  EXPECT_EQ(w.inputShapes(square), (std::vector<std::vector<std::size_t>>{{5, 5}, {5, 5}}));
  EXPECT_EQ(w.outputShapes(square), (std::vector<std::vector<std::size_t>>{{5, 5}}));
  EXPECT_EQ(w.flops(square), 250.0);
  const RunSetup odd = setupFor("matmul", 31, DType::F32, shapeParams(17, 33));
  EXPECT_EQ(w.inputShapes(odd), (std::vector<std::vector<std::size_t>>{{31, 17}, {17, 33}}));
  EXPECT_EQ(w.outputShapes(odd), (std::vector<std::vector<std::size_t>>{{31, 33}}));
  const RunSetup onlyK = setupFor("matmul", 4, DType::F32, {{"k", "9"}});
  EXPECT_EQ(w.outputShapes(onlyK), (std::vector<std::vector<std::size_t>>{{4, 4}}));
  EXPECT_EQ(w.inputShapes(onlyK).at(0), (std::vector<std::size_t>{4, 9}));
  expectDeterministicInputs("matmul", square);
}

TEST(Matmul, ValidationNamesTheMatrixThatIsTooLarge) {
  EXPECT_EQ(firstProblem("matmul", 4096, DType::F32), "");
  EXPECT_EQ(firstProblem("matmul", 70000, DType::F32, shapeParams(70000, 1)),
            "A is 70000 x 70000 elements, more than 2^32: use a smaller m, k or cols");
  EXPECT_EQ(firstProblem("matmul", 1, DType::F32, shapeParams(70000, 70000)),
            "B is 70000 x 70000 elements, more than 2^32: use a smaller m, k or cols");
  EXPECT_EQ(firstProblem("matmul", 70000, DType::F32, shapeParams(1, 70000)),
            "C is 70000 x 70000 elements, more than 2^32: use a smaller m, k or cols");
  EXPECT_NE(firstProblem("matmul", 64, DType::F64), "");  // float32 only
}

TEST(Matmul, SumAbsBoundIsTheLeastOfThreeNormBoundsAndBoundsEveryElement) {
  // A = [1 -2], B = [3; 4]: sum |a||b| = 11; bounds 3 * 4 = 12, 2 * 7 = 14, sqrt(5) * 5 = 11.18.
  const float a[] = {1, -2}, b[] = {3, 4};
  EXPECT_DOUBLE_EQ(sumAbsProductBound(a, b, {1, 2, 1}), std::sqrt(5.0) * 5.0);
  const RunSetup s = setupFor("matmul", 31, DType::F32, shapeParams(17, 33), 5);
  const auto in = workload("matmul").makeInputs(s);
  const Exact e = tripleLoop(in[0], in[1], 31, 17, 33);
  const double bound = sumAbsProductBound(in[0].view<float>().data(), in[1].view<float>().data(), {31, 17, 33});
  const double worst = *std::max_element(e.sumAbs.begin(), e.sumAbs.end());
  EXPECT_GE(bound, worst);
  EXPECT_LE(bound, 2 * worst);  // uniform inputs: the bound stays close
  // k = 4096 float32 products along k: gamma_4096 (u = 2^-24), plus the float64 reference's gamma_4095 and its
  // rounding to float32; TF32 adds 2^-10.
  const SummationOrder tiled = kernels::matmul::matmulOrder("cuda-tiled-16");
  const double g = 4096 * 0x1p-24 / (1 - 4096 * 0x1p-24);
  EXPECT_NEAR(matmulTolerance(tiled, 4096, 1, false), g + 0x1p-24, 1e-9);
  EXPECT_NEAR(matmulTolerance(tiled, 4096, 1, true), g + 0x1p-24 + 0x1p-10, 1e-9);
}

TEST(Matmul, VerificationCatchesOneMissingProductAndTellsTf32FromFloat32) {
  const std::size_t m = 100, k = 103, n = 97;
  const RunSetup s = setupFor("matmul", m, DType::F32, shapeParams(k, n), 11);
  const Workload& w = workload("matmul");
  const auto in = w.makeInputs(s);
  const auto av = in[0].view<float>();
  const auto bv = in[1].view<float>();
  const Exact e = tripleLoop(in[0], in[1], m, k, n);
  std::vector<HostArray> ref = w.makeOutputs(s);
  for (std::size_t x = 0; x < m * n; ++x) ref[0].view<float>()[x] = float(e.c[x]);
  const ImplSpec& sgemm = spec("matmul", "cublas-sgemm");
  const ImplSpec& tf32 = spec("matmul", "cublas-tf32");
  EXPECT_EQ(w.verifyWithInputs(s, in, ref, ref, sgemm).outcome, Verification::Outcome::Pass);

  // One element without its largest product.
  std::vector<HostArray> dropped = w.makeOutputs(s);
  std::copy(ref[0].view<float>().begin(), ref[0].view<float>().end(), dropped[0].view<float>().begin());
  double largest = 0;
  for (std::size_t l = 0; l < k; ++l) largest = std::max(largest, std::fabs(double(av[7 * k + l]) * bv[l * n + 5]));
  for (std::size_t l = 0; l < k; ++l)
    if (std::fabs(double(av[7 * k + l]) * bv[l * n + 5]) == largest)
      dropped[0].view<float>()[7 * n + 5] = float(e.c[7 * n + 5] - double(av[7 * k + l]) * bv[l * n + 5]);
  const Verification v = w.verifyWithInputs(s, in, ref, dropped, sgemm);
  EXPECT_EQ(v.outcome, Verification::Outcome::Fail) << v.note;
  EXPECT_EQ(v.mismatches, 1u);
  EXPECT_NE(v.note.find("gamma_d"), std::string::npos) << v.note;

  // Products of TF32-rounded inputs, summed exactly: within the TF32 tolerance, outside the float32 one.
  std::vector<HostArray> t = w.makeOutputs(s);
  for (std::size_t i = 0; i < m; ++i)
    for (std::size_t j = 0; j < n; ++j) {
      double c = 0;
      for (std::size_t l = 0; l < k; ++l) c += double(toTf32(av[i * k + l])) * double(toTf32(bv[l * n + j]));
      t[0].view<float>()[i * n + j] = float(c);
    }
  EXPECT_EQ(w.verifyWithInputs(s, in, ref, t, tf32).outcome, Verification::Outcome::Pass);
  const Verification strict = w.verifyWithInputs(s, in, ref, t, sgemm);
  EXPECT_EQ(strict.outcome, Verification::Outcome::Fail);
  EXPECT_GT(strict.mismatches, m * n / 2) << strict.note;
}
