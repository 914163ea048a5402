#include "cpu_impl_checks.h"

using namespace launchlab;
using namespace launchlab::test;

TEST(VectorAdd, CpuParallelMatchesSerialForEveryDtypeAndOddSizes) { expectCpuImplsPassForEveryDType("vector_add"); }

TEST(VectorAdd, ArangeIsTheCourseExample) {
  RunResult r = runCpu("vector_add", 4096, DType::I32, {{"input", "arange"}}, 1000 + 4096);
  ASSERT_EQ(r.status, Status::Ok) << r.reason;
  auto out = r.find("cpu-serial")->outputs.at(0).view<std::int32_t>();
  for (std::size_t i = 0; i < out.size(); ++i) ASSERT_EQ(out[i], std::int32_t(i + 1));  // [1 ... 4096]
}

TEST(VectorAdd, OutputIsTheSumOfItsInputs) {
  RunResult r = runCpu("vector_add", 777, DType::F64, {}, 1000 + 777);
  auto x = r.inputs[0].view<double>();
  auto y = r.inputs[1].view<double>();
  auto out = r.find("cpu-parallel")->outputs.at(0).view<double>();
  for (std::size_t i = 0; i < out.size(); ++i) ASSERT_EQ(out[i], x[i] + y[i]);
  // Inputs are random, not constant (a constant input would hide indexing bugs).
  EXPECT_NE(x[0], x[1]);
}

TEST(VectorAdd, Int64IsTheSeedsAddUfuncDtype) {
  RunResult r = runCpu("vector_add", 1000, DType::I64, {{"input", "arange"}}, 1000 + 1000);
  ASSERT_EQ(r.status, Status::Ok) << r.reason;
  EXPECT_EQ(r.dtype, "i64");
  auto out = r.find("cpu-parallel")->outputs.at(0).view<std::int64_t>();
  for (std::size_t i = 0; i < out.size(); ++i) ASSERT_EQ(out[i], std::int64_t(i + 1));
  expectCpuImplsPass(r);
}
