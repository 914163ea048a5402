// round_decimals: gpu_round launched like Numba's forall (occupancy API) and with the user's configuration.
#include <string>

#include "common/gpu_pipeline.cuh"
#include "common/index_math.h"
#include "round_decimals/round_decimals.h"

namespace launchlab::kernels::round_decimals {

namespace {

// gpu_round: one element per thread when the grid covers n (forall's launch always does); the grid-stride loop
// makes a smaller manual grid correct too.
template <typename T>
__global__ void gpuRoundKernel(const T* __restrict__ in, T* __restrict__ out, std::size_t n, T f) {
  const std::size_t stride = idx::gridStride1D(gridDim.x, blockDim.x);
  for (std::size_t i = idx::global1D(blockIdx.x, blockDim.x, threadIdx.x); i < n; i += stride)
    out[i] = roundTo(in[i], f);
}

// Theoretical occupancy of a launch (what the SM could hold) and how many waves of resident blocks the grid makes.
template <typename Kernel>
void recordOccupancy(ImplContext& ctx, Kernel kernel, const LaunchConfig& cfg) {
  int perSm = 0;
  LAUNCHLAB_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&perSm, kernel, int(cfg.block.count()), 0));
  const double threadsPerSm = double(ctx.device->maxThreadsPerMultiprocessor);
  ctx.metrics["resident_blocks_per_sm"] = perSm;
  ctx.metrics["theoretical_occupancy_pct"] =
      threadsPerSm > 0 ? 100.0 * perSm * double(cfg.block.count()) / threadsPerSm : 0;
  const double resident = double(perSm) * double(ctx.device->multiprocessors);
  ctx.metrics["waves"] = resident > 0 ? double(cfg.grid.count()) / resident : 0;
}

template <typename T>
void runWith(ImplContext& ctx, const LaunchConfig& cfg) {
  const std::size_t n = ctx.setup.n;
  const T f = scaleFor<T>(ctx.setup.params.integer("decimals"));
  gpu::runPipeline(ctx, [&](gpu::DeviceArrays& d, cudaStream_t s) {
    gpuRoundKernel<T><<<gpu::toDim3(cfg.grid), gpu::toDim3(cfg.block), 0, s>>>(d.input<T>(0), d.output<T>(0), n, f);
  });
  recordOccupancy(ctx, gpuRoundKernel<T>, cfg);
}

}  // namespace

void cudaForall(ImplContext& ctx) {
  visitDTypeAmong<double, float>(ctx.setup.dtype, [&](auto t) {
    using T = decltype(t);
    const std::size_t n = ctx.setup.n;
    // Numba's ForAll: cuOccupancyMaxPotentialBlockSize (block size limit 1024), then ceil(ntasks / tpb) blocks.
    int minGrid = 0, block = 0;
    LAUNCHLAB_CUDA_CHECK(cudaOccupancyMaxPotentialBlockSize(&minGrid, &block, gpuRoundKernel<T>, 0, 1024));
    if (block <= 0) block = 1;
    LaunchConfig cfg;
    cfg.block = Dim3{static_cast<std::uint32_t>(block), 1, 1};
    const std::uint64_t grid = ceilDiv(n, std::uint64_t(block));
    if (grid > ctx.device->limits.maxGridDim.x)
      throw InvalidLaunch("forall's grid of " + std::to_string(grid) + " blocks exceeds " +
                          std::to_string(ctx.device->limits.maxGridDim.x));
    cfg.grid = Dim3{static_cast<std::uint32_t>(grid), 1, 1};
    if (auto e = validateLaunch(cfg, ctx.device->limits); !e.empty()) throw InvalidLaunch(e);
    ctx.launched = cfg;
    ctx.launchNote = "forall: block " + std::to_string(block) + " from cudaOccupancyMaxPotentialBlockSize (it needs " +
                     std::to_string(minGrid) + " blocks to fill the GPU), grid = ceil(" + std::to_string(n) + " / " +
                     std::to_string(block) + ") = " + std::to_string(grid) + "; --block/--grid are ignored";
    runWith<T>(ctx, cfg);
    ctx.metrics["occupancy_min_grid_for_full_gpu"] = minGrid;
  });
}

void cudaManual(ImplContext& ctx) {
  visitDTypeAmong<double, float>(ctx.setup.dtype, [&](auto t) {
    using T = decltype(t);
    const auto cfg = gpu::resolveLaunch1D(ctx, gpuRoundKernel<T>, ctx.setup.n, gpu::GridPolicy::CoverN);
    runWith<T>(ctx, cfg);
  });
}

}  // namespace launchlab::kernels::round_decimals
