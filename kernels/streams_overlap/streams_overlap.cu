// streams_overlap: the seed's event-timed sequence on one stream (three ways of copying) and k streams over
// chunks. Each repetition is timed by its own start and stop events (the per-repetition sample is that wall); every
// copy and kernel is bracketed by events recorded on its stream, so the timeline is measured, not modelled.
//
// No LaunchGate here: the sequence's wall, host gaps included, is what the seed measures (a synchronous copy's
// return to the host and the next launch are part of its cost), and the host's calls are what the poll count is
// about. An event recorded before an operation fires when its stream reaches it; an operation that then waits for
// its engine (busy with another stream's copy) shows the wait in its bar, which the per-engine union absorbs.
#include <chrono>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "common/gpu_pipeline.cuh"
#include "common/index_math.h"
#include "launchlab/engine/overlapped_pipeline.h"
#include "streams_overlap/streams_overlap.h"

namespace launchlab::kernels::streams_overlap {

namespace {

/// increment_kernel: g[i] += v, over a grid-stride loop (the seed's launch gives one element per thread).
__global__ void incrementKernel(std::int32_t* __restrict__ g, std::int32_t v, std::size_t n) {
  const std::size_t stride = idx::gridStride1D(gridDim.x, blockDim.x);
  for (std::size_t i = idx::global1D(blockIdx.x, blockDim.x, threadIdx.x); i < n; i += stride)
    g[i] = increment(g[i], v);
}

/// How a single-stream sequence copies (the seed's cell and its two neighbours).
enum class Copies {
  SeedSyncBack,  ///< pinned; up with cudaMemcpyAsync on the stream, back with cudaMemcpy (copy_to_host() without a
                 ///< stream)
  Async,         ///< pinned; both copies cudaMemcpyAsync on the stream
  PageableSync,  ///< pageable; both copies cudaMemcpy
};

using Clock = std::chrono::steady_clock;
double msBetween(Clock::time_point a, Clock::time_point b) {
  return std::chrono::duration<double, std::milli>(b - a).count();
}

/// Restores the input before every repetition (a = zeros, as the seed sets it), outside the timing.
void restore(std::int32_t* host, const ImplContext& ctx) {
  std::memcpy(host, ctx.input("a").data(), ctx.input("a").bytes());
}

/// The launch: the user's block or the seed's 512; per chunk, the user's grid shared out over the chunks
/// (ceil(G / chunks)) or ceil(chunk / block). Validated and recorded by resolveLaunch1D.
LaunchConfig resolveLaunch(ImplContext& ctx, std::uint64_t work, std::uint64_t chunks) {
  const LaunchRequest asked = ctx.launch;
  std::string note;
  if (!ctx.launch.block) {
    ctx.launch.block = Dim3{kSeedThreads, 1, 1};
    note = "auto block: 512 (the seed's nthreads)";
  }
  if (ctx.launch.grid && chunks > 1) {
    const std::uint32_t whole = ctx.launch.grid->x;
    ctx.launch.grid->x = std::uint32_t(ceilDiv(whole, chunks));
    note += std::string(note.empty() ? "" : "; ") + "the requested " + std::to_string(whole) +
            " blocks shared out over " + std::to_string(chunks) + " chunks: " + std::to_string(ctx.launch.grid->x) +
            " per chunk's kernel";
  }
  LaunchConfig cfg;
  try {
    cfg = gpu::resolveLaunch1D(ctx, incrementKernel, work, gpu::GridPolicy::CoverN);
  } catch (...) {
    ctx.launch = asked;
    throw;
  }
  ctx.launch = asked;
  if (!note.empty()) ctx.launchNote = ctx.launchNote == "as requested" ? note : note + "; " + ctx.launchNote;
  return cfg;
}

void launchIncrement(const LaunchConfig& cfg, std::int32_t* d, std::int32_t v, std::size_t n, cudaStream_t s) {
  incrementKernel<<<gpu::toDim3(cfg.grid), gpu::toDim3(cfg.block), 0, s>>>(d, v, n);
  LAUNCHLAB_CUDA_CHECK_LAUNCH();
}

/// The seed's warm-up: -v then +v (d's contents unchanged), so the first timed sequence pays no first launch.
void warmUp(const LaunchConfig& cfg, std::int32_t* d, std::int32_t v, std::size_t n, cudaStream_t s) {
  launchIncrement(cfg, d, -v, n, s);
  launchIncrement(cfg, d, v, n, s);
  LAUNCHLAB_CUDA_CHECK(cudaStreamSynchronize(s));
}

/// Spins on cudaEventQuery(stop) until it completes; returns the "not ready" answers (the seed's counter).
double pollUntilDone(const gpu::Event& stop) {
  double polls = 0;
  cudaError_t e;
  while ((e = cudaEventQuery(stop.get())) == cudaErrorNotReady) polls += 1;
  LAUNCHLAB_CUDA_CHECK(e);
  return polls;
}

void copyUp(std::int32_t* d, const std::int32_t* h, std::size_t bytes, bool sync, cudaStream_t s) {
  if (sync)
    LAUNCHLAB_CUDA_CHECK(cudaMemcpy(d, h, bytes, cudaMemcpyHostToDevice));
  else
    LAUNCHLAB_CUDA_CHECK(cudaMemcpyAsync(d, h, bytes, cudaMemcpyHostToDevice, s));
}
void copyBack(std::int32_t* h, const std::int32_t* d, std::size_t bytes, bool sync, cudaStream_t s) {
  if (sync)
    LAUNCHLAB_CUDA_CHECK(cudaMemcpy(h, d, bytes, cudaMemcpyDeviceToHost));
  else
    LAUNCHLAB_CUDA_CHECK(cudaMemcpyAsync(h, d, bytes, cudaMemcpyDeviceToHost, s));
}

/// event -> H2D -> kernel -> D2H -> event on one blocking stream (Numba's cuda.stream()), so that the synchronous
/// copies of the legacy default stream order themselves with it as in the seed.
void runSingleStream(ImplContext& ctx, Copies copies) {
  ctx.poisonHostOutputs();  // its own copies (not the standard pipeline)
  const std::size_t n = ctx.setup.n, bytes = n * sizeof(std::int32_t);
  const std::int32_t v = std::int32_t(ctx.setup.params.integer("v"));
  const LaunchConfig cfg = resolveLaunch(ctx, n, 1);
  const bool pinned = copies != Copies::PageableSync;
  gpu::PinnedBuffer pinnedA(pinned ? bytes : 0);
  // Pageable: the output array itself plays the seed's host array (restored from the input every repetition).
  std::int32_t* host = pinned ? pinnedA.as<std::int32_t>() : ctx.output("a").view<std::int32_t>().data();
  gpu::DeviceBuffer dA(bytes);
  gpu::Stream stream(cudaStreamDefault);
  const cudaStream_t s = stream.get();
  warmUp(cfg, dA.as<std::int32_t>(), v, n, s);
  gpu::Event start, afterUp, afterKernel, stop;
  std::vector<SequenceSample> reps;
  for (int r = -ctx.warmup; r < ctx.reps; ++r) {
    ctx.checkpoint(r);
    restore(host, ctx);
    LAUNCHLAB_CUDA_CHECK(cudaDeviceSynchronize());  // the seed's cuda.synchronize(): nothing pending at the start
    SequenceSample rep;
    {
      gpu::NvtxRange range("sequence");
      const auto t0 = Clock::now();
      start.record(s);
      copyUp(dA.as<std::int32_t>(), host, bytes, copies == Copies::PageableSync, s);
      afterUp.record(s);
      launchIncrement(cfg, dA.as<std::int32_t>(), v, n, s);
      afterKernel.record(s);
      copyBack(host, dA.as<std::int32_t>(), bytes, copies != Copies::Async, s);
      stop.record(s);
      rep.cpuApiMs = msBetween(t0, Clock::now());
      rep.polls = pollUntilDone(stop);
    }
    if (r < 0) continue;
    const double up = afterUp.elapsedSince(start), kernel = afterKernel.elapsedSince(start);
    rep.eventMs = stop.elapsedSince(start);
    rep.spans = {{0, TimelineEngine::H2D, 0, up},
                 {0, TimelineEngine::Kernel, up, kernel},
                 {0, TimelineEngine::D2H, kernel, rep.eventMs}};
    ctx.samples[Phase::H2D].push_back(up);
    ctx.samples[Phase::Kernel].push_back(kernel - up);
    ctx.samples[Phase::D2H].push_back(rep.eventMs - kernel);
    reps.push_back(std::move(rep));
  }
  if (pinned) std::memcpy(ctx.output("a").data(), host, bytes);
  finishSequences(ctx, reps);
  ctx.metrics["pcie_bytes"] = 2.0 * double(bytes);
}

/// The events of one chunk on its stream: before its copy up, after it, after its kernel, after its copy back.
struct ChunkEvents {
  gpu::Event beforeUp, afterUp, afterKernel, afterBack;
};

/// The k streams, a start event the others wait on, and the events that join them back into stream 0.
struct StreamSet {
  explicit StreamSet(std::size_t k) {
    for (std::size_t i = 0; i < k; ++i) {
      streams.push_back(std::make_unique<gpu::Stream>());
      done.push_back(std::make_unique<gpu::Event>());
    }
  }
  cudaStream_t operator[](std::size_t i) const { return streams[i % streams.size()]->get(); }
  /// Records the start event on stream 0 and makes every other stream wait for it.
  void begin(gpu::Event& start) {
    start.record((*this)[0]);
    for (std::size_t i = 1; i < streams.size(); ++i)
      LAUNCHLAB_CUDA_CHECK(cudaStreamWaitEvent((*this)[i], start.get(), 0));
  }
  /// Makes stream 0 wait for every other stream, then records the stop event there.
  void end(gpu::Event& stop) {
    for (std::size_t i = 1; i < streams.size(); ++i) {
      done[i]->record((*this)[i]);
      LAUNCHLAB_CUDA_CHECK(cudaStreamWaitEvent((*this)[0], done[i]->get(), 0));
    }
    stop.record((*this)[0]);
  }
  std::vector<std::unique_ptr<gpu::Stream>> streams;
  std::vector<std::unique_ptr<gpu::Event>> done;
};

}  // namespace

void cudaSeed(ImplContext& ctx) { runSingleStream(ctx, Copies::SeedSyncBack); }
void cudaAsync(ImplContext& ctx) { runSingleStream(ctx, Copies::Async); }
void cudaPageableSync(ImplContext& ctx) { runSingleStream(ctx, Copies::PageableSync); }

void cudaStreams(ImplContext& ctx) {
  ctx.poisonHostOutputs();  // its own copies (not the standard pipeline)
  const std::size_t n = ctx.setup.n, bytes = n * sizeof(std::int32_t);
  const std::int32_t v = std::int32_t(ctx.setup.params.integer("v"));
  const std::size_t k = std::size_t(ctx.setup.params.integer("streams"));
  const std::size_t count = chunkCount(n, std::uint64_t(ctx.setup.params.integer("chunks")));
  const std::size_t chunk = ceilDiv(n, count);
  const LaunchConfig cfg = resolveLaunch(ctx, chunk, count);
  gpu::PinnedBuffer host(bytes);
  gpu::DeviceBuffer dA(bytes);
  std::int32_t* h = host.as<std::int32_t>();
  std::int32_t* d = dA.as<std::int32_t>();
  StreamSet streams(k);
  warmUp(cfg, d, v, n, streams[0]);
  std::vector<ChunkEvents> ev(count);
  gpu::Event start, stop;
  std::vector<SequenceSample> reps;
  for (int r = -ctx.warmup; r < ctx.reps; ++r) {
    ctx.checkpoint(r);
    restore(h, ctx);
    LAUNCHLAB_CUDA_CHECK(cudaDeviceSynchronize());
    SequenceSample rep;
    {
      gpu::NvtxRange range("streams");
      const auto t0 = Clock::now();
      streams.begin(start);
      for (std::size_t c = 0; c < count; ++c) {
        const cudaStream_t s = streams[c];
        const std::size_t off = c * chunk, len = std::min(chunk, n - off), b = len * sizeof(std::int32_t);
        ev[c].beforeUp.record(s);
        copyUp(d + off, h + off, b, false, s);
        ev[c].afterUp.record(s);
        launchIncrement(cfg, d + off, v, len, s);
        ev[c].afterKernel.record(s);
        copyBack(h + off, d + off, b, false, s);
        ev[c].afterBack.record(s);
      }
      streams.end(stop);
      rep.cpuApiMs = msBetween(t0, Clock::now());
      rep.polls = pollUntilDone(stop);
    }
    if (r < 0) continue;
    rep.eventMs = stop.elapsedSince(start);
    for (std::size_t c = 0; c < count; ++c) {
      const int sIdx = int(c % k);
      const double t[4] = {ev[c].beforeUp.elapsedSince(start), ev[c].afterUp.elapsedSince(start),
                           ev[c].afterKernel.elapsedSince(start), ev[c].afterBack.elapsedSince(start)};
      rep.spans.push_back({sIdx, TimelineEngine::H2D, t[0], t[1]});
      rep.spans.push_back({sIdx, TimelineEngine::Kernel, t[1], t[2]});
      rep.spans.push_back({sIdx, TimelineEngine::D2H, t[2], t[3]});
    }
    ctx.samples[Phase::Kernel].push_back(rep.eventMs);
    reps.push_back(std::move(rep));
  }
  std::memcpy(ctx.output("a").data(), h, bytes);
  finishSequences(ctx, reps);
  ctx.launchNote += "; " + std::to_string(count) + " chunks of " + std::to_string(chunk) + " elements over " +
                    std::to_string(k) +
                    " streams. The kernel phase is the whole overlapped sequence (copies up, "
                    "kernels and copies back of all chunks, start to stop event): they run at the same time";
  ctx.metrics["pcie_bytes"] = 2.0 * double(bytes);
  ctx.metrics["streams"] = double(k);
  ctx.metrics[kOverlappedPipelineMetric] = 1;
  ctx.metrics["chunks"] = double(count);
}

}  // namespace launchlab::kernels::streams_overlap
