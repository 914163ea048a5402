// groupby_sum: atomics into a dense table indexed by key - key[0] (per row, or one per run of a warp), a thread or a
// warp per segment after a flag-and-scan pass finds the segment starts, and CUB's reduce-by-key.
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>

#include <cstdint>
#include <cub/device/device_reduce.cuh>
#include <cub/device/device_scan.cuh>

#include "common/gpu_pipeline.cuh"
#include "common/row_reduce.cuh"
#include "groupby_sum/groupby_sum.h"

namespace launchlab::kernels::groupby_sum {

namespace {

/// One output row: px, py, pz, E sums (the layout of `sums`, groups x 4 row-major).
template <typename T>
struct alignas(4 * sizeof(T)) Vec4 {
  T c[kColumns];
};
template <typename T>
struct Vec4Add {
  __host__ __device__ Vec4<T> operator()(const Vec4<T>& a, const Vec4<T>& b) const {
    return {{a.c[0] + b.c[0], a.c[1] + b.c[1], a.c[2] + b.c[2], a.c[3] + b.c[3]}};
  }
};
/// The four input columns; row(i) gathers row i as a Vec4 (CUB's value iterator).
template <typename T>
struct Columns {
  const T* c[kColumns];
  __host__ __device__ Vec4<T> operator()(std::uint64_t i) const { return {{c[0][i], c[1][i], c[2][i], c[3][i]}}; }
};
template <typename T>
Columns<T> columnsOf(const gpu::DeviceArrays& d) {
  return {{d.input<T>(1), d.input<T>(2), d.input<T>(3), d.input<T>(4)}};
}

/// 1 where row i starts a segment (its key differs from the row before), else 0: the scan's input.
struct StartFlag {
  const std::int64_t* keys;
  __host__ __device__ unsigned operator()(std::uint64_t i) const { return i == 0 || keys[i] != keys[i - 1] ? 1u : 0u; }
};

__device__ __forceinline__ std::uint64_t threadIndex() { return std::uint64_t(blockIdx.x) * blockDim.x + threadIdx.x; }
__device__ __forceinline__ std::uint64_t threadCount() { return std::uint64_t(gridDim.x) * blockDim.x; }

// ---- Atomics into the dense table ----

/// Every row adds its values at table row key - k0 and marks that key present. WarpRuns: the warp first sums each
/// run of equal keys among its 32 rows (a segmented scan by shuffles: sorted keys make runs contiguous, so lanes
/// with the same key as the lane `off` below lie in one run), and only each run's last lane adds.
template <typename T, bool WarpRuns>
__global__ void atomicsKernel(const std::int64_t* __restrict__ keys, Columns<T> cols, std::uint64_t n, std::int64_t k0,
                              T* __restrict__ table, unsigned* __restrict__ present) {
  const unsigned lane = threadIdx.x % idx::kWarpSize;
  const unsigned lanes = idx::lanesInWarp(blockDim.x, threadIdx.x / idx::kWarpSize);
  const unsigned mask = idx::laneMask(lanes);
  // base is the same for every lane of a warp, so the whole warp iterates together (shuffles need that).
  for (std::uint64_t base = threadIndex() - lane; base < n; base += threadCount()) {
    const std::uint64_t i = base + lane;
    const bool valid = i < n;
    const std::int64_t key = valid ? keys[i] : INT64_MIN;
    Vec4<T> v = valid ? cols(i) : Vec4<T>{};
    bool last = valid;
    if constexpr (WarpRuns) {
#pragma unroll
      for (unsigned off = 1; off < idx::kWarpSize; off *= 2) {
        const std::int64_t k = __shfl_up_sync(mask, key, off);
        Vec4<T> o;
#pragma unroll
        for (std::size_t c = 0; c < kColumns; ++c) o.c[c] = __shfl_up_sync(mask, v.c[c], off);
        if (lane >= off && k == key)
#pragma unroll
          for (std::size_t c = 0; c < kColumns; ++c) v.c[c] += o.c[c];
      }
      const std::int64_t next = __shfl_down_sync(mask, key, 1);
      last = valid && (lane + 1 >= lanes || next != key);
    }
    if (last) {
      const std::uint64_t row = std::uint64_t(key - k0);
#pragma unroll
      for (std::size_t c = 0; c < kColumns; ++c) atomicAdd(table + row * kColumns + c, v.c[c]);
      present[row] = 1u;
    }
  }
}

/// Dense key k present at rank g = rank[k] (exclusive scan of present): output row g.
template <typename T>
__global__ void compactKernel(const unsigned* __restrict__ present, const unsigned* __restrict__ rank,
                              const Vec4<T>* __restrict__ table, std::uint64_t span, std::int64_t k0,
                              std::int64_t* __restrict__ outKeys, Vec4<T>* __restrict__ sums) {
  for (std::uint64_t k = threadIndex(); k < span; k += threadCount())
    if (present[k]) {
      outKeys[rank[k]] = k0 + std::int64_t(k);
      sums[rank[k]] = table[k];
    }
}

// ---- Segments: starts from a flag per row and an inclusive scan, then a thread or a warp per segment ----

/// Row i that starts a segment is the start of segment segIdx[i] - 1 (segIdx = inclusive scan of the flags).
__global__ void scatterStartsKernel(const std::int64_t* __restrict__ keys, const unsigned* __restrict__ segIdx,
                                    std::uint64_t n, std::uint64_t groups, std::uint64_t* __restrict__ starts,
                                    std::int64_t* __restrict__ outKeys) {
  const StartFlag flag{keys};
  for (std::uint64_t i = threadIndex(); i < n; i += threadCount())
    if (flag(i)) {
      starts[segIdx[i] - 1] = i;
      outKeys[segIdx[i] - 1] = keys[i];
    }
  if (threadIndex() == 0) starts[groups] = n;
}

/// The seed's sum_in_cuda: thread g adds the rows of segment g (an Awkward list) in order.
template <typename T>
__global__ void threadPerSegmentKernel(const std::uint64_t* __restrict__ starts, Columns<T> cols, std::uint64_t groups,
                                       Vec4<T>* __restrict__ sums) {
  for (std::uint64_t g = threadIndex(); g < groups; g += threadCount()) {
    Vec4<T> acc{};
    for (std::uint64_t i = starts[g]; i < starts[g + 1]; ++i) acc = Vec4Add<T>{}(acc, cols(i));
    sums[g] = acc;
  }
}

/// A warp per segment: lanes stride over its rows, then a shuffle reduction per column.
template <typename T>
__global__ void warpPerSegmentKernel(const std::uint64_t* __restrict__ starts, Columns<T> cols, std::uint64_t groups,
                                     Vec4<T>* __restrict__ sums) {
  const unsigned lane = threadIdx.x % idx::kWarpSize, warp = threadIdx.x / idx::kWarpSize;
  const unsigned lanes = idx::lanesInWarp(blockDim.x, warp), warps = idx::warpsPerBlock(blockDim.x);
  for (std::uint64_t g = std::uint64_t(blockIdx.x) * warps + warp; g < groups; g += std::uint64_t(gridDim.x) * warps) {
    Vec4<T> acc{};
    for (std::uint64_t i = starts[g] + lane; i < starts[g + 1]; i += lanes) acc = Vec4Add<T>{}(acc, cols(i));
#pragma unroll
    for (std::size_t c = 0; c < kColumns; ++c) acc.c[c] = gpu::warpSum(acc.c[c], lane, lanes);
    if (lane == 0) sums[g] = acc;
  }
}

// ---- Host side ----

std::span<const std::int64_t> keysOf(const ImplContext& ctx) {
  const auto keys = ctx.inputs[0].view<std::int64_t>();
  requireSorted(keys);
  return keys;
}
template <typename T>
Vec4<T>* sumsOf(const gpu::DeviceArrays& d) {
  return reinterpret_cast<Vec4<T>*>(d.output<T>(1));
}
constexpr unsigned kAuxBlock = 256;
unsigned auxGrid(std::uint64_t work) {
  return unsigned(std::min<std::uint64_t>(ceilDiv(work ? work : 1, kAuxBlock), 65535));
}

/// CUB's temporary storage for an inclusive (or exclusive) sum of `n` unsigned from `in`.
template <typename In>
gpu::DeviceBuffer scanStorage(In in, unsigned* out, std::uint64_t n, bool exclusive) {
  std::size_t bytes = 0;
  if (exclusive)
    LAUNCHLAB_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(nullptr, bytes, in, out, int(n)));
  else
    LAUNCHLAB_CUDA_CHECK(cub::DeviceScan::InclusiveSum(nullptr, bytes, in, out, int(n)));
  return gpu::DeviceBuffer(bytes ? bytes : 1);
}

template <typename T, bool WarpRuns>
void runAtomics(ImplContext& ctx) {
  const auto keys = keysOf(ctx);
  const std::uint64_t n = ctx.setup.n, span = denseSpan(keys);
  const std::int64_t k0 = keys.front();
  const auto kernel = atomicsKernel<T, WarpRuns>;
  const auto cfg = gpu::resolveLaunch1D(ctx, kernel, n, gpu::GridPolicy::Occupancy);
  ctx.launchNote += "; dense table of " + std::to_string(span) + " keys (key - " + std::to_string(k0) +
                    "), then a scan and a compaction over it";
  gpu::DeviceBuffer table(span * kColumns * sizeof(T)), present(span * sizeof(unsigned)), rank(span * sizeof(unsigned));
  gpu::DeviceBuffer temp = scanStorage(present.as<unsigned>(), rank.as<unsigned>(), span, true);
  gpu::runPipeline(ctx, [&](gpu::DeviceArrays& d, cudaStream_t s) {
    LAUNCHLAB_CUDA_CHECK(cudaMemsetAsync(table.get(), 0, table.bytes(), s));
    LAUNCHLAB_CUDA_CHECK(cudaMemsetAsync(present.get(), 0, present.bytes(), s));
    kernel<<<gpu::toDim3(cfg.grid), gpu::toDim3(cfg.block), 0, s>>>(d.input<std::int64_t>(0), columnsOf<T>(d), n, k0,
                                                                    table.as<T>(), present.as<unsigned>());
    std::size_t bytes = temp.bytes();
    LAUNCHLAB_CUDA_CHECK(
        cub::DeviceScan::ExclusiveSum(temp.get(), bytes, present.as<unsigned>(), rank.as<unsigned>(), int(span), s));
    compactKernel<T><<<auxGrid(span), kAuxBlock, 0, s>>>(present.as<unsigned>(), rank.as<unsigned>(),
                                                         table.as<Vec4<T>>(), span, k0, d.output<std::int64_t>(0),
                                                         sumsOf<T>(d));
  });
}

/// Segment starts (and the output keys) from the flags' inclusive scan, then `segments` sums them.
template <typename T, typename SegmentKernel>
void runSegments(ImplContext& ctx, SegmentKernel kernel, std::uint64_t workItemsPerSegment) {
  keysOf(ctx);
  const std::uint64_t n = ctx.setup.n, groups = ctx.outputs[0].size();
  const auto cfg = gpu::resolveLaunch1D(ctx, kernel, groups * workItemsPerSegment, gpu::GridPolicy::CoverN);
  ctx.launchNote += "; " + std::to_string(groups) + " segments, found first by a flag per row and CUB's scan";
  gpu::DeviceBuffer segIdx(n * sizeof(unsigned)), starts((groups + 1) * sizeof(std::uint64_t));
  using Flags = thrust::transform_iterator<StartFlag, thrust::counting_iterator<std::uint64_t>>;
  gpu::DeviceBuffer temp = scanStorage(Flags(thrust::counting_iterator<std::uint64_t>(0), StartFlag{nullptr}),
                                       segIdx.as<unsigned>(), n, false);
  gpu::runPipeline(ctx, [&](gpu::DeviceArrays& d, cudaStream_t s) {
    const std::int64_t* keys = d.input<std::int64_t>(0);
    std::size_t bytes = temp.bytes();
    LAUNCHLAB_CUDA_CHECK(cub::DeviceScan::InclusiveSum(
        temp.get(), bytes, Flags(thrust::counting_iterator<std::uint64_t>(0), StartFlag{keys}), segIdx.as<unsigned>(),
        int(n), s));
    scatterStartsKernel<<<auxGrid(n), kAuxBlock, 0, s>>>(keys, segIdx.as<unsigned>(), n, groups,
                                                         starts.as<std::uint64_t>(), d.output<std::int64_t>(0));
    kernel<<<gpu::toDim3(cfg.grid), gpu::toDim3(cfg.block), 0, s>>>(starts.as<std::uint64_t>(), columnsOf<T>(d), groups,
                                                                    sumsOf<T>(d));
  });
}

template <typename T>
void runCub(ImplContext& ctx) {
  keysOf(ctx);
  const std::uint64_t n = ctx.setup.n;
  using Values = thrust::transform_iterator<Columns<T>, thrust::counting_iterator<std::uint64_t>>;
  const Values none(thrust::counting_iterator<std::uint64_t>(0), Columns<T>{});
  gpu::DeviceBuffer runs(sizeof(std::int64_t));
  std::size_t tempBytes = 0;
  LAUNCHLAB_CUDA_CHECK(cub::DeviceReduce::ReduceByKey(
      nullptr, tempBytes, static_cast<const std::int64_t*>(nullptr), static_cast<std::int64_t*>(nullptr), none,
      static_cast<Vec4<T>*>(nullptr), runs.as<std::int64_t>(), Vec4Add<T>{}, std::int64_t(n)));
  gpu::DeviceBuffer temp(tempBytes ? tempBytes : 1);
  ctx.launched = LaunchConfig{Dim3{0, 1, 1}, Dim3{0, 1, 1}, 0};  // 0: not ours to choose
  ctx.launchNote =
      "chosen by CUB (reduce-by-key: one pass, decoupled look-back); the --block/--grid options do not apply";
  gpu::runPipeline(ctx, [&](gpu::DeviceArrays& d, cudaStream_t s) {
    std::size_t bytes = tempBytes;
    const Values values(thrust::counting_iterator<std::uint64_t>(0), columnsOf<T>(d));
    LAUNCHLAB_CUDA_CHECK(cub::DeviceReduce::ReduceByKey(temp.get(), bytes, d.input<std::int64_t>(0),
                                                        d.output<std::int64_t>(0), values, sumsOf<T>(d),
                                                        runs.as<std::int64_t>(), Vec4Add<T>{}, std::int64_t(n), s));
  });
}

template <template <typename> class Run>
void dispatch(ImplContext& ctx) {
  visitDTypeAmong<float, double>(ctx.setup.dtype, [&](auto tag) { Run<decltype(tag)>::run(ctx); });
}
template <typename T>
struct AtomicsRun {
  static void run(ImplContext& c) { runAtomics<T, false>(c); }
};
template <typename T>
struct WarpRunsRun {
  static void run(ImplContext& c) { runAtomics<T, true>(c); }
};
template <typename T>
struct ThreadRun {
  static void run(ImplContext& c) { runSegments<T>(c, threadPerSegmentKernel<T>, 1); }
};
template <typename T>
struct WarpRun {
  static void run(ImplContext& c) { runSegments<T>(c, warpPerSegmentKernel<T>, idx::kWarpSize); }
};
template <typename T>
struct CubRun {
  static void run(ImplContext& c) { runCub<T>(c); }
};

}  // namespace

void cudaAtomics(ImplContext& ctx) {
  dispatch<AtomicsRun>(ctx);
  recordRowRate(ctx, Phase::Kernel);
}
void cudaAtomicsWarpRuns(ImplContext& ctx) {
  dispatch<WarpRunsRun>(ctx);
  recordRowRate(ctx, Phase::Kernel);
}
void cudaThreadPerSegment(ImplContext& ctx) {
  dispatch<ThreadRun>(ctx);
  recordRowRate(ctx, Phase::Kernel);
}
void cudaWarpPerSegment(ImplContext& ctx) {
  dispatch<WarpRun>(ctx);
  recordRowRate(ctx, Phase::Kernel);
}
void cudaCub(ImplContext& ctx) {
  dispatch<CubRun>(ctx);
  recordRowRate(ctx, Phase::Kernel);
}

}  // namespace launchlab::kernels::groupby_sum
