// histogram: global atomics (the seed's kernel), shared-memory privatization, and CUB's HistogramEven.
#include <cstdint>
#include <cub/device/device_histogram.cuh>

#include "common/gpu_pipeline.cuh"
#include "common/index_math.h"
#include "common/probe_launch.cuh"
#include "common/vec_load.cuh"
#include "histogram/histogram.h"
#include "histogram/histogram_kernels.cuh"

namespace launchlab::kernels::histogram {

namespace {

template <typename T>
BinRule<T> ruleFor(const ImplContext& ctx) {
  const auto& p = ctx.setup.params;
  return BinRule<T>::make(p.number("xmin"), p.number("xmax"), int(p.integer("bins")));
}

template <typename Body>
void dispatch(ImplContext& ctx, Body body) {
  visitDTypeAmong<float, double>(ctx.setup.dtype, [&](auto t) { body(decltype(t){}); });
}

}  // namespace

void cudaGlobalAtomics(ImplContext& ctx) {
  dispatch(ctx, [&](auto t) {
    using T = decltype(t);
    const std::uint64_t n = ctx.setup.n;
    const auto rule = ruleFor<T>(ctx);
    const auto cfg = gpu::resolveLaunch1D(ctx, globalAtomicsKernel<T>, n, gpu::GridPolicy::Occupancy);
    const gpu::BlockTrace trace(ctx, cfg);
    const auto kernel = trace.pick(globalAtomicsKernel<T>, globalAtomicsKernel<T, gpu::BlockTraceOn>);
    gpu::runPipeline(ctx, [&](gpu::DeviceArrays& d, cudaStream_t s) {
      unsigned* counts = d.output<unsigned>(0);
      LAUNCHLAB_CUDA_CHECK(cudaMemsetAsync(counts, 0, rule.bins * sizeof(unsigned), s));
      gpu::launch(ctx, kernel, gpu::toDim3(cfg.grid), gpu::toDim3(cfg.block), 0, s, d.input<T>(0), n, rule, counts,
                  trace.records());
    });
    trace.collect(ctx);
  });
}

void cudaSharedPrivatized(ImplContext& ctx) {
  dispatch(ctx, [&](auto t) {
    using T = decltype(t);
    const std::uint64_t n = ctx.setup.n;
    const auto rule = ruleFor<T>(ctx);
    const unsigned copiesLog2 = privateCopiesLog2(rule.bins);
    const std::size_t smem = (std::size_t(rule.bins) << copiesLog2) * sizeof(unsigned);
    if (smem > ctx.device->limits.sharedMemPerBlockOptin) {
      // Too many bins for one private copy in shared memory: count in global memory instead, and say so.
      cudaGlobalAtomics(ctx);
      ctx.launchNote = std::to_string(rule.bins) + " bins x 4 B > " +
                       std::to_string(ctx.device->limits.sharedMemPerBlockOptin) +
                       " B of shared memory per block: fell back to global atomics; " + ctx.launchNote;
      return;
    }
    if (smem > 48 * 1024)
      LAUNCHLAB_CUDA_CHECK(
          cudaFuncSetAttribute(sharedPrivatizedKernel<T>, cudaFuncAttributeMaxDynamicSharedMemorySize, int(smem)));
    const std::uint64_t vectors = ceilDiv(n, gpu::kVec16Width<T>);
    const auto cfg = gpu::resolveLaunch1D(ctx, sharedPrivatizedKernel<T>, vectors, gpu::GridPolicy::Occupancy, smem);
    ctx.launchNote += "; " + std::to_string(1u << copiesLog2) + " private copies of " + std::to_string(rule.bins) +
                      " bins = " + std::to_string(smem) + " B of shared memory per block";
    gpu::runPipeline(ctx, [&](gpu::DeviceArrays& d, cudaStream_t s) {
      unsigned* counts = d.output<unsigned>(0);
      LAUNCHLAB_CUDA_CHECK(cudaMemsetAsync(counts, 0, rule.bins * sizeof(unsigned), s));
      gpu::launch(ctx, sharedPrivatizedKernel<T>, gpu::toDim3(cfg.grid), gpu::toDim3(cfg.block), smem, s, d.input<T>(0),
                  n, rule, copiesLog2, counts);
    });
  });
}

void cudaCub(ImplContext& ctx) {
  dispatch(ctx, [&](auto t) {
    using T = decltype(t);
    const auto n = static_cast<std::int64_t>(ctx.setup.n);
    const auto rule = ruleFor<T>(ctx);
    const int levels = rule.bins + 1;
    std::size_t tempBytes = 0;
    LAUNCHLAB_CUDA_CHECK(cub::DeviceHistogram::HistogramEven(nullptr, tempBytes, static_cast<const T*>(nullptr),
                                                             static_cast<unsigned*>(nullptr), levels, rule.lo, rule.hi,
                                                             n));
    gpu::DeviceBuffer temp(tempBytes ? tempBytes : 1);
    // CUB chooses its own launch (tuning policy for this GPU); record that no user configuration applies.
    ctx.launched = LaunchConfig{Dim3{0, 1, 1}, Dim3{0, 1, 1}, 0};  // 0: not ours to choose
    ctx.launchNote = "chosen by CUB (its tuning policy); the --block/--grid options do not apply";
    gpu::runPipeline(ctx, [&](gpu::DeviceArrays& d, cudaStream_t s) {
      std::size_t bytes = tempBytes;
      // HistogramEven zeroes the counters itself (its init kernel).
      LAUNCHLAB_CUDA_CHECK(cub::DeviceHistogram::HistogramEven(temp.get(), bytes, d.input<T>(0), d.output<unsigned>(0),
                                                               levels, rule.lo, rule.hi, n, s));
    });
  });
}

}  // namespace launchlab::kernels::histogram
