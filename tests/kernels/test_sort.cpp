#include <algorithm>

#include "cpu_impl_checks.h"
#include "launchlab/course/chapters.h"
#include "metadata_checks.h"

using namespace launchlab;
using namespace launchlab::test;

TEST(Sort, Metadata) { expectMetadata("sort", std::string(kChapterAtlasPython), 1); }

TEST(Sort, CpuVariantsSortTheSeedsUniforms) {
  for (DType t : {DType::F64, DType::F32})
    for (std::uint64_t n : {1ull, 2ull, 31ull, 100003ull}) {
      RunResult r = runCpu("sort", n, t);
      ASSERT_EQ(r.status, Status::Ok) << r.reason;
      expectCpuImplsPass(r);  // cpu-parallel's merged chunks equal std::sort's array exactly
      if (t != DType::F64) continue;
      auto out = r.find("cpu-parallel")->outputs.at(0).view<double>();
      EXPECT_TRUE(std::is_sorted(out.begin(), out.end())) << n;
      EXPECT_TRUE(std::all_of(out.begin(), out.end(), [](double v) { return v >= 5 && v < 10; })) << n;
    }
}
