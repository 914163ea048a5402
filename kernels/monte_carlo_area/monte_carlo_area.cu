// monte_carlo_area: the linked solution's kernel. Thread t of a 1024 x 1024 launch (any launch: the kernel strides over
// the 2^20 streams) counts the hits of its trials in a register; a block reduction and one atomicAdd per block add them
// to the run's total; a launch per run, then one thread writes the estimates.
#include <cstdint>

#include "common/gpu_pipeline.cuh"
#include "common/row_reduce.cuh"
#include "monte_carlo_area/monte_carlo_area.h"

namespace launchlab::kernels::monte_carlo_area {

namespace {

constexpr unsigned kSeedBlock = 1024, kSeedGrid = 1024;

// At most 64 registers, so that the tutorial solution's 1024-thread blocks can launch.
template <Shape S, typename R>
__global__ void __launch_bounds__(1024)
    areaKernel(std::uint64_t seed, unsigned run, std::uint64_t trials, std::int32_t cap, double* __restrict__ cloud,
               std::uint64_t count, unsigned long long* __restrict__ runHits) {
  __shared__ unsigned long long scratch[33];
  const std::uint64_t active = trials < kThreads ? trials : kThreads, stride = std::uint64_t(gridDim.x) * blockDim.x;
  // Every thread of the block takes part in each block reduction, so the loop bound is the block's, not the thread's.
  for (std::uint64_t base = std::uint64_t(blockIdx.x) * blockDim.x; base < active; base += stride) {
    const std::uint64_t t = base + threadIdx.x;
    const unsigned long long hits = t < active ? threadHits<S, R>(seed, run, trials, t, cap, cloud, count) : 0;
    const unsigned long long total = gpu::blockSum<unsigned long long>(hits, scratch);
    if (threadIdx.x == 0 && total) atomicAdd(runHits + run, total);
  }
}

__global__ void estimatesKernel(const unsigned long long* __restrict__ runHits,
                                const std::uint64_t* __restrict__ trials, unsigned runs, double box,
                                double* __restrict__ estimate, double* __restrict__ series) {
  writeEstimates([&](unsigned r) { return runHits[r]; }, trials, runs, box, estimate, series);
}

template <Shape S, typename R>
void run(ImplContext& ctx, const std::vector<std::uint64_t>& trials) {
  const auto& s = ctx.setup;
  const auto cap = std::int32_t(s.params.integer("cap"));
  const unsigned runs = unsigned(trials.size());
  const std::uint64_t count = pointCount(s.n);
  const auto kernel = areaKernel<S, R>;
  if (!ctx.launch.block && !ctx.launch.grid) {  // auto: the tutorial solution's launch
    ctx.launch.block = Dim3{kSeedBlock, 1, 1};
    ctx.launch.grid = Dim3{kSeedGrid, 1, 1};
  }
  const auto cfg = gpu::resolveLaunch1D(ctx, kernel, kThreads, gpu::GridPolicy::CoverN);
  ctx.launchNote +=
      "; " + std::to_string(runs) + " run(s), a launch each, over 2^20 streams (the tutorial solution's 1024 x 1024)";
  gpu::DeviceBuffer runHits(runs * sizeof(unsigned long long)), dTrials(runs * sizeof(std::uint64_t));
  LAUNCHLAB_CUDA_CHECK(cudaMemcpy(dTrials.get(), trials.data(), dTrials.bytes(), cudaMemcpyHostToDevice));
  gpu::runPipeline(ctx, [&](gpu::DeviceArrays& d, cudaStream_t st) {
    LAUNCHLAB_CUDA_CHECK(cudaMemsetAsync(runHits.get(), 0, runHits.bytes(), st));
    for (unsigned r = 0; r < runs; ++r)
      kernel<<<gpu::toDim3(cfg.grid), gpu::toDim3(cfg.block), 0, st>>>(s.seed, r, trials[r], cap,
                                                                       r + 1 == runs ? d.output<double>(2) : nullptr,
                                                                       count, runHits.as<unsigned long long>());
    estimatesKernel<<<1, 1, 0, st>>>(runHits.as<unsigned long long>(), dTrials.as<std::uint64_t>(), runs, boxArea(S),
                                     d.output<double>(0), d.output<double>(1));
  });
}

}  // namespace

void cudaPerThread(ImplContext& ctx) {
  const Shape shape = parseShape(ctx.setup.params.choice("shape"));
  const std::vector<std::uint64_t> trials =
      runTrials(ctx.setup.n, ctx.setup.params.choice("convergence") == "independent");
  visitDTypeAmong<float, double>(ctx.setup.dtype, [&](auto tag) {
    using R = decltype(tag);
    if (shape == Shape::Circle)
      run<Shape::Circle, R>(ctx, trials);
    else
      run<Shape::Mandelbrot, R>(ctx, trials);
  });
  recordTrialRate(ctx, Phase::Kernel, trials);
}

}  // namespace launchlab::kernels::monte_carlo_area
