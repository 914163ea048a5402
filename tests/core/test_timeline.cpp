// Timelines (PlotKind::Timeline) and the overlap they achieved, on synthetic timelines checked by hand: fully
// serial, perfectly overlapped, overlapping spans of one engine merged, and the array layout round trip.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <stdexcept>

#include "launchlab/engine/workload.h"
#include "launchlab/explorer/timeline.h"

using namespace launchlab;

namespace {
constexpr auto H2D = TimelineEngine::H2D;
constexpr auto K = TimelineEngine::Kernel;
constexpr auto D2H = TimelineEngine::D2H;
}  // namespace

TEST(Timeline, UnionLengthMergesOverlappingAndTouchingIntervals) {
  EXPECT_DOUBLE_EQ(unionLength({}), 0.0);
  EXPECT_DOUBLE_EQ(unionLength({{0, 2}, {1, 3}}), 3.0);            // [0, 3)
  EXPECT_DOUBLE_EQ(unionLength({{5, 6}, {0, 1}, {1, 2}}), 3.0);    // [0, 2) and [5, 6), unsorted, touching
  EXPECT_DOUBLE_EQ(unionLength({{0, 10}, {2, 3}, {4, 5}}), 10.0);  // nested
  EXPECT_DOUBLE_EQ(unionLength({{3, 1}, {2, 2}, {0, 0.5}}), 0.5);  // reversed and empty ones ignored
}

TEST(Timeline, FullySerialSequenceUsesAThirdOfTheWall) {
  // The seed's sequence on one stream: 1 ms up, 1 ms kernel, 1 ms back.
  const OverlapStats o = overlapStats({{0, H2D, 0, 1}, {0, K, 1, 2}, {0, D2H, 2, 3}});
  EXPECT_EQ(o.spans, 3u);
  EXPECT_EQ(o.streams, 1);
  EXPECT_DOUBLE_EQ(o.wallMs, 3.0);
  EXPECT_DOUBLE_EQ(o.busyMs[0], 1.0);
  EXPECT_DOUBLE_EQ(o.busyMs[1], 1.0);
  EXPECT_DOUBLE_EQ(o.busyMs[2], 1.0);
  EXPECT_DOUBLE_EQ(o.busiestMs, 1.0);
  EXPECT_DOUBLE_EQ(o.overlapFraction, 1.0 / 3.0);
}

TEST(Timeline, PerfectlyOverlappedWorkHidesUnderTheBusiestEngine) {
  // Copies up take 4 ms on stream 0; the kernels and copies back of stream 1 run entirely inside them.
  const OverlapStats o = overlapStats({{0, H2D, 0, 4}, {1, K, 0.5, 2.5}, {1, D2H, 1, 4}});
  EXPECT_EQ(o.streams, 2);
  EXPECT_DOUBLE_EQ(o.wallMs, 4.0);
  EXPECT_EQ(o.busiest, H2D);
  EXPECT_DOUBLE_EQ(o.busiestMs, 4.0);
  EXPECT_DOUBLE_EQ(o.overlapFraction, 1.0);
}

TEST(Timeline, OverlappingSpansOfOneEngineCountOnce) {
  // Two streams' copies up overlap on the one copy engine ([0, 2) and [1, 3): 3 ms busy, not 4), then a kernel.
  const OverlapStats o = overlapStats({{0, H2D, 0, 2}, {1, H2D, 1, 3}, {1, K, 3, 4}});
  EXPECT_DOUBLE_EQ(o.busyMs[0], 3.0);
  EXPECT_DOUBLE_EQ(o.busyMs[1], 1.0);
  EXPECT_DOUBLE_EQ(o.busyMs[2], 0.0);
  EXPECT_DOUBLE_EQ(o.wallMs, 4.0);
  EXPECT_DOUBLE_EQ(o.overlapFraction, 0.75);
}

TEST(Timeline, FourStreamPipelineOfEqualCopies) {
  // Four chunks, one per stream: up 1 ms each back to back, kernel 0.1 ms, back 1 ms as soon as the kernel ends.
  // Both copy engines are busy 4 ms; the wall is 4 + 0.1 + 1 = 5.1 ms (the last chunk's kernel and copy back).
  std::vector<TimelineSpan> spans;
  for (int c = 0; c < 4; ++c) {
    spans.push_back({c, H2D, double(c), c + 1.0});
    spans.push_back({c, K, c + 1.0, c + 1.1});
    spans.push_back({c, D2H, c + 1.1, c + 2.1});
  }
  const OverlapStats o = overlapStats(spans);
  EXPECT_EQ(o.streams, 4);
  EXPECT_NEAR(o.busyMs[0], 4.0, 1e-12);
  EXPECT_NEAR(o.busyMs[1], 0.4, 1e-12);
  EXPECT_NEAR(o.busyMs[2], 4.0, 1e-12);
  EXPECT_NEAR(o.wallMs, 5.1, 1e-12);
  EXPECT_NEAR(o.overlapFraction, 4.0 / 5.1, 1e-12);
}

TEST(Timeline, NoSpansNoOverlap) {
  const OverlapStats o = overlapStats({});
  EXPECT_EQ(o.spans, 0u);
  EXPECT_EQ(o.wallMs, 0.0);
  EXPECT_EQ(o.overlapFraction, 0.0);
}

TEST(Timeline, ArrayRoundTripSkipsUnusedColumns) {
  HostArray a("timeline", DType::F64, {4, 5});
  const std::vector<TimelineSpan> spans = {{0, H2D, 0, 1.5}, {2, D2H, 1.5, 2.25}};
  writeTimeline(a, spans);
  const auto v = a.view<double>();
  // Column-wise layout: rows stream, engine, start, end.
  EXPECT_EQ(v[0], 0.0);
  EXPECT_EQ(v[1], 2.0);
  EXPECT_EQ(v[5 + 1], 2.0);  // engine of column 1: D2H
  EXPECT_EQ(v[10 + 1], 1.5);
  EXPECT_EQ(v[15 + 1], 2.25);
  EXPECT_TRUE(std::isnan(v[2]) && std::isnan(v[19]));
  EXPECT_EQ(timelineSpans(a), spans);
  writeTimeline(a, {});  // no operations: every column unused
  EXPECT_TRUE(timelineSpans(a).empty());
}

TEST(Timeline, MalformedArraysGiveNoSpansAndWritesAreChecked) {
  HostArray wrongRows("t", DType::F64, {3, 4});
  EXPECT_TRUE(timelineSpans(wrongRows).empty());
  HostArray bad("t", DType::F64, {4, 2});
  const double badEngine[8] = {0, 0, 7, 1, 0, 0, 1, 1};  // column 0: engine 7; column 1: fine
  std::copy(badEngine, badEngine + 8, bad.view<double>().begin());
  ASSERT_EQ(timelineSpans(bad).size(), 1u);
  EXPECT_EQ(timelineSpans(bad)[0].engine, K);
  HostArray small("t", DType::F64, {4, 1});
  EXPECT_THROW(writeTimeline(small, {{0, H2D, 0, 1}, {0, K, 1, 2}}), std::logic_error);
  HostArray f32("t", DType::F32, {4, 4});
  EXPECT_THROW(writeTimeline(f32, {}), std::logic_error);
  EXPECT_EQ(plotKindName(PlotKind::Timeline), "timeline");
  EXPECT_EQ(timelineEngineName(D2H), "D2H copy");
}
