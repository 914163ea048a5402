// coalescing on the CPU: out[i] = a[s·i] + b[s·i] on odd sizes against sums computed here, the 32-byte-sector math
// against a count of distinct sectors made here from the byte addresses, the pictures, and the verification of the
// coalesced kernel (a[i] + b[i]) against its own formula.
#include <set>

#include "coalescing/coalescing.h"
#include "launchlab/course/chapters.h"
#include "metadata_checks.h"

using namespace launchlab;
using namespace launchlab::test;
using namespace launchlab::kernels::coalescing;

namespace {

/// Distinct 32-byte sectors of 32 loads at byte addresses elemBytes·stride·(32·warp + lane): a set, not the formula.
std::size_t distinctSectors(std::uint64_t stride, std::uint32_t elemBytes, std::uint64_t warp) {
  std::set<std::uint64_t> s;
  for (std::uint64_t lane = 0; lane < 32; ++lane) s.insert((warp * 32 + lane) * stride * elemBytes / 32);
  return s.size();
}

template <typename T>
void expectStridedSums(std::uint64_t n, std::uint64_t stride, DType dtype) {
  SCOPED_TRACE("n=" + std::to_string(n) + " stride=" + std::to_string(stride));
  const RunResult r = runCpu("coalescing", n, dtype, {{"stride", std::to_string(stride)}}, n + stride);
  expectCpuImplsPass(r);
  ASSERT_EQ(r.inputs[0].shape(), (std::vector<std::size_t>{n * stride}));
  const auto a = r.inputs[0].view<T>(), b = r.inputs[1].view<T>();
  for (const char* impl : {"cpu-serial", "cpu-parallel"}) {
    const auto out = output(r, impl, "out").view<T>();
    ASSERT_EQ(out.size(), n);
    for (std::size_t i = 0; i < n; ++i) ASSERT_EQ(out[i], T(a[i * stride] + b[i * stride])) << impl << " i=" << i;
  }
}

}  // namespace

TEST(Coalescing, Metadata) {
  expectMetadata("coalescing", std::string(kChapterMemory), 2);
  const auto& info = workload("coalescing").info();
  EXPECT_EQ(info.inputs[0].name, "a");
  EXPECT_EQ(info.inputs[1].name, "b");
  EXPECT_EQ(info.outputs[0].name, "out");
  EXPECT_EQ(info.outputs[1].name, "sectors");
  EXPECT_EQ(info.outputs[1].plot, PlotKind::Image);
  EXPECT_EQ(info.outputs[2].plot, PlotKind::Series);
  EXPECT_EQ(info.defaultN, 1u << 20);
  EXPECT_EQ(info.params[0].name, "stride");
  EXPECT_EQ(info.params[0].defaultValue, 16);
}

TEST(Coalescing, SectorsPerWarpLoadOnKnownCases) {
  EXPECT_EQ(sectorsPerWarpLoad(1, 4), 4u);  // 128 contiguous bytes
  EXPECT_EQ(sectorsPerWarpLoad(2, 4), 8u);
  EXPECT_EQ(sectorsPerWarpLoad(4, 4), 16u);
  for (std::uint64_t s : {8, 9, 16, 32, 64}) EXPECT_EQ(sectorsPerWarpLoad(s, 4), 32u) << s;  // a sector per lane
  EXPECT_EQ(sectorsPerWarpLoad(1, 8), 8u);
  EXPECT_EQ(sectorsPerWarpLoad(4, 8), 32u);
  EXPECT_EQ(sectorSpan(1, 4), 4u);
  EXPECT_EQ(sectorSpan(16, 4), 63u);  // lane 31 loads byte 31·64 = 1984: sector 62
}

TEST(Coalescing, SectorFormulaMatchesAddressesForEveryStrideAndWarp) {
  for (std::uint32_t bytes : {4u, 8u})
    for (std::uint64_t s = 1; s <= kMaxStride; ++s)
      for (std::uint64_t w : {0, 1, 7, 1000})
        ASSERT_EQ(sectorsPerWarpLoad(s, bytes, w), distinctSectors(s, bytes, w)) << s << " " << bytes << " " << w;
  EXPECT_EQ(sectorsPerWarpLoad(3, 4), distinctSectors(3, 4, 0));  // odd strides straddle sectors: 12
  EXPECT_EQ(sectorsPerWarpLoad(3, 4), 12u);
}

TEST(Coalescing, CpuImplsGatherTheStridedElementsOnOddSizes) {
  expectStridedSums<float>(1, 16, DType::F32);
  expectStridedSums<float>(31, 3, DType::F32);
  expectStridedSums<float>(1000003, 1, DType::F32);
  expectStridedSums<double>(1000, 64, DType::F64);
}

TEST(Coalescing, SectorPicturesAreTheWarpsLoads) {
  // The coalesced map (4 sectors of 8 lanes), a column between, then the map at the run's stride.
  const RunResult r1 = runCpu("coalescing", 100, DType::F32, {{"stride", "1"}});
  const HostArray& p1 = output(r1, "cpu-serial", "sectors");
  ASSERT_EQ(p1.shape(), (std::vector<std::size_t>{32, 4 + 1 + 4}));
  for (std::size_t lane = 0; lane < 32; ++lane)
    for (std::size_t c = 0; c < 9; ++c) {
      const std::int32_t want = c == 4 ? kBetweenPictures : c % 5 == lane / 8 ? 8 : 0;
      EXPECT_EQ(p1.view<std::int32_t>()[lane * 9 + c], want) << lane << " " << c;
    }
  const RunResult r8 = runCpu("coalescing", 100, DType::F32, {{"stride", "8"}});
  const HostArray& p8 = output(r8, "cpu-parallel", "sectors");
  ASSERT_EQ(p8.shape(), (std::vector<std::size_t>{32, 4 + 1 + 32}));
  for (std::size_t lane = 0; lane < 32; ++lane)
    for (std::size_t s = 0; s < 32; ++s) EXPECT_EQ(p8.view<std::int32_t>()[lane * 37 + 5 + s], s == lane ? 1 : 0);
  EXPECT_EQ(p8.view<std::int32_t>()[3 * 37 + 0], 8);  // lane 3's coalesced load shares sector 0 with 7 others
  const auto series = output(r8, "cpu-serial", "sectors_per_stride").view<double>();
  ASSERT_EQ(series.size(), 2 * kMaxStride);
  for (std::uint64_t s = 1; s <= kMaxStride; ++s) {
    EXPECT_EQ(series[s - 1], double(s));
    EXPECT_EQ(series[kMaxStride + s - 1], double(distinctSectors(s, 4, 0)));
  }
  EXPECT_EQ(r8.find("cpu-serial")->metrics.at("sectors_per_warp_load"), 32.0);
}

TEST(Coalescing, CoalescedKernelIsVerifiedAgainstContiguousSums) {
  const RunResult r = runCpu("coalescing", 1000, DType::F32, {{"stride", "4"}});
  ASSERT_EQ(r.status, Status::Ok);
  const auto& ref = r.find("cpu-serial")->outputs;
  std::vector<HostArray> got = ref;
  const auto a = r.inputs[0].view<float>(), b = r.inputs[1].view<float>();
  for (std::size_t i = 0; i < 1000; ++i) got[0].view<float>()[i] = a[i] + b[i];
  const Workload& w = workload("coalescing");
  const RunSetup s = setupFor("coalescing", 1000, DType::F32, {{"stride", "4"}});
  EXPECT_EQ(w.verifyWithInputs(s, r.inputs, ref, got, spec("coalescing", "cuda-coalesced")).outcome,
            Verification::Outcome::Pass);
  EXPECT_EQ(w.verifyWithInputs(s, r.inputs, ref, got, spec("coalescing", "cuda-strided")).outcome,
            Verification::Outcome::Fail);
  EXPECT_EQ(w.verifyWithInputs(s, r.inputs, ref, ref, spec("coalescing", "cuda-coalesced")).outcome,
            Verification::Outcome::Fail);
}

TEST(Coalescing, BytesAreTheUsefulOnesAndHugeInputsAreRefused) {
  const RunSetup s = setupFor("coalescing", 1 << 20, DType::F32);
  EXPECT_EQ(workload("coalescing").bytesMoved(s), 3.0 * 4 * (1 << 20));
  EXPECT_NE(firstProblem("coalescing", std::uint64_t(1) << 26, DType::F32, {{"stride", "64"}}).find("more than 2^31"),
            std::string::npos);
  EXPECT_EQ(firstProblem("coalescing", 1000, DType::F32, {{"stride", "64"}}), "");
}
