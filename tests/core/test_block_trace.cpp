// Blocks on SMs (launchlab/explorer/block_trace.h) on synthetic traces checked by hand: SMs used, blocks per SM,
// concurrency, waves observed against the occupancy's prediction, the tail, and the relative times.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "launchlab/engine/errors.h"
#include "launchlab/engine/result.h"
#include "launchlab/explorer/block_trace.h"
#include "launchlab/files/json_value.h"

using namespace launchlab;

namespace {

/// 7 blocks on SMs 0 and 1 of a 3-SM device, 2 resident per SM:
///   SM 0: blocks 0, 1 in [0, 10), then 4, 5 in [10, 20)   (two waves, full)
///   SM 1: blocks 2, 3 in [0, 10), then 6 in [12, 30)      (a partial second wave that runs long)
std::vector<BlockRecord> imbalanced() {
  return {{0, 0, 0, 10}, {1, 0, 0, 10}, {2, 1, 0, 10}, {3, 1, 0, 10}, {4, 0, 10, 20}, {5, 0, 10, 20}, {6, 1, 12, 30}};
}

}  // namespace

TEST(BlockTrace, SummaryOfAnImbalancedLaunch) {
  const BlockTraceSummary s = summarizeBlockTrace(imbalanced(), 3, 2);
  EXPECT_EQ(s.blocks, 7u);
  EXPECT_EQ(s.smCount, 3);
  EXPECT_EQ(s.smsUsed, 2);  // SM 2 ran nothing
  EXPECT_EQ(s.minBlocksPerSm, 3u);
  EXPECT_EQ(s.maxBlocksPerSm, 4u);
  // Blocks 4 and 5 start when 0 and 1 end (half-open intervals): never more than 2 at once.
  EXPECT_EQ(s.maxConcurrentPerSm, 2);
  // Predicted: 7 blocks / (3 SMs x 2) = 1 full wave of 6, then 1 block.
  EXPECT_EQ(s.predicted.perWave, 6u);
  EXPECT_EQ(s.predicted.full, 1u);
  EXPECT_EQ(s.predicted.lastBlocks, 1u);
  EXPECT_DOUBLE_EQ(s.predicted.waves, 7.0 / 6.0);
  // Observed: the busiest SM ran 4 blocks, 2 at a time.
  EXPECT_EQ(s.wavesObserved, 2u);
  EXPECT_DOUBLE_EQ(s.spanNs, 30.0);
  // SM 0 ran out of blocks at 20, SM 1 finished at 30.
  EXPECT_DOUBLE_EQ(s.tailNs, 10.0);
}

TEST(BlockTrace, ObservedConcurrencyStandsInForAnUnknownOccupancy) {
  // Three overlapping blocks on one SM, then a fourth after them: 3 at once, so 4 blocks are 2 waves of 3.
  const std::vector<BlockRecord> r = {{0, 5, 0, 8}, {1, 5, 2, 9}, {2, 5, 4, 6}, {3, 5, 9, 12}};
  const BlockTraceSummary s = summarizeBlockTrace(r, 0, 0);
  EXPECT_EQ(s.maxConcurrentPerSm, 3);
  EXPECT_EQ(s.wavesObserved, 2u);
  EXPECT_EQ(s.predicted.perWave, 0u);  // unknown
  EXPECT_EQ(s.smsUsed, 1);
  EXPECT_DOUBLE_EQ(s.tailNs, 0.0);  // one SM: nobody idles before the end
  EXPECT_DOUBLE_EQ(s.spanNs, 12.0);
}

TEST(BlockTrace, EmptyTraceSummarizesToNothing) {
  const BlockTraceSummary s = summarizeBlockTrace({}, 132, 8);
  EXPECT_EQ(s.blocks, 0u);
  EXPECT_EQ(s.smsUsed, 0);
  EXPECT_EQ(s.wavesObserved, 0u);
  EXPECT_EQ(blockTraceSummaryLines(s), std::vector<std::string>{"no block traced"});
}

TEST(BlockTrace, RelativeRecordsStartAtTheEarliestStartAndDropUnstampedBlocks) {
  const std::vector<BlockRecord> absolute = {
      {0, 3, 1'000'500, 1'002'000}, {1, 4, 1'000'000, 1'001'000}, {2, 3, 0, 0}, {3, 4, 1'003'000, 1'002'999}};
  const auto r = relativeBlockRecords(absolute);
  ASSERT_EQ(r.size(), 2u);  // block 2 never stamped, block 3 ends before it starts
  EXPECT_EQ(r[0], (BlockRecord{0, 3, 500, 2000}));
  EXPECT_EQ(r[1], (BlockRecord{1, 4, 0, 1000}));
  EXPECT_TRUE(relativeBlockRecords({}).empty());
}

TEST(BlockTrace, SummaryLinesStateBlocksWavesAndTail) {
  const auto lines = blockTraceSummaryLines(summarizeBlockTrace(imbalanced(), 3, 2));
  ASSERT_EQ(lines.size(), 3u);
  EXPECT_EQ(lines[0], "blocks: 7 on 2 of 3 SMs, 3 to 4 per SM; up to 2 at once on one SM (occupancy: 2 resident)");
  EXPECT_EQ(lines[1], "waves: 2 observed on the busiest SM, 1.17 predicted (7 blocks / 6 per wave: 1 full, then 1)");
  EXPECT_EQ(lines[2],
            "time: 0.03 us from the first block's start to the last one's end; tail 0.01 us (33%) after the first SM "
            "ran out of blocks");
}

TEST(BlockTrace, ResultSummaryTakesTheOccupancyOfTheTracedLaunch) {
  ImplResult r;
  r.blockTrace = imbalanced();
  // The second kernel's grid is the traced one (7 blocks): its 2 resident blocks per SM count, not the first's 5.
  r.kernelOccupancy = {{.gridBlocks = 1, .blocksPerSm = 5}, {.gridBlocks = 7, .blocksPerSm = 2}};
  DeviceStatus d;
  d.available = true;
  d.info.multiprocessors = 3;
  BlockTraceSummary s = summarizeBlockTrace(r, d);
  EXPECT_EQ(s.residentPerSm, 2);
  EXPECT_EQ(s.smCount, 3);
  EXPECT_EQ(s.predicted.perWave, 6u);
  r.kernelOccupancy = {{.gridBlocks = 99, .blocksPerSm = 4}};  // no launch of 7 blocks: the first kernel's
  s = summarizeBlockTrace(r, DeviceStatus{});
  EXPECT_EQ(s.residentPerSm, 4);
  EXPECT_EQ(s.smCount, 0);         // no device: unknown
  EXPECT_EQ(s.wavesObserved, 1u);  // 4 blocks on SM 0, 4 resident
}

TEST(BlockTrace, WavesNumberEachSmsBlocksInStartOrder) {
  // SM 0: 0, 1 (wave 0), 4, 5 (wave 1); SM 1: 2, 3 (wave 0), 6 (wave 1).
  EXPECT_EQ(blockWaves(imbalanced(), 2), (std::vector<int>{0, 0, 0, 0, 1, 1, 1}));
  // One resident block per SM: each block its own wave, in start order.
  EXPECT_EQ(blockWaves(imbalanced(), 1), (std::vector<int>{0, 1, 0, 1, 2, 3, 2}));
  // Unknown occupancy: the observed concurrency (2) stands in.
  EXPECT_EQ(blockWaves(imbalanced(), 0), blockWaves(imbalanced(), 2));
}

// A trace read from a file or a result names SMs a GPU can have: an index near INT_MAX (which hung the window's
// view) is refused when the result is read, with the reason.
TEST(BlockTrace, ReadingRefusesAnSmIndexNoGpuHas) {
  ImplResult r;
  r.implId = "cuda";
  r.blockTrace = imbalanced();
  EXPECT_EQ(nlohmann::ordered_json(r).get<ImplResult>().blockTrace, r.blockTrace);
  r.blockTrace[6].sm = kMaxTracedSms - 1;
  EXPECT_EQ(nlohmann::ordered_json(r).get<ImplResult>().blockTrace, r.blockTrace);
  r.blockTrace[6].sm = 2147483646u;
  try {
    (void)nlohmann::ordered_json(r).get<ImplResult>();
    FAIL() << "an SM index of 2147483646 was accepted";
  } catch (const BadInput& e) {
    EXPECT_NE(std::string(e.what()).find("SM index 2147483646"), std::string::npos) << e.what();
  }
}
