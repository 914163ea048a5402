#include "cpu_impl_checks.h"
#include "go_fast/go_fast.h"

using namespace launchlab;
using namespace launchlab::test;

TEST(GoFast, IsTheSeedsFunctionOnArange) {
  // go_fast(np.arange(4096).reshape(64, 64)): the diagonal is 65 i, tanh(0) = 0 and tanh(65 i) = 1 in double for
  // i > 0, so trace = 63 and out = a + 63.
  RunResult r = runCpu("go_fast", 64, DType::F64);
  ASSERT_EQ(r.status, Status::Ok) << r.reason;
  expectCpuImplsPass(r);
  auto out = r.find("cpu-serial")->outputs.at(0).view<double>();
  ASSERT_EQ(out.size(), 4096u);
  for (std::size_t k = 0; k < out.size(); ++k) ASSERT_EQ(out[k], double(k) + 63.0) << k;
}

TEST(GoFast, TraceRunsOverTheShorterSide) {
  const double a[6] = {0.5, 1, 2, 3, -0.25, 5};  // 2 x 3: the diagonal is a[0, 0], a[1, 1]
  EXPECT_DOUBLE_EQ(kernels::go_fast::traceOfTanh(a, 2, 3), std::tanh(0.5) + std::tanh(-0.25));
  RunResult r = runCpu("go_fast", 5, DType::F64, {{"d", "3"}});
  ASSERT_EQ(r.status, Status::Ok) << r.reason;
  expectCpuImplsPass(r);
}

TEST(GoFast, TheRunTimeKernelHasTheContractsSignature) {
  const Exercise& ex = kernels::go_fast::kernelContract();
  EXPECT_EQ(kernelDeclaration(ex, ex.kernelName),
            "__global__ void go_fast(const double* a, double* out, unsigned long long n, unsigned long long d)");
  EXPECT_NE(std::string(kernels::go_fast::kKernelSource).find(kernelDeclaration(ex, ex.kernelName)), std::string::npos);
  EXPECT_EQ(firstProblem("go_fast", 64, DType::F32).find("dtype") != std::string::npos, true);
}
