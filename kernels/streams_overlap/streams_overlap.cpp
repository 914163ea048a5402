#include "streams_overlap/streams_overlap.h"

#include <algorithm>
#include <limits>

#include "common/cpu_loops.h"
#include "launchlab/engine/registry.h"
#include "launchlab/engine/rng.h"
#include "launchlab/engine/verify.h"

namespace launchlab::kernels {

namespace streams_overlap {

namespace {
double median(std::vector<double> v) { return summarize(std::move(v)).medianMs; }
}  // namespace

void finishSequences(ImplContext& ctx, const std::vector<SequenceSample>& reps) {
  if (reps.empty()) return;
  std::vector<double> event, api, polls;
  for (const auto& r : reps) {
    event.push_back(r.eventMs);
    api.push_back(r.cpuApiMs);
    polls.push_back(r.polls);
  }
  ctx.metrics["event_ms"] = median(event);
  ctx.metrics["cpu_api_ms"] = median(api);
  ctx.metrics["poll_count"] = median(polls);
  const auto& shown = reps.back().spans;
  const OverlapStats o = overlapStats(shown);
  ctx.metrics["wall_ms"] = o.wallMs;
  ctx.metrics["busiest_engine_ms"] = o.busiestMs;
  ctx.metrics["overlap_fraction"] = o.overlapFraction;
  ctx.metrics["h2d_busy_ms"] = o.busyMs[std::size_t(TimelineEngine::H2D)];
  ctx.metrics["kernel_busy_ms"] = o.busyMs[std::size_t(TimelineEngine::Kernel)];
  ctx.metrics["d2h_busy_ms"] = o.busyMs[std::size_t(TimelineEngine::D2H)];
  writeTimeline(ctx.output("timeline"), shown);
}

std::uint64_t chunkCount(std::uint64_t n, std::uint64_t chunks) {
  const std::uint64_t perChunk = ceilDiv(n, std::max<std::uint64_t>(chunks, 1));
  return perChunk ? ceilDiv(n, perChunk) : 0;
}

}  // namespace streams_overlap

namespace {

using namespace streams_overlap;

constexpr std::size_t kOutputA = 1;  ///< outputs: timeline, a

/// The increment on the host; no copies and no streams, so no timeline (all NaN: "CUDA implementations only").
template <bool Parallel>
void runCpu(ImplContext& ctx) {
  const std::int32_t v = std::int32_t(ctx.setup.params.integer("v"));
  const std::int32_t* in = ctx.input("a").view<std::int32_t>().data();
  std::int32_t* out = ctx.output("a").view<std::int32_t>().data();
  runCpuTimed(ctx, [&] { forEachIndex<Parallel>(ctx.setup.n, [=](std::size_t i) { out[i] = increment(in[i], v); }); });
  writeTimeline(ctx.output("timeline"), {});
}

class StreamsOverlap final : public BasicWorkload {
 public:
  StreamsOverlap() {
    auto& i = m_info;
    i.id = "streams_overlap";
    i.title = "Streams and events: asynchronous copies, CPU polling, overlap";
    i.chapter = kChapterStreams;
    i.dtypes = {DType::I32};
    i.defaultDType = DType::I32;
    i.defaultN = std::uint64_t(16) << 20;
    i.maxN = std::uint64_t(1) << 30;
    i.params = {
        {.name = "v",
         .label = "Increment",
         .help = "inc_value: g[i] += v (the seed's value = 26; warm-up: -v then +v).",
         .kind = ParamSpec::Kind::Integer,
         .defaultValue = 26,
         .minValue = -1e9,
         .maxValue = 1e9},
        {.name = "streams",
         .label = "Streams",
         .help = "cuda-streams: CUDA streams the chunks are dealt to (chunk c on stream c mod k).",
         .kind = ParamSpec::Kind::Integer,
         .defaultValue = 4,
         .minValue = 1,
         .maxValue = 32},
        {.name = "chunks",
         .label = "Chunks",
         .help = "cuda-streams: pieces the array is cut into, each copied up, incremented and copied back on its "
                 "stream. Also sizes the timeline output (3 operations per chunk).",
         .kind = ParamSpec::Kind::Integer,
         .defaultValue = 16,
         .minValue = 1,
         .maxValue = 1024,
         .logScale = true},
        {.name = "input",
         .label = "Input",
         .help = "zeros: the seed's a[:] = 0; random: every int32 value possible (wrap-around included).",
         .kind = ParamSpec::Kind::Choice,
         .choices = {"zeros", "random"}},
    };
    i.inputs = {
        {.name = "a", .title = "a (host array, pinned for the CUDA variants)", .xLabel = "element", .yLabel = "a[i]"}};
    i.outputs = {{.name = "timeline",
                  .title = "Timeline (CUDA events)",
                  .plot = PlotKind::Timeline,
                  .xLabel = "ms after the start event",
                  .yLabel = "stream",
                  .dtype = DType::F64},
                 {.name = "a", .title = "a after the sequence (a + v)", .xLabel = "element", .yLabel = "a[i]"}};

    addReference("CPU serial", "One core adds v to every element: the reference for a.", runCpu<false>);
    addCpu("cpu-parallel", "CPU parallel (OpenMP + SIMD)", "All cores add v.", runCpu<true>);
    addGpu("cuda-seed", "CUDA the seed's sequence (synchronous copy back)",
           "The seed's cell: pinned a, copy up on the stream, kernel on the stream, but copy_to_host() without a "
           "stream is a synchronous cudaMemcpy: the host waits in it, so the poll count stays near 0.",
           LAUNCHLAB_CUDA_ENTRY(streams_overlap::cudaSeed));
    addGpu("cuda-async", "CUDA pinned, all asynchronous",
           "The same sequence with the copy back on the stream too: every call returns at once and the CPU polls "
           "the stop event while the GPU works (a large poll count).",
           LAUNCHLAB_CUDA_ENTRY(streams_overlap::cudaAsync));
    addGpu("cuda-pageable-sync", "CUDA pageable, synchronous copies",
           "Ordinary (pageable) host memory and cudaMemcpy both ways, like cuda.to_device / copy_to_host: the "
           "driver stages through its own pinned buffer and the host waits for each copy.",
           LAUNCHLAB_CUDA_ENTRY(streams_overlap::cudaPageableSync));
    addGpu("cuda-streams", "CUDA k streams over chunks (overlap)",
           "Pinned a cut into chunks dealt to k streams; each chunk is copied up, incremented and copied back on its "
           "stream, so one chunk's copy up runs beside another's copy back and a third's kernel.",
           LAUNCHLAB_CUDA_ENTRY(streams_overlap::cudaStreams));
  }

  std::vector<HostArray> makeInputs(const RunSetup& s) const override {
    auto v = allocateInputs(s);
    auto a = v[0].view<std::int32_t>();
    const bool random = s.params.choice("input") == "random";
    const std::uint64_t seed = s.seed;
    forEachIndex<true>(a.size(), [&](std::size_t i) { a[i] = random ? std::int32_t(counterBits(seed, 0, i)) : 0; });
    return v;
  }
  std::vector<std::vector<std::size_t>> outputShapes(const RunSetup& s) const override {
    return {{4, std::size_t(3 * s.params.integer("chunks"))}, {std::size_t(s.n)}};
  }
  /// The increment reads and writes a once (and the sequence moves the same bytes over PCIe).
  double bytesMoved(const RunSetup& s) const override { return 2.0 * double(s.n) * sizeof(std::int32_t); }
  /// `a` exactly; the timeline is each implementation's own measurement, not compared.
  Verification verify(const RunSetup&, const std::vector<HostArray>& reference, const std::vector<HostArray>& got,
                      const ImplSpec&) const override {
    Verification v = compareArrays(reference.at(kOutputA), got.at(kOutputA), Tolerance::exact());
    v.note += (v.note.empty() ? "" : "; ") + std::string("a compared exactly; the timeline is measured, not compared");
    return v;
  }
};

}  // namespace

void register_streams_overlap(Registry& r) { r.add(std::make_unique<StreamsOverlap>()); }

}  // namespace launchlab::kernels
