// swap_with_shared on the CPU: the seed's [0, 1, 2, 3] -> [3, 2, 1, 0], segments of any size with a short last one
// (against indices computed here), and the seed's launch carried by its course preset.
#include "launchlab/course/chapters.h"
#include "metadata_checks.h"

using namespace launchlab;
using namespace launchlab::test;

namespace {

/// Every element of both CPU implementations' output against the mirror computed here from n and the segment.
void expectSegmentsReversed(std::uint64_t n, std::uint64_t segment, DType dtype) {
  SCOPED_TRACE("n=" + std::to_string(n) + " segment=" + std::to_string(segment));
  const RunResult r = runCpu("swap_with_shared", n, dtype, {{"segment", std::to_string(segment)}});
  expectCpuImplsPass(r);
  for (const char* impl : {"cpu-serial", "cpu-parallel"}) {
    const auto v = output(r, impl, "swapped").view<std::int32_t>();
    ASSERT_EQ(v.size(), n);
    for (std::uint64_t i = 0; i < n; ++i) {
      const std::uint64_t s0 = i - i % segment, end = std::min(n, s0 + segment);
      ASSERT_EQ(std::uint64_t(v[i]), s0 + (end - 1 - i)) << impl << " at " << i;  // the input is arange
    }
  }
}

}  // namespace

TEST(SwapWithShared, Metadata) {
  expectMetadata("swap_with_shared", std::string(kChapterMemory), 2);
  const auto& info = workload("swap_with_shared").info();
  EXPECT_EQ(info.inputs.at(0).name, "vector");
  EXPECT_EQ(info.outputs.at(0).name, "swapped");
  EXPECT_EQ(info.defaultN, 4u);
  EXPECT_EQ(info.defaultDType, DType::I32);
  const ImplSpec* race = nullptr;
  for (const auto& s : workload("swap_with_shared").impls())
    if (s.id == "cuda-shared-no-sync") race = &s;
  ASSERT_NE(race, nullptr);
  EXPECT_TRUE(race->demonstration);
}

TEST(SwapWithShared, TheSeedsFourElementsComeOutReversed) {
  const RunResult r = runCpu("swap_with_shared", 4, DType::I32);
  expectCpuImplsPass(r);
  const auto v = output(r, "cpu-serial", "swapped").view<std::int32_t>();
  EXPECT_EQ(std::vector<std::int32_t>(v.begin(), v.end()), (std::vector<std::int32_t>{3, 2, 1, 0}));
}

TEST(SwapWithShared, EverySegmentIsReversedIncludingAShortLastOne) {
  expectSegmentsReversed(1, 4, DType::I32);
  expectSegmentsReversed(10, 4, DType::I32);    // 4 + 4 + 2
  expectSegmentsReversed(1000, 1, DType::I32);  // segments of one: unchanged
  expectSegmentsReversed(5000, 1024, DType::I32);
  expectSegmentsReversed(4097, 4096, DType::I32);
}

TEST(SwapWithShared, SegmentOutsideItsRangeIsRefused) {
  RunRequest req;
  req.workload = "swap_with_shared";
  req.n = 8;
  for (const char* bad : {"0", "4097", "2.5"}) {
    req.params = {{"segment", bad}};
    EXPECT_FALSE(cpuEngine().validate(req).empty()) << bad;
  }
}
