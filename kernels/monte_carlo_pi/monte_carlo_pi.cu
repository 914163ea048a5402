// monte_carlo_pi: cuRAND Philox4_32_10 device API, hits counted in registers, one reduction and one atomic per
// block, and the last block to finish writes the outputs (a single launch per repetition).
#include <curand_kernel.h>

#include <cstdint>

#include "common/block_trace.cuh"
#include "common/gpu_pipeline.cuh"
#include "common/row_reduce.cuh"
#include "monte_carlo_pi/monte_carlo_pi.h"

namespace launchlab::kernels::monte_carlo_pi {

namespace {

// The hot loop: one curand4 = 4 x 32 random bits = 2 points; coordinates from bits (no integer-to-float
// conversion unit, no division), the test in float registers, the count in an integer register.
template <Shape S>
__device__ __forceinline__ std::uint32_t countHits(curandStatePhilox4_32_10_t& st, std::uint32_t m) {
  std::uint32_t hits = 0;
  const std::uint32_t pairs = m >> 1;
#pragma unroll 4
  for (std::uint32_t k = 0; k < pairs; ++k) {
    const uint4 r = curand4(&st);
    hits += inside<S>(unitFloat(r.x), unitFloat(r.y)) ? 1u : 0u;
    hits += inside<S>(unitFloat(r.z), unitFloat(r.w)) ? 1u : 0u;
  }
  if (m & 1u) {
    const uint4 r = curand4(&st);
    hits += inside<S>(unitFloat(r.x), unitFloat(r.y)) ? 1u : 0u;
  }
  return hits;
}

struct Accumulators {
  unsigned long long* segHits;  ///< hits per segment of chunks; zero between launches
  unsigned* ticket;             ///< blocks done; zero between launches
};

/// The per-thread estimates kept as an output (the seed's out[tid]): chunks below `kept` store theirs.
struct KeptEstimates {
  double* est;
  std::uint64_t kept;
};

// Grid-stride over chunks: block b takes chunks b*B .. b*B+B-1, then the same a grid further, so every pass of
// the block covers contiguous chunks and almost always a single segment: then one block sum and one atomic.
// Trace: blocks on SMs (common/block_trace.cuh).
template <Shape S, bool SharedSeed, typename Trace = gpu::BlockTraceOff>
__global__ void piKernel(std::uint64_t seed, std::uint64_t n, std::uint32_t iters, std::uint64_t chunks,
                         unsigned segments, double piFactor, bool independent, Accumulators acc, KeptEstimates kept,
                         double* __restrict__ piOut, double* __restrict__ series, BlockRecord* trace = nullptr) {
  __shared__ unsigned long long scratch[33];
  __shared__ bool amLast;
  Trace::begin(trace);
  const std::uint64_t stride = std::uint64_t(gridDim.x) * blockDim.x;
  for (std::uint64_t base = std::uint64_t(blockIdx.x) * blockDim.x; base < chunks; base += stride) {
    const std::uint64_t c = base + threadIdx.x;
    std::uint32_t hits = 0;
    if (c < chunks) {
      const auto len = std::uint32_t(chunkLength(n, iters, c));
      curandStatePhilox4_32_10_t st;
      // Subsequence = chunk: independent streams (the demonstration gives every chunk the same one).
      curand_init(seed, SharedSeed ? 0ull : c, 0ull, &st);
      hits = countHits<S>(st, len);
      if (c < kept.kept) kept.est[c] = piFactor * double(hits) / double(len);
    }
    const std::uint64_t last = (base + blockDim.x < chunks ? base + blockDim.x : chunks) - 1;
    const unsigned s0 = segmentOf(base);
    if (s0 == segmentOf(last)) {  // the same for the whole block
      const unsigned long long total = gpu::blockSum<unsigned long long>(hits, scratch);
      if (threadIdx.x == 0 && total) atomicAdd(acc.segHits + s0, total);
    } else if (hits) {  // a pass straddling a segment boundary (only near the first chunks)
      atomicAdd(acc.segHits + segmentOf(c), (unsigned long long)hits);
    }
  }
  // The last block to finish writes the outputs and clears the accumulators for the next launch.
  __threadfence();
  __syncthreads();
  if (threadIdx.x == 0) amLast = atomicAdd(acc.ticket, 1u) == gridDim.x - 1;
  __syncthreads();
  if (amLast && threadIdx.x == 0) {
    __threadfence();
    // __ldcg: read the totals from L2, where the atomics left them.
    writeOutputs([&](unsigned j) { return __ldcg(acc.segHits + j); }, segments, n, iters, piFactor, independent, piOut,
                 series);
    for (unsigned j = 0; j < segments; ++j) acc.segHits[j] = 0;
    *acc.ticket = 0;
  }
  Trace::end(trace);
}

// The point cloud: thread c draws the first points of chunk c from the same stream as piKernel, in the same order
// (curand4 = two points: (x, y), (z, w)), so a shared seed repeats chunk 0's points in every chunk.
template <Shape S, bool SharedSeed>
__global__ void pointsKernel(std::uint64_t seed, std::uint64_t n, std::uint32_t iters, PointLayout p,
                             double* __restrict__ cloud) {
  const std::uint64_t c = std::uint64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (c >= p.chunks) return;
  curandStatePhilox4_32_10_t st;
  curand_init(seed, SharedSeed ? 0ull : c, 0ull, &st);
  const std::uint64_t m = pointsOfChunk(n, iters, p.perChunk, c), first = c * p.perChunk;
  for (std::uint64_t i = 0; i < m; i += 2) {
    const uint4 r = curand4(&st);
    storePoint<S>(cloud, p.count, first + i, unitFloat(r.x), unitFloat(r.y));
    if (i + 1 < m) storePoint<S>(cloud, p.count, first + i + 1, unitFloat(r.z), unitFloat(r.w));
  }
}

// The histogram of out[tid]: one thread per kept estimate, one atomic per estimate on kZBins counters.
__global__ void binEstimatesKernel(const double* __restrict__ est, std::uint64_t kept, std::uint64_t n,
                                   std::uint32_t iters, double fraction, double piFactor, unsigned* __restrict__ hist) {
  const std::uint64_t c = std::uint64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (c >= kept) return;
  const int b = zBin(est[c], double(chunkLength(n, iters, c)), fraction, piFactor);
  if (b >= 0) atomicAdd(hist + b, 1u);
}

template <bool SharedSeed>
void run(ImplContext& ctx) {
  const auto& s = ctx.setup;
  const std::uint64_t n = s.n;
  const auto iters = std::uint32_t(s.params.integer("iters"));
  const std::uint64_t chunks = chunkCount(n, iters);
  const unsigned segments = segmentCount(chunks);
  const Shape shape = parseShape(s.params.choice("shape"));
  const double piFactor = shapeInfo(shape).piFactor;

  const PointLayout layout = pointLayout(n, iters);
  const std::uint64_t kept = keptEstimates(chunks);
  const bool independent = s.params.choice("convergence") == "independent";
  auto launchFor = [&](auto plain, auto traced, auto points) {
    const auto cfg = gpu::resolveLaunch1D(ctx, plain, chunks, gpu::GridPolicy::CoverN);
    const gpu::BlockTrace trace(ctx, cfg);
    const auto kernel = trace.pick(plain, traced);
    ctx.launchNote += "; " + std::to_string(chunks) + " chunks of " + std::to_string(iters) + " samples";
    gpu::DeviceBuffer segHits(segments * sizeof(unsigned long long)), ticket(sizeof(unsigned));
    LAUNCHLAB_CUDA_CHECK(cudaMemset(segHits.get(), 0, segHits.bytes()));
    LAUNCHLAB_CUDA_CHECK(cudaMemset(ticket.get(), 0, ticket.bytes()));
    const Accumulators acc{segHits.as<unsigned long long>(), ticket.as<unsigned>()};
    ctx.launchNote += "; the point cloud: a second kernel of " + std::to_string(layout.chunks) +
                      " threads; the histogram of out[tid]: a third, one thread per kept estimate";
    gpu::runPipeline(ctx, [&](gpu::DeviceArrays& d, cudaStream_t st) {
      kernel<<<gpu::toDim3(cfg.grid), gpu::toDim3(cfg.block), 0, st>>>(
          s.seed, n, iters, chunks, segments, piFactor, independent, acc, KeptEstimates{d.output<double>(2), kept},
          d.output<double>(0), d.output<double>(1), trace.records());
      points<<<1, unsigned(layout.chunks), 0, st>>>(s.seed, n, iters, layout, d.output<double>(3));
      LAUNCHLAB_CUDA_CHECK(cudaMemsetAsync(d.output<unsigned>(4), 0, kZBins * sizeof(unsigned), st));
      binEstimatesKernel<<<unsigned(ceilDiv(kept, 256)), 256, 0, st>>>(
          d.output<double>(2), kept, n, iters, shapeInfo(shape).fraction, piFactor, d.output<unsigned>(4));
    });
    trace.collect(ctx);
  };
  using On = gpu::BlockTraceOn;
  switch (shape) {
    case Shape::Circle:
      launchFor(piKernel<Shape::Circle, SharedSeed>, piKernel<Shape::Circle, SharedSeed, On>,
                pointsKernel<Shape::Circle, SharedSeed>);
      break;
    case Shape::Ring:
      launchFor(piKernel<Shape::Ring, SharedSeed>, piKernel<Shape::Ring, SharedSeed, On>,
                pointsKernel<Shape::Ring, SharedSeed>);
      break;
    case Shape::Curve:
      launchFor(piKernel<Shape::Curve, SharedSeed>, piKernel<Shape::Curve, SharedSeed, On>,
                pointsKernel<Shape::Curve, SharedSeed>);
      break;
  }
  const double ms = summarize(ctx.samples[Phase::Kernel]).medianMs;
  if (ms > 0) ctx.metrics["gsamples_per_s"] = double(n) / (ms * 1e-3) / 1e9;
}

}  // namespace

void cudaPhilox(ImplContext& ctx) { run<false>(ctx); }
void cudaSharedSeed(ImplContext& ctx) { run<true>(ctx); }

}  // namespace launchlab::kernels::monte_carlo_pi
