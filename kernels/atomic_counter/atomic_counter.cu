// atomic_counter: the race, atomicAdd, and warp-aggregated atomics (grid-stride, so any grid does n increments).
#include <cooperative_groups.h>

#include <cstdint>

#include "atomic_counter/atomic_counter.h"
#include "common/gpu_pipeline.cuh"
#include "common/index_math.h"

namespace launchlab::kernels::atomic_counter {

namespace {

namespace cg = cooperative_groups;

enum class Mode { Race, Atomic, WarpAggregated };

template <Mode M>
__global__ void incrementKernel(unsigned* __restrict__ counter, std::uint64_t n) {
  const std::uint64_t stride = idx::gridStride1D(gridDim.x, blockDim.x);
  for (std::uint64_t i = idx::global1D(blockIdx.x, blockDim.x, threadIdx.x); i < n; i += stride) {
    if constexpr (M == Mode::Race) {
      // volatile: a real load and store per increment (otherwise the compiler folds a thread's increments into
      // one). Another thread's increment between the load and the store is overwritten: a lost update.
      volatile unsigned* c = counter;
      *c = *c + 1u;
    } else if constexpr (M == Mode::Atomic) {
      atomicAdd(counter, 1u);
    } else {
      // The threads of this warp that are here together (all 32 except in the last, partial iteration).
      const cg::coalesced_group active = cg::coalesced_threads();
      if (active.thread_rank() == 0) atomicAdd(counter, active.num_threads());
    }
  }
}

template <Mode M>
void run(ImplContext& ctx) {
  const std::uint64_t n = ctx.setup.n;
  const auto cfg = gpu::resolveLaunch1D(ctx, incrementKernel<M>, n, gpu::GridPolicy::CoverN);
  gpu::runPipeline(ctx, [&](gpu::DeviceArrays& d, cudaStream_t s) {
    unsigned* counter = d.output<unsigned>(0);
    LAUNCHLAB_CUDA_CHECK(cudaMemsetAsync(counter, 0, sizeof(unsigned), s));
    incrementKernel<M><<<gpu::toDim3(cfg.grid), gpu::toDim3(cfg.block), 0, s>>>(counter, n);
  });
  recordCounts(ctx, n, std::uint32_t(ctx.outputs[0].view<std::int32_t>()[0]));
  const double ms = summarize(ctx.samples[Phase::Kernel]).medianMs;
  if (ms > 0) ctx.metrics["gincrements_per_s"] = double(n) / (ms * 1e-3) / 1e9;
}

}  // namespace

void cudaRace(ImplContext& ctx) { run<Mode::Race>(ctx); }
void cudaAtomic(ImplContext& ctx) { run<Mode::Atomic>(ctx); }
void cudaWarpAggregated(ImplContext& ctx) { run<Mode::WarpAggregated>(ctx); }

}  // namespace launchlab::kernels::atomic_counter
