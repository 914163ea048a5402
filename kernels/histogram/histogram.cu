// histogram: global atomics (the seed's kernel), shared-memory privatization, and CUB's HistogramEven.
#include <cub/device/device_histogram.cuh>

#include <cstdint>

#include "common/gpu_pipeline.cuh"
#include "common/index_math.h"
#include "common/vec_load.cuh"
#include "histogram/histogram.h"

namespace launchlab::kernels::histogram {

namespace {

// Shared memory the private copies may use per block: small enough that several blocks share an SM.
constexpr std::size_t kPrivateBudgetBytes = 32 * 1024;
constexpr int kUnroll = 4;  // 16-byte vectors in flight per thread

template <typename T> BinRule<T> ruleFor(const ImplContext& ctx) {
  const auto& p = ctx.setup.params;
  return BinRule<T>::make(p.number("xmin"), p.number("xmax"), int(p.integer("bins")));
}

// The seed's cuda_histogram: grid-stride loop, one global atomicAdd per counted element.
template <typename T>
__global__ void globalAtomicsKernel(const T* __restrict__ x, std::uint64_t n, BinRule<T> rule,
                                    unsigned* __restrict__ counts) {
  const std::uint64_t stride = idx::gridStride1D(gridDim.x, blockDim.x);
  for (std::uint64_t i = idx::global1D(blockIdx.x, blockDim.x, threadIdx.x); i < n; i += stride) {
    const int b = rule(x[i]);
    if (b >= 0) atomicAdd(counts + b, 1u);
  }
}

// Privatized: the block counts into 2^copiesLog2 copies of the histogram in shared memory, laid out as
// sh[bin * copies + lane % copies]. With 32 copies the 32 lanes of a warp always hit 32 different words in 32
// different banks, so shared atomics never wait on each other inside a warp, whatever the data. Loads are
// 16-byte vectors, kUnroll in flight per thread, grid-stride. At the end each bin's copies are summed and added
// to the global histogram with one atomic per bin and block.
template <typename T>
__global__ void sharedPrivatizedKernel(const T* __restrict__ x, std::uint64_t n, BinRule<T> rule,
                                       unsigned copiesLog2, unsigned* __restrict__ counts) {
  extern __shared__ unsigned privateCounts[];
  const unsigned copies = 1u << copiesLog2;
  const unsigned bins = unsigned(rule.bins);
  const unsigned words = bins << copiesLog2;
  for (unsigned k = threadIdx.x; k < words; k += blockDim.x) privateCounts[k] = 0;
  __syncthreads();

  const unsigned copy = threadIdx.x & (copies - 1u);
  auto count = [&](T v) {
    const int b = rule(v);
    if (b >= 0) atomicAdd(privateCounts + ((unsigned(b) << copiesLog2) + copy), 1u);
  };
  gpu::gridStrideVec16<kUnroll>(
      x, n, [&](int, const gpu::Vec16T<T>& v) { gpu::forEachLane(v, count); }, count);
  __syncthreads();

  for (unsigned b = threadIdx.x; b < bins; b += blockDim.x) {
    unsigned sum = 0;
    // Start each thread at a different copy so that neighbouring bins read different banks.
    for (unsigned c = 0; c < copies; ++c) sum += privateCounts[(b << copiesLog2) + ((c + b) & (copies - 1u))];
    if (sum) atomicAdd(counts + b, sum);
  }
}

template <typename Body> void dispatch(ImplContext& ctx, Body body) {
  visitDTypeAmong<float, double>(ctx.setup.dtype, [&](auto t) { body(decltype(t){}); });
}

}  // namespace

void cudaGlobalAtomics(ImplContext& ctx) {
  dispatch(ctx, [&](auto t) {
    using T = decltype(t);
    const std::uint64_t n = ctx.setup.n;
    const auto rule = ruleFor<T>(ctx);
    const auto cfg = gpu::resolveLaunch1D(ctx, globalAtomicsKernel<T>, n, gpu::GridPolicy::Occupancy);
    gpu::runPipeline(ctx, [&](gpu::DeviceArrays& d, cudaStream_t s) {
      unsigned* counts = d.output<unsigned>(0);
      LAUNCHLAB_CUDA_CHECK(cudaMemsetAsync(counts, 0, rule.bins * sizeof(unsigned), s));
      globalAtomicsKernel<T><<<gpu::toDim3(cfg.grid), gpu::toDim3(cfg.block), 0, s>>>(d.input<T>(0), n, rule, counts);
    });
  });
}

void cudaSharedPrivatized(ImplContext& ctx) {
  dispatch(ctx, [&](auto t) {
    using T = decltype(t);
    const std::uint64_t n = ctx.setup.n;
    const auto rule = ruleFor<T>(ctx);
    // As many copies (up to one per lane) as fit the budget; a single copy may use opt-in shared memory.
    unsigned copiesLog2 = 5;
    while (copiesLog2 > 0 && (std::size_t(rule.bins) << copiesLog2) * sizeof(unsigned) > kPrivateBudgetBytes)
      --copiesLog2;
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
      LAUNCHLAB_CUDA_CHECK(cudaFuncSetAttribute(sharedPrivatizedKernel<T>, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                                int(smem)));
    const std::uint64_t vectors = ceilDiv(n, gpu::kVec16Width<T>);
    const auto cfg = gpu::resolveLaunch1D(ctx, sharedPrivatizedKernel<T>, vectors, gpu::GridPolicy::Occupancy, smem);
    ctx.launchNote += "; " + std::to_string(1u << copiesLog2) + " private copies of " + std::to_string(rule.bins) +
                      " bins = " + std::to_string(smem) + " B of shared memory per block";
    gpu::runPipeline(ctx, [&](gpu::DeviceArrays& d, cudaStream_t s) {
      unsigned* counts = d.output<unsigned>(0);
      LAUNCHLAB_CUDA_CHECK(cudaMemsetAsync(counts, 0, rule.bins * sizeof(unsigned), s));
      sharedPrivatizedKernel<T><<<gpu::toDim3(cfg.grid), gpu::toDim3(cfg.block), smem, s>>>(d.input<T>(0), n, rule,
                                                                                            copiesLog2, counts);
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
      LAUNCHLAB_CUDA_CHECK(cub::DeviceHistogram::HistogramEven(temp.get(), bytes, d.input<T>(0),
                                                               d.output<unsigned>(0), levels, rule.lo, rule.hi, n, s));
    });
  });
}

}  // namespace launchlab::kernels::histogram
