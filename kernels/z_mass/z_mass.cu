// z_mass: a thread per event (the tutorial's launch) then a histogram kernel, and the fused select-compute-histogram
// kernel with a shared-memory histogram per block.
#include <cstdint>

#include "common/gpu_pipeline.cuh"
#include "common/index_math.h"
#include "histogram/histogram_kernels.cuh"
#include "z_mass/z_mass.h"

namespace launchlab::kernels::z_mass {

namespace {

/// The tutorial's block: 1024 threads, (N + 1023) / 1024 blocks.
constexpr std::uint32_t kTutorialBlock = 1024;
constexpr std::uint32_t kFusedBlock = 256;

/// One thread per event (grid-stride, so that any grid is correct): mass[e], or -1 without an opposite-charge pair.
__global__ void perEventKernel(Events ev, float* __restrict__ mass) {
  const std::uint64_t stride = idx::gridStride1D(gridDim.x, blockDim.x);
  for (std::uint64_t e = idx::global1D(blockIdx.x, blockDim.x, threadIdx.x); e < ev.count; e += stride)
    mass[e] = eventMass(ev, e);
}

/// Selection, mass and histogram in one pass: the block counts its events' masses in shared memory, then adds each
/// non-empty bin to the global histogram with one atomic.
__global__ void fusedKernel(Events ev, MassRule rule, float* __restrict__ mass, unsigned* __restrict__ hist) {
  __shared__ unsigned local[kHistBins];
  for (unsigned b = threadIdx.x; b < unsigned(kHistBins); b += blockDim.x) local[b] = 0;
  __syncthreads();
  const std::uint64_t stride = idx::gridStride1D(gridDim.x, blockDim.x);
  for (std::uint64_t e = idx::global1D(blockIdx.x, blockDim.x, threadIdx.x); e < ev.count; e += stride) {
    const float m = eventMass(ev, e);
    mass[e] = m;
    const int b = rule(m);
    if (b >= 0) atomicAdd(local + b, 1u);
  }
  __syncthreads();
  for (unsigned b = threadIdx.x; b < unsigned(kHistBins); b += blockDim.x)
    if (local[b]) atomicAdd(hist + b, local[b]);
}

Events deviceEvents(const gpu::DeviceArrays& d, std::uint64_t n) {
  return {d.input<std::int64_t>(kOffsets),
          d.input<float>(kPt),
          d.input<float>(kEta),
          d.input<float>(kPhi),
          d.input<std::int32_t>(kCharge),
          n};
}

/// The user's launch, or `block` threads when the block is auto (the note says so).
template <typename Kernel>
LaunchConfig launchWithBlock(ImplContext& ctx, Kernel kernel, std::uint32_t block, gpu::GridPolicy policy,
                             const char* why) {
  const bool autoBlock = !ctx.launch.block;
  if (autoBlock) ctx.launch.block = Dim3{block, 1, 1};
  const LaunchConfig cfg = gpu::resolveLaunch1D(ctx, kernel, ctx.setup.n, policy);
  if (autoBlock) {
    ctx.launch.block.reset();
    ctx.launchNote = "auto block: " + std::to_string(block) + " (" + why + ")" +
                     (ctx.launchNote == "as requested" ? std::string() : "; " + ctx.launchNote);
  }
  return cfg;
}

}  // namespace

void cudaPerEvent(ImplContext& ctx) {
  const std::uint64_t n = ctx.setup.n;
  const LaunchConfig cfg =
      launchWithBlock(ctx, perEventKernel, kTutorialBlock, gpu::GridPolicy::CoverN, "the tutorial's");
  const MassRule rule = massRule();
  gpu::runPipeline(ctx, [&](gpu::DeviceArrays& d, cudaStream_t s) {
    float* mass = d.output<float>(0);
    unsigned* hist = d.output<unsigned>(1);
    LAUNCHLAB_CUDA_CHECK(cudaMemsetAsync(hist, 0, kHistBins * sizeof(unsigned), s));
    perEventKernel<<<gpu::toDim3(cfg.grid), gpu::toDim3(cfg.block), 0, s>>>(deviceEvents(d, n), mass);
    histogram::globalAtomicsKernel<float><<<gpu::toDim3(cfg.grid), gpu::toDim3(cfg.block), 0, s>>>(mass, n, rule, hist);
  });
  recordMetrics(ctx, Phase::Kernel);
}

void cudaFused(ImplContext& ctx) {
  const std::uint64_t n = ctx.setup.n;
  const LaunchConfig cfg = launchWithBlock(ctx, fusedKernel, kFusedBlock, gpu::GridPolicy::Occupancy,
                                           "grid-stride: a full device of blocks, few histogram merges");
  const MassRule rule = massRule();
  gpu::runPipeline(ctx, [&](gpu::DeviceArrays& d, cudaStream_t s) {
    unsigned* hist = d.output<unsigned>(1);
    LAUNCHLAB_CUDA_CHECK(cudaMemsetAsync(hist, 0, kHistBins * sizeof(unsigned), s));
    fusedKernel<<<gpu::toDim3(cfg.grid), gpu::toDim3(cfg.block), 0, s>>>(deviceEvents(d, n), rule, d.output<float>(0),
                                                                         hist);
  });
  recordMetrics(ctx, Phase::Kernel);
}

}  // namespace launchlab::kernels::z_mass
