// The access probes' arithmetic (launchlab/ptx/ptx_counters.h's modelProbe, which probe_emit.cpp mirrors) on synthetic
// warps: the textbook values of the memory lessons.
#include <gtest/gtest.h>

#include "launchlab/ptx/ptx_counters.h"

namespace launchlab::ptx {
namespace {

using Warp = std::array<Lane, kWarpLanes>;

/// A full warp where lane i addresses base + f(i).
template <typename F>
Warp warpOf(F addressOf, PtxSpace resolved = PtxSpace::Global) {
  Warp w;
  for (int i = 0; i < kWarpLanes; ++i) w[std::size_t(i)] = {true, addressOf(i), resolved};
  return w;
}

constexpr std::uint64_t kBase = 0x7f0000001000;  // 4 KiB aligned, as cudaMalloc's are (256 B)

TEST(PtxModel, StridedFloatLoadsTouchFourSectorsTimesTheStrideUpToThirtyTwo) {
  for (std::uint64_t stride = 1; stride <= 32; ++stride) {
    const auto r =
        modelProbe(warpOf([&](int i) { return kBase + 4 * stride * std::uint64_t(i); }), PtxSpace::Global, 4);
    EXPECT_EQ(r[kSectors], std::min<std::uint64_t>(4 * stride, 32)) << "stride " << stride;
    EXPECT_EQ(r[kGlobalRequests], 1u);
    EXPECT_EQ(r[kExecutions], 1u);
    EXPECT_EQ(r[kLanes], 32u);
  }
}

TEST(PtxModel, WiderElementsTouchMoreSectorsWhenCoalesced) {
  EXPECT_EQ(modelProbe(warpOf([](int i) { return kBase + 8 * std::uint64_t(i); }), PtxSpace::Global, 8)[kSectors], 8u);
  EXPECT_EQ(modelProbe(warpOf([](int i) { return kBase + 16 * std::uint64_t(i); }), PtxSpace::Global, 16)[kSectors],
            16u);
  EXPECT_EQ(modelProbe(warpOf([](int i) { return kBase + std::uint64_t(i); }), PtxSpace::Global, 1)[kSectors], 1u);
}

TEST(PtxModel, TwoDimensionalTilesCountTheirRows) {
  const std::uint64_t cols = 1024;
  // A 16 x 2 block's warp: two rows of 16 floats (64 bytes each), 4 sectors; a 32-wide warp on one row: 4.
  const auto tile16 =
      warpOf([&](int i) { return kBase + 4 * ((std::uint64_t(i) / 16) * cols + std::uint64_t(i) % 16); });
  EXPECT_EQ(modelProbe(tile16, PtxSpace::Global, 4)[kSectors], 4u);
  // An 8 x 4 block's warp: four rows of 32 bytes.
  const auto tile8 = warpOf([&](int i) { return kBase + 4 * ((std::uint64_t(i) / 8) * cols + std::uint64_t(i) % 8); });
  EXPECT_EQ(modelProbe(tile8, PtxSpace::Global, 4)[kSectors], 4u);
  // Down a column (the naive transpose's write): every lane its own sector.
  const auto column = warpOf([&](int i) { return kBase + 4 * std::uint64_t(i) * cols; });
  EXPECT_EQ(modelProbe(column, PtxSpace::Global, 4)[kSectors], 32u);
}

TEST(PtxModel, ATileColumnHasThirtyOneBankConflictsUnlessPadded) {
  for (const std::uint64_t width : {32u, 33u}) {
    // tile[threadIdx.x][ty] of a float tile[32][width]: lane i reads word i·width + 3.
    const auto r = modelProbe(warpOf([&](int i) { return 4 * (std::uint64_t(i) * width + 3); }, PtxSpace::Shared),
                              PtxSpace::Shared, 4);
    EXPECT_EQ(r[kSharedRequests], 1u);
    EXPECT_EQ(r[kIdealWavefronts], 1u);
    EXPECT_EQ(r[kWavefronts] - r[kIdealWavefronts], width == 32 ? 31u : 0u) << "width " << width;
    EXPECT_EQ(r[kGlobalRequests], 0u);
  }
}

TEST(PtxModel, SharedStridesConflictByTheirCommonFactorWithTheBanks) {
  for (const std::uint64_t stride : {1u, 2u, 4u, 8u, 16u, 32u, 3u}) {
    const auto r = modelProbe(warpOf([&](int i) { return 4 * stride * std::uint64_t(i); }), PtxSpace::Shared, 4);
    const std::uint64_t ways = stride % 2 == 1 ? 1 : std::min<std::uint64_t>(stride, 32);
    EXPECT_EQ(r[kWavefronts], ways) << "stride " << stride;
  }
}

TEST(PtxModel, ABroadcastIsOneWavefrontAndOneSector) {
  const auto same = warpOf([](int) { return std::uint64_t(256); });
  EXPECT_EQ(modelProbe(same, PtxSpace::Shared, 4)[kWavefronts], 1u);
  EXPECT_EQ(modelProbe(same, PtxSpace::Global, 4)[kSectors], 1u);
  // Bytes of one word are one unit: no conflict.
  const auto bytes = warpOf([](int i) { return std::uint64_t(i / 4 * 128 + i % 4); });
  EXPECT_EQ(modelProbe(bytes, PtxSpace::Shared, 1)[kWavefronts], 8u);  // 8 words in bank 0
}

TEST(PtxModel, WideSharedAccessesNeedSeveralWavefrontsWithoutConflict) {
  const auto d = modelProbe(warpOf([](int i) { return 8 * std::uint64_t(i); }), PtxSpace::Shared, 8);
  EXPECT_EQ(d[kWavefronts], 2u);
  EXPECT_EQ(d[kIdealWavefronts], 2u);
  const auto v4 = modelProbe(warpOf([](int i) { return 16 * std::uint64_t(i); }), PtxSpace::Shared, 16);
  EXPECT_EQ(v4[kWavefronts], 4u);
  EXPECT_EQ(v4[kIdealWavefronts], 4u);
  // Doubles two apart: every other 8-byte slot, twice the wavefronts.
  const auto d2 = modelProbe(warpOf([](int i) { return 16 * std::uint64_t(i); }), PtxSpace::Shared, 8);
  EXPECT_EQ(d2[kWavefronts] - d2[kIdealWavefronts], 2u);
}

TEST(PtxModel, OnlyLanesTakingPartCount) {
  auto w = warpOf([](int i) { return kBase + 4 * std::uint64_t(i); });
  for (int i = 16; i < kWarpLanes; ++i) w[std::size_t(i)].takesPart = false;
  const auto r = modelProbe(w, PtxSpace::Global, 4);
  EXPECT_EQ(r[kLanes], 16u);
  EXPECT_EQ(r[kSectors], 2u);
  for (auto& l : w) l.takesPart = false;
  EXPECT_EQ(modelProbe(w, PtxSpace::Global, 4), Record{});
}

TEST(PtxModel, GenericAddressesCountInTheSpaceTheyResolveTo) {
  auto w = warpOf([](int i) { return std::uint64_t(4 * i); });
  for (int i = 0; i < 8; ++i) w[std::size_t(i)].resolved = PtxSpace::Shared;
  for (int i = 8; i < 12; ++i) w[std::size_t(i)].resolved = PtxSpace::Local;
  const auto r = modelProbe(w, PtxSpace::Generic, 4);
  EXPECT_EQ(r[kLanes], 32u);
  EXPECT_EQ(r[kOtherLanes], 4u);
  EXPECT_EQ(r[kSharedRequests], 1u);
  EXPECT_EQ(r[kWavefronts], 1u);
  EXPECT_EQ(r[kGlobalRequests], 1u);
  EXPECT_EQ(r[kSectors], 3u);  // bytes 48..127 of the first 128
}

TEST(PtxModel, RecordsReduceToTheCountersPerKindAndLine) {
  PtxInstrumentation inst;
  PtxAccess load;
  load.counter = 0, load.file = "k.cu", load.line = 12, load.kind = PtxAccessKind::Load, load.widthBytes = 4;
  PtxAccess store = load;
  store.counter = 1, store.line = 13, store.kind = PtxAccessKind::Store;
  PtxAccess skipped = load;
  skipped.counter = -1, skipped.reason = "not counted";
  inst.accesses = {load, store, skipped};
  std::vector<std::uint64_t> rec(2 * kRecordFields, 0);
  rec[kExecutions] = 10, rec[kLanes] = 320, rec[kGlobalRequests] = 10, rec[kSectors] = 320;
  auto* st = rec.data() + kRecordFields;
  st[kExecutions] = 10, st[kLanes] = 160, st[kSharedRequests] = 10, st[kWavefronts] = 320, st[kIdealWavefronts] = 10;
  const auto c = reduceRecords(inst, rec);
  EXPECT_DOUBLE_EQ(c.values.at("sectors_per_request"), 32.0);
  EXPECT_EQ(c.values.count("store_sectors_per_request"), 0u);
  EXPECT_DOUBLE_EQ(c.values.at("bank_conflicts"), 310.0);
  EXPECT_DOUBLE_EQ(c.values.at("bank_conflicts_st"), 310.0);
  EXPECT_DOUBLE_EQ(c.values.at("shared_wavefronts_per_request"), 32.0);  // the 10 stores' 320 wavefronts
  EXPECT_DOUBLE_EQ(c.values.at("warp_execution_efficiency"), 75.0);
  ASSERT_EQ(c.lines.size(), 2u);
  EXPECT_EQ(describeLine(c.lines[0]),
            "line 12: each warp's load touches 32.0 sectors of global memory (4 is the ideal for 4-byte elements); "
            "10 warp requests, 100 % of the lanes active");
  EXPECT_NE(describeLine(c.lines[1]).find("31.0 more than the ideal"), std::string::npos);
  AccessCounterLine half = c.lines[0];
  half.sums[kLanes] = 5 * half.sums[kExecutions], half.widthBytes = 8;  // 5 lanes of doubles: 40 bytes, 2 sectors
  EXPECT_NE(describeLine(half).find("(2 is the ideal for 8-byte elements)"), std::string::npos) << describeLine(half);
}

}  // namespace
}  // namespace launchlab::ptx
