// streams_overlap on the CPU: metadata, the increment (wrap-around included) by both CPU implementations, the CPU's
// empty timeline, the chunking and the metrics the CUDA variants report from their measured sequences.
#include <cmath>
#include <limits>

#include "launchlab/course/chapters.h"
#include "launchlab/explorer/timeline.h"
#include "metadata_checks.h"
#include "streams_overlap/streams_overlap.h"

using namespace launchlab;
using namespace launchlab::test;
namespace so = launchlab::kernels::streams_overlap;

TEST(StreamsOverlap, Metadata) {
  expectMetadata("streams_overlap", std::string(kChapterStreams), 4);
  const auto& info = workload("streams_overlap").info();
  EXPECT_EQ(info.defaultN, std::uint64_t(16) << 20);  // n = 16 * 1024 * 1024
  EXPECT_EQ(info.defaultDType, DType::I32);
  ASSERT_EQ(info.outputs.size(), 2u);
  EXPECT_EQ(info.outputs[0].name, "timeline");
  EXPECT_EQ(info.outputs[0].plot, PlotKind::Timeline);
  EXPECT_EQ(info.outputs[1].name, "a");
  for (const char* id : {"cuda-seed", "cuda-async", "cuda-pageable-sync", "cuda-streams"})
    EXPECT_TRUE(spec("streams_overlap", id).usesLaunchConfig) << id;
  const RunSetup s = setupFor("streams_overlap", 1000, DType::I32);
  EXPECT_EQ(s.params.integer("v"), 26);
  EXPECT_EQ(s.params.integer("streams"), 4);
  EXPECT_EQ(workload("streams_overlap").outputShapes(s),
            (std::vector<std::vector<std::size_t>>{{4, 48}, {1000}}));  // 3 operations x 16 chunks
  EXPECT_EQ(workload("streams_overlap").bytesMoved(s), 8000.0);         // a read and written once
}

TEST(StreamsOverlap, CpuAddsVToZerosAndTheCpuHasNoTimeline) {
  const RunResult r = runCpu("streams_overlap", 1000, DType::I32);
  expectCpuImplsPass(r);
  for (const char* impl : {"cpu-serial", "cpu-parallel"}) {
    for (std::int32_t x : output(r, impl, "a").view<std::int32_t>()) ASSERT_EQ(x, 26) << impl;
    EXPECT_TRUE(timelineSpans(output(r, impl, "timeline")).empty()) << impl;  // all NaN: CUDA only
  }
}

TEST(StreamsOverlap, RandomInputsWrapAroundLikeTheGpu) {
  for (std::uint64_t n : {1ull, 31ull, 1000003ull}) {
    const RunResult r = runCpu("streams_overlap", n, DType::I32, {{"input", "random"}, {"v", "-1000"}}, 99 + n);
    expectCpuImplsPass(r);
    const auto in = r.inputs.at(0).view<std::int32_t>();
    const auto out = output(r, "cpu-serial", "a").view<std::int32_t>();
    for (std::size_t i = 0; i < n; ++i) {
      const std::int64_t wrapped = (std::int64_t(in[i]) - 1000 + (std::int64_t(1) << 32)) % (std::int64_t(1) << 32);
      ASSERT_EQ(std::uint32_t(out[i]), std::uint32_t(wrapped)) << i;
    }
  }
  EXPECT_EQ(so::increment(std::numeric_limits<std::int32_t>::max(), 26), std::numeric_limits<std::int32_t>::min() + 25);
  EXPECT_EQ(so::increment(std::numeric_limits<std::int32_t>::min(), -1), std::numeric_limits<std::int32_t>::max());
  EXPECT_EQ(so::increment(0, 26), 26);
}

TEST(StreamsOverlap, ChunkCountCoversTheArrayWithNoEmptyChunk) {
  EXPECT_EQ(so::chunkCount(16u << 20, 16), 16u);
  EXPECT_EQ(so::chunkCount(10, 4), 4u);  // chunks of ceil(10 / 4) = 3: 3, 3, 3, 1
  EXPECT_EQ(so::chunkCount(9, 4), 3u);   // chunks of 3: three of them, a fourth would be empty
  EXPECT_EQ(so::chunkCount(3, 16), 3u);  // one element each
  EXPECT_EQ(so::chunkCount(5, 1), 1u);
}

TEST(StreamsOverlap, FinishSequencesReportsMediansOverlapAndTheLastTimeline) {
  const RunSetup s = setupFor("streams_overlap", 8, DType::I32, {{"chunks", "2"}});
  const auto& w = workload("streams_overlap");
  std::vector<HostArray> in = w.makeInputs(s), out = w.makeOutputs(s);
  ImplContext ctx(s, in, out);
  std::vector<so::SequenceSample> reps(3);
  const double event[3] = {3.0, 2.0, 9.0}, api[3] = {0.1, 0.3, 0.2}, polls[3] = {10, 1000, 30};
  for (int k = 0; k < 3; ++k) {
    reps[std::size_t(k)].eventMs = event[k];
    reps[std::size_t(k)].cpuApiMs = api[k];
    reps[std::size_t(k)].polls = polls[k];
  }
  // The shown (last) repetition: two streams' copies up overlap ([0, 2), [1, 3): 3 ms busy), kernel [3, 4).
  reps[2].spans = {{0, TimelineEngine::H2D, 0, 2}, {1, TimelineEngine::H2D, 1, 3}, {1, TimelineEngine::Kernel, 3, 4}};
  so::finishSequences(ctx, reps);
  EXPECT_DOUBLE_EQ(ctx.metrics.at("event_ms"), 3.0);
  EXPECT_DOUBLE_EQ(ctx.metrics.at("cpu_api_ms"), 0.2);
  EXPECT_DOUBLE_EQ(ctx.metrics.at("poll_count"), 30.0);
  EXPECT_DOUBLE_EQ(ctx.metrics.at("wall_ms"), 4.0);
  EXPECT_DOUBLE_EQ(ctx.metrics.at("busiest_engine_ms"), 3.0);
  EXPECT_DOUBLE_EQ(ctx.metrics.at("overlap_fraction"), 0.75);
  EXPECT_DOUBLE_EQ(ctx.metrics.at("h2d_busy_ms"), 3.0);
  EXPECT_DOUBLE_EQ(ctx.metrics.at("d2h_busy_ms"), 0.0);
  EXPECT_EQ(timelineSpans(ctx.output("timeline")), reps[2].spans);
}
