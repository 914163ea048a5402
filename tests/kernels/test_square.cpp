#include <cstdint>

#include "cpu_impl_checks.h"

using namespace launchlab;
using namespace launchlab::test;

TEST(Square, CpuParallelMatchesSerialForEveryDtypeAndOddSizes) { expectCpuImplsPassForEveryDType("square"); }

TEST(Square, IsTheSeedsArangeSquaredInInt64) {
  EXPECT_EQ(workload("square").info().defaultDType, DType::I64);
  EXPECT_EQ(workload("square").info().defaultN, 4096u);
  RunResult r = runCpu("square", 4096, DType::I64, {}, 1000 + 4096);
  ASSERT_EQ(r.status, Status::Ok) << r.reason;
  auto a = r.inputs[0].view<std::int64_t>();
  auto out = r.find("cpu-parallel")->outputs.at(0).view<std::int64_t>();
  for (std::size_t i = 0; i < out.size(); ++i) {
    ASSERT_EQ(a[i], std::int64_t(i));
    ASSERT_EQ(out[i], std::int64_t(i) * std::int64_t(i));  // the seed's out = a**2
  }
}

TEST(Square, Int32SquaresWrapLikeNumPy) {
  RunResult r = runCpu("square", 50000, DType::I32, {}, 1000 + 50000);
  ASSERT_EQ(r.status, Status::Ok) << r.reason;
  auto out = r.find("cpu-serial")->outputs.at(0).view<std::int32_t>();
  EXPECT_EQ(out[46340], 2147395600);   // the largest square below 2^31
  EXPECT_EQ(out[46341], -2147479015);  // 46341**2 = 2147488281 wraps to 2147488281 - 2^32
  expectCpuImplsPass(r);
}

TEST(Square, StartOneIsTheAtlasArangeOneToTwelve) {
  // np.arange(1, 13)**2 = [1, 4, 9, ..., 144].
  RunResult r = runCpu("square", 12, DType::I64, {{"start", "1"}});
  ASSERT_EQ(r.status, Status::Ok) << r.reason;
  expectCpuImplsPass(r);
  auto out = r.find("cpu-serial")->outputs.at(0).view<std::int64_t>();
  std::vector<std::int64_t> expected;
  for (std::int64_t k = 1; k <= 12; ++k) expected.push_back(k * k);
  EXPECT_EQ(std::vector<std::int64_t>(out.begin(), out.end()), expected);
}
