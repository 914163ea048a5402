// row_col_sums: the seed's one-thread-per-line kernels, a block per row (cub::BlockReduce) with column strips, and
// cub::DeviceSegmentedReduce. Every variant writes both sums; the row pass and the column pass are timed apart
// (metrics row_sums_ms and col_sums_ms).
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>

#include <algorithm>
#include <cub/block/block_reduce.cuh>
#include <cub/device/device_segmented_reduce.cuh>
#include <type_traits>
#include <vector>

#include "common/gpu_pipeline.cuh"
#include "common/index_math.h"
#include "common/matrix_shape.h"
#include "common/probe_launch.cuh"
#include "common/vec_load.cuh"
#include "row_col_sums/row_col_sums.h"

namespace launchlab::kernels::row_col_sums {

namespace {

/// The seed's kernels: one thread per line. ByRow (row_sums): thread r walks row r, and a warp's lanes are a row
/// apart (strided). Otherwise (col_sums): thread c walks column c, and a warp's lanes read neighbouring elements of
/// one row (coalesced).
template <typename T, bool ByRow>
__global__ void lineSumsThreadKernel(const T* __restrict__ a, T* __restrict__ sums, std::uint64_t rows,
                                     std::uint64_t cols) {
  const std::uint64_t lines = ByRow ? rows : cols, len = ByRow ? cols : rows;
  const std::uint64_t along = ByRow ? 1 : cols, across = ByRow ? cols : 1;  // element steps along / across lines
  const std::uint64_t step = idx::gridStride1D(gridDim.x, blockDim.x);
  for (std::uint64_t l = idx::global1D(blockIdx.x, blockDim.x, threadIdx.x); l < lines; l += step) {
    T acc = 0;
    for (std::uint64_t k = 0; k < len; ++k) acc += a[l * across + k * along];
    sums[l] = acc;
  }
}

constexpr unsigned kBlock = 256;  // threads of the block-per-row and strip kernels (CUB's BlockReduce size)
constexpr unsigned kChains = 4;   // independent loads in flight per thread

/// Adds element or vector v into accumulator slot u of a thread (scalars, or 16-byte vectors lane by lane).
template <typename A>
__device__ __forceinline__ void accumulate(A& acc, const A& v) {
  if constexpr (std::is_arithmetic_v<A>)
    acc += v;
  else
    acc = gpu::vadd(acc, v);
}
/// Sum of the lanes of a 16-byte vector (or the scalar itself).
template <typename T, typename A>
__device__ __forceinline__ T lanes(const A& v) {
  if constexpr (std::is_arithmetic_v<A>)
    return v;
  else {
    T s = 0;
    gpu::forEachLane(v, [&](T x) { s += x; });
    return s;
  }
}

/// The unit a thread loads: one element, or (Vec) a 16-byte vector of 16 / sizeof(T) elements of one row. Vec needs
/// cols to be a multiple of the vector width, so that every row starts a vector.
template <typename T, bool Vec>
using Unit = std::conditional_t<Vec, gpu::Vec16T<T>, T>;
template <typename T, bool Vec>
constexpr unsigned kUnitWidth = Vec ? unsigned(gpu::kVec16Width<T>) : 1u;
template <typename T, bool Vec>
__device__ __forceinline__ Unit<T, Vec> loadUnit(const T* __restrict__ a, std::uint64_t i) {
  if constexpr (Vec)
    return gpu::loadVec16(a, i);
  else
    return a[i];
}

/// One block per row (grid-stride over rows): 4 coalesced loads in flight per thread (16 bytes each when Vec), then
/// cub::BlockReduce.
template <typename T, bool Vec>
__global__ void __launch_bounds__(kBlock)
    rowSumsBlockKernel(const T* __restrict__ a, T* __restrict__ sums, std::uint64_t rows, std::uint64_t cols) {
  using Reduce = cub::BlockReduce<T, kBlock>;
  using U = Unit<T, Vec>;
  __shared__ typename Reduce::TempStorage temp;
  const std::uint64_t units = cols / kUnitWidth<T, Vec>;
  for (std::uint64_t r = blockIdx.x; r < rows; r += gridDim.x) {
    const T* row = a + r * cols;
    U acc[kChains] = {};
    std::uint64_t c = threadIdx.x;
    for (; c + (kChains - 1) * kBlock < units; c += kChains * kBlock) {
      U v[kChains];
#pragma unroll
      for (unsigned u = 0; u < kChains; ++u) v[u] = loadUnit<T, Vec>(row, c + u * kBlock);
#pragma unroll
      for (unsigned u = 0; u < kChains; ++u) accumulate(acc[u], v[u]);
    }
    for (; c < units; c += kBlock) accumulate(acc[0], loadUnit<T, Vec>(row, c));
    const T mine = (lanes<T>(acc[0]) + lanes<T>(acc[1])) + (lanes<T>(acc[2]) + lanes<T>(acc[3]));
    const T total = Reduce(temp).Sum(mine);
    if (threadIdx.x == 0) sums[r] = total;
    __syncthreads();  // temp is reused by the next row
  }
}

/// Column strips: block (x, y) adds the 256 units (columns, or 16-byte column groups when Vec) [256x, 256x + 256)
/// over rows [y·chunk, (y + 1)·chunk), coalesced, and adds its partial sums to `sums` (zeroed before) atomically.
template <typename T, bool Vec>
__global__ void __launch_bounds__(kBlock)
    colSumsStripKernel(const T* __restrict__ a, T* __restrict__ sums, std::uint64_t rows, std::uint64_t cols,
                       std::uint64_t chunk) {
  using U = Unit<T, Vec>;
  constexpr unsigned W = kUnitWidth<T, Vec>;
  const std::uint64_t units = cols / W, c = idx::global1D(blockIdx.x, kBlock, threadIdx.x);
  if (c >= units) return;
  const std::uint64_t r0 = std::uint64_t(blockIdx.y) * chunk, r1 = min(rows, r0 + chunk);
  U acc[kChains] = {};
  std::uint64_t r = r0;
  for (; r + kChains <= r1; r += kChains) {
    U v[kChains];
#pragma unroll
    for (unsigned u = 0; u < kChains; ++u) v[u] = loadUnit<T, Vec>(a, (r + u) * units + c);
#pragma unroll
    for (unsigned u = 0; u < kChains; ++u) accumulate(acc[u], v[u]);
  }
  for (; r < r1; ++r) accumulate(acc[0], loadUnit<T, Vec>(a, r * units + c));
  accumulate(acc[0], acc[1]);
  accumulate(acc[2], acc[3]);
  accumulate(acc[0], acc[2]);
  if constexpr (Vec) {
    unsigned k = 0;
    gpu::forEachLane(acc[0], [&](T x) { atomicAdd(sums + c * W + k++, x); });
  } else {
    atomicAdd(sums + c, acc[0]);
  }
}

/// Events around the row pass and the column pass of every repetition; their medians (warm-up left out) become
/// the metrics row_sums_ms and col_sums_ms.
class PassTimer {
 public:
  explicit PassTimer(const ImplContext& ctx) : m_events(3 * std::size_t(ctx.warmup + ctx.reps)), m_warmup(ctx.warmup) {}
  template <typename RowPass, typename ColPass>
  void run(cudaStream_t s, RowPass&& rowPass, ColPass&& colPass) {
    gpu::Event* e = &m_events[3 * m_rep++];
    e[0].record(s);
    rowPass();
    e[1].record(s);
    colPass();
    e[2].record(s);
  }
  void report(ImplContext& ctx) const {
    std::vector<double> rowMs, colMs;
    for (std::size_t r = std::size_t(m_warmup); r < m_rep; ++r) {
      rowMs.push_back(m_events[3 * r + 1].elapsedSince(m_events[3 * r]));
      colMs.push_back(m_events[3 * r + 2].elapsedSince(m_events[3 * r + 1]));
    }
    ctx.metrics["row_sums_ms"] = summarize(rowMs).medianMs;
    ctx.metrics["col_sums_ms"] = summarize(colMs).medianMs;
  }

 private:
  std::vector<gpu::Event> m_events;
  int m_warmup;
  std::size_t m_rep = 0;
};

template <typename Kernel>
int residentPerSm(Kernel kernel) {
  int perSm = 0;
  LAUNCHLAB_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&perSm, kernel, int(kBlock), 0));
  return std::max(perSm, 1);
}

template <typename F>
void forDType(ImplContext& ctx, F&& f) {
  visitDTypeAmong<float, double>(ctx.setup.dtype, f);
}

}  // namespace

void cudaThreadPerLine(ImplContext& ctx) {
  forDType(ctx, [&](auto tag) {
    using T = decltype(tag);
    const MatrixShape m = matrixShape(ctx.setup);
    const auto cfg =
        gpu::resolveLaunch1D(ctx, lineSumsThreadKernel<T, false>, std::max(m.rows, m.cols), gpu::GridPolicy::CoverN);
    int perSm = 0;
    LAUNCHLAB_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&perSm, lineSumsThreadKernel<T, false>,
                                                                       int(cfg.block.count()), 0));
    ctx.launchNote +=
        "; the same launch for both kernels; " + wavesNote(cfg.grid.count(), ctx.device->multiprocessors, perSm);
    PassTimer timer(ctx);
    gpu::runPipeline(ctx, [&](gpu::DeviceArrays& d, cudaStream_t s) {
      const dim3 g = gpu::toDim3(cfg.grid), b = gpu::toDim3(cfg.block);
      timer.run(
          s,
          [&] {
            gpu::launch(ctx, lineSumsThreadKernel<T, true>, g, b, 0, s, d.input<T>(0), d.output<T>(0), m.rows, m.cols);
          },
          [&] {
            gpu::launch(ctx, lineSumsThreadKernel<T, false>, g, b, 0, s, d.input<T>(0), d.output<T>(1), m.rows, m.cols);
          });
    });
    timer.report(ctx);
  });
}

namespace {

/// The block-per-row pass and the column strips, in 16-byte vectors (Vec) or elements.
template <typename T, bool Vec>
void blockReduce(ImplContext& ctx, const MatrixShape& m) {
  constexpr unsigned W = kUnitWidth<T, Vec>;
  const std::uint64_t sms = std::uint64_t(std::max(ctx.device->multiprocessors, 1));
  const std::uint64_t rowGrid = std::min<std::uint64_t>(m.rows, sms * residentPerSm(rowSumsBlockKernel<T, Vec>));
  // Strips of 256 units, each cut into row chunks so that the blocks fill every SM once.
  const std::uint64_t strips = ceilDiv(m.cols / W, kBlock);
  const std::uint64_t wave = sms * residentPerSm(colSumsStripKernel<T, Vec>);
  const std::uint64_t chunks0 =
      std::clamp<std::uint64_t>(ceilDiv(wave, strips), 1, std::min<std::uint64_t>(m.rows, 65535));
  const std::uint64_t chunk = ceilDiv(m.rows, chunks0), chunks = ceilDiv(m.rows, chunk);
  ctx.launched = LaunchConfig{Dim3{std::uint32_t(rowGrid), 1, 1}, Dim3{kBlock, 1, 1}, 0};
  const std::string unit = Vec ? "16-byte loads (" + std::to_string(W) + " elements)" : "one element per load";
  ctx.launchNote = "row pass: one block of " + std::to_string(kBlock) + " per row, grid " + std::to_string(rowGrid) +
                   " (min(rows, resident blocks)); column pass: grid " + std::to_string(strips) + " x " +
                   std::to_string(chunks) + " (strips of " + std::to_string(kBlock * W) + " columns x chunks of " +
                   std::to_string(chunk) + " rows); " + unit +
                   (Vec ? "" : " (cols is not a multiple of " + std::to_string(gpu::kVec16Width<T>) + ")") +
                   "; the --block/--grid options do not apply";
  PassTimer timer(ctx);
  gpu::runPipeline(ctx, [&](gpu::DeviceArrays& d, cudaStream_t s) {
    timer.run(
        s,
        [&] {
          gpu::launch(ctx, rowSumsBlockKernel<T, Vec>, unsigned(rowGrid), kBlock, 0, s, d.input<T>(0), d.output<T>(0),
                      m.rows, m.cols);
        },
        [&] {
          LAUNCHLAB_CUDA_CHECK(cudaMemsetAsync(d.output<T>(1), 0, m.cols * sizeof(T), s));
          gpu::launch(ctx, colSumsStripKernel<T, Vec>, dim3(unsigned(strips), unsigned(chunks)), kBlock, 0, s,
                      d.input<T>(0), d.output<T>(1), m.rows, m.cols, chunk);
        });
  });
  timer.report(ctx);
}

}  // namespace

void cudaBlockReduce(ImplContext& ctx) {
  forDType(ctx, [&](auto tag) {
    using T = decltype(tag);
    const MatrixShape m = matrixShape(ctx.setup);
    if (m.cols % gpu::kVec16Width<T> == 0)
      blockReduce<T, true>(ctx, m);
    else
      blockReduce<T, false>(ctx, m);
  });
}

namespace {

/// Offset of segment k when every segment has `len` elements.
struct SegmentStart {
  std::int64_t len;
  __host__ __device__ std::int64_t operator()(std::int64_t k) const { return k * len; }
};
/// Element k of a's column-major view: a[k mod rows][k div rows].
template <typename T>
struct ColumnMajor {
  const T* a;
  std::int64_t rows, cols;
  __host__ __device__ T operator()(std::int64_t k) const { return a[(k % rows) * cols + k / rows]; }
};

template <typename T, typename In>
void segmentedSum(void* temp, std::size_t& bytes, In in, T* out, std::int64_t segments, std::int64_t len,
                  cudaStream_t s) {
  const auto offsets = thrust::make_transform_iterator(thrust::counting_iterator<std::int64_t>(0), SegmentStart{len});
  LAUNCHLAB_CUDA_CHECK(cub::DeviceSegmentedReduce::Sum(temp, bytes, in, out, segments, offsets, offsets + 1, s));
}

}  // namespace

void cudaCubSegmented(ImplContext& ctx) {
  forDType(ctx, [&](auto tag) {
    using T = decltype(tag);
    const MatrixShape m = matrixShape(ctx.setup);
    const auto rows = std::int64_t(m.rows), cols = std::int64_t(m.cols);
    auto columns = [&](const T* a) {
      return thrust::make_transform_iterator(thrust::counting_iterator<std::int64_t>(0), ColumnMajor<T>{a, rows, cols});
    };
    std::size_t rowBytes = 0, colBytes = 0;
    segmentedSum<T>(nullptr, rowBytes, static_cast<const T*>(nullptr), static_cast<T*>(nullptr), rows, cols, 0);
    segmentedSum<T>(nullptr, colBytes, columns(nullptr), static_cast<T*>(nullptr), cols, rows, 0);
    gpu::DeviceBuffer temp(std::max<std::size_t>({rowBytes, colBytes, 1}));
    ctx.launched = LaunchConfig{Dim3{0, 1, 1}, Dim3{0, 1, 1}, 0};  // 0: not ours to choose
    ctx.launchNote = "chosen by CUB (its tuning policy); the --block/--grid options do not apply";
    PassTimer timer(ctx);
    gpu::runPipeline(ctx, [&](gpu::DeviceArrays& d, cudaStream_t s) {
      timer.run(
          s,
          [&] {
            std::size_t b = rowBytes;
            segmentedSum<T>(temp.get(), b, d.input<T>(0), d.output<T>(0), rows, cols, s);
          },
          [&] {
            std::size_t b = colBytes;
            segmentedSum<T>(temp.get(), b, columns(d.input<T>(0)), d.output<T>(1), cols, rows, s);
          });
    });
    timer.report(ctx);
  });
}

}  // namespace launchlab::kernels::row_col_sums
