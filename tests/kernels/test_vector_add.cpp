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

TEST(VectorAdd, SeedInputPatternsOfAddUfunc) {
  // a = [1, 2, 3, 4], b = [10, 20, 30, 40]: np.add(a, b) = [11, 22, 33, 44].
  RunResult ab = runCpu("vector_add", 4, DType::I64, {{"input", "seed-a-b"}});
  ASSERT_EQ(ab.status, Status::Ok) << ab.reason;
  auto sum = ab.find("cpu-serial")->outputs.at(0).view<std::int64_t>();
  EXPECT_EQ(std::vector<std::int64_t>(sum.begin(), sum.end()), (std::vector<std::int64_t>{11, 22, 33, 44}));
  // x = arange(n), y = 2 x: out = 3 i.
  RunResult twice = runCpu("vector_add", 100000, DType::F32, {{"input", "seed-2x"}});
  auto out = twice.find("cpu-parallel")->outputs.at(0).view<float>();
  for (std::size_t i = 0; i < out.size(); ++i) ASSERT_EQ(out[i], 3.0f * float(i)) << i;
}

TEST(VectorAdd, PlusTenIsTheSeedsAddTen) {
  // add_ten(np.arange(10)) = [10, 11, ..., 19].
  RunResult r = runCpu("vector_add", 10, DType::I64, {{"input", "seed-plus-ten"}});
  ASSERT_EQ(r.status, Status::Ok) << r.reason;
  expectCpuImplsPass(r);
  auto out = r.find("cpu-serial")->outputs.at(0).view<std::int64_t>();
  EXPECT_EQ(std::vector<std::int64_t>(out.begin(), out.end()),
            (std::vector<std::int64_t>{10, 11, 12, 13, 14, 15, 16, 17, 18, 19}));
}

TEST(VectorAdd, BroadcastIsBOverTheRowsOfC) {
  // np.add(b, c) with b = [10, 20, 30, 40] and c = arange(16).reshape(4, 4): element (r, k) = b[k] + c[r, k].
  RunResult r = runCpu("vector_add", 16, DType::I64, {{"input", "seed-broadcast"}});
  ASSERT_EQ(r.status, Status::Ok) << r.reason;
  expectCpuImplsPass(r);
  auto out = r.find("cpu-serial")->outputs.at(0).view<std::int64_t>();
  const std::int64_t b[4] = {10, 20, 30, 40};
  for (int row = 0; row < 4; ++row)
    for (int k = 0; k < 4; ++k) EXPECT_EQ(out[std::size_t(row * 4 + k)], b[k] + (row * 4 + k)) << row << "," << k;
}
