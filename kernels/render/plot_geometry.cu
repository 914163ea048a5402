// The CUDA twins of core's plot-geometry builders (render/plot_geometry_gpu.h): same selections, same integer
// column arithmetic (128 bits), same float conversions, so the bytes equal the CPU's (tests compare with memcmp).
// M4: one block scans a (column, part) range; long columns are split into parts so that few columns still fill
// the GPU, and a second kernel combines each column's parts in index order with the CPU's tie rule.
#include <cuda_runtime.h>

#include <algorithm>
#include <type_traits>

#include "common/cuda_check.h"
#include "render/plot_geometry_gpu.h"

namespace launchlab::geom::gpu {

namespace {

__extension__ typedef unsigned __int128 u128;
using u64 = std::uint64_t;
using u32 = std::uint32_t;

constexpr u64 kNone = ~0ull;
constexpr u32 kNone32 = ~0u;
constexpr int kThreads = 256;
constexpr int kWarps = kThreads / 32;
constexpr int kUnroll = 8;            // loads in flight per thread
constexpr u64 kMaxPart = 1ull << 30;  // elements one block scans: offsets stay 32-bit
constexpr u64 kMinPart = 1ull << 14;  // a shorter part costs more to combine than it saves
constexpr u64 kBlocksPerSm = 16;      // M4 blocks wanted per SM before columns are split
constexpr unsigned kFull = 0xffffffffu;

/// floor(i * n / m) in 128 bits, as core's m4ColumnStart and pointVertices compute it.
__host__ __device__ inline u64 scaledFloor(u64 i, u64 n, u64 m) {
  return static_cast<u64>(static_cast<u128>(i) * n / m);
}

constexpr int kQuietNaN = 0x7fc00000;  // the CPU's std::numeric_limits<float>::quiet_NaN()

/// The element as float, every NaN as the CPU's quiet NaN (core's toFloat).
template <typename T> __device__ inline float toFloat(T v) {
  if constexpr (std::is_floating_point_v<T>)
    if (isnan(v)) return __int_as_float(kQuietNaN);
  return static_cast<float>(v);
}

template <typename T> __device__ inline bool finiteValue(T v) {
  if constexpr (std::is_floating_point_v<T>) return isfinite(v);
  else return true;
}

/// A scan over one range: offsets of its first and last finite elements, of its minimum and maximum (with their
/// values); first == kNone32 when it has no finite element. Trivial, so that it can live in shared memory.
template <typename T> struct Pick {
  u32 first, last, minAt, maxAt;
  T lo, hi;
};
template <typename T> __device__ inline Pick<T> emptyPick() { return {kNone32, 0, kNone32, kNone32, T{}, T{}}; }

template <typename T> __device__ inline void visit(Pick<T>& p, T v, u32 o) {
  if (!finiteValue(v)) return;
  if (p.first == kNone32) {
    p.first = p.minAt = p.maxAt = o;
    p.lo = p.hi = v;
  }
  if (v < p.lo) p.lo = v, p.minAt = o;
  if (v > p.hi) p.hi = v, p.maxAt = o;
  p.last = o;
}

/// Order-free merge: the (value, offset) pairs are totally ordered, so any reduction tree gives the lowest offset
/// among equal extremes, as the CPU's left-to-right scan does.
template <typename T> __device__ inline Pick<T> merge(const Pick<T>& a, const Pick<T>& b) {
  if (b.first == kNone32) return a;
  if (a.first == kNone32) return b;
  Pick<T> r = a;
  r.first = min(a.first, b.first);
  r.last = max(a.last, b.last);
  if (b.lo < a.lo || (b.lo == a.lo && b.minAt < a.minAt)) r.lo = b.lo, r.minAt = b.minAt;
  if (b.hi > a.hi || (b.hi == a.hi && b.maxAt < a.maxAt)) r.hi = b.hi, r.maxAt = b.maxAt;
  return r;
}

template <typename T> __device__ inline T shflDown(T v, int d) {
  if constexpr (sizeof(T) < 4) return static_cast<T>(__shfl_down_sync(kFull, static_cast<int>(v), d));
  else return __shfl_down_sync(kFull, v, d);
}

template <typename T> __device__ Pick<T> warpMerge(Pick<T> p) {
  for (int d = 16; d > 0; d /= 2) {
    const Pick<T> o{__shfl_down_sync(kFull, p.first, d), __shfl_down_sync(kFull, p.last, d),
                    __shfl_down_sync(kFull, p.minAt, d), __shfl_down_sync(kFull, p.maxAt, d), shflDown(p.lo, d),
                    shflDown(p.hi, d)};
    p = merge(p, o);
  }
  return p;
}

/// The block's merged pick, valid in thread 0. Ends with a barrier so `warps` can be reused.
template <typename T> __device__ Pick<T> blockMerge(Pick<T> p) {
  __shared__ Pick<T> warps[kWarps];
  p = warpMerge(p);
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  if (lane == 0) warps[warp] = p;
  __syncthreads();
  if (warp == 0) p = warpMerge(lane < kWarps ? warps[lane] : emptyPick<T>());
  __syncthreads();
  return p;
}

template <typename T> __device__ Pick<T> scanRange(const T* __restrict__ d, u32 len) {
  Pick<T> p = emptyPick<T>();
  for (u32 base = threadIdx.x; base < len; base += kThreads * kUnroll) {
    T v[kUnroll];
#pragma unroll
    for (int k = 0; k < kUnroll; ++k) {
      const u32 o = base + k * kThreads;
      v[k] = o < len ? d[o] : T{};
    }
#pragma unroll
    for (int k = 0; k < kUnroll; ++k)
      if (base + k * kThreads < len) visit(p, v[k], base + k * kThreads);
  }
  return p;
}

/// Absolute indices of a column's (or a part's) picks; first == kNone when it has no finite element.
struct Picked {
  u64 first, minAt, maxAt, last;
};

template <typename T> __device__ inline Picked absolute(const Pick<T>& p, u64 from) {
  if (p.first == kNone32) return {kNone, kNone, kNone, kNone};
  return {from + p.first, from + p.minAt, from + p.maxAt, from + p.last};
}

template <typename T> __device__ inline Vertex2 vertexAt(const T* data, u64 i, u64 begin) {
  return {static_cast<float>(i - begin), toFloat(data[i])};
}

template <typename T> __device__ void writeColumn(const T* data, u64 begin, u64 start, const Picked& p, Vertex2* out) {
  if (p.first == kNone) {
    const Vertex2 gap{static_cast<float>(start - begin), __int_as_float(kQuietNaN)};
    for (int k = 0; k < 4; ++k) out[k] = gap;
    return;
  }
  out[0] = vertexAt(data, p.first, begin);
  out[1] = vertexAt(data, min(p.minAt, p.maxAt), begin);
  out[2] = vertexAt(data, max(p.minAt, p.maxAt), begin);
  out[3] = vertexAt(data, p.last, begin);
}

struct M4Shape {
  u64 begin, n;
  u32 columns, parts;
  __device__ u64 columnStart(u32 c) const { return begin + scaledFloor(c, n, columns); }
};

template <typename T>
__global__ void __launch_bounds__(kThreads)
    m4Blocks(const T* __restrict__ data, M4Shape s, Vertex2* out, Picked* partial) {
  const u64 total = u64(s.columns) * s.parts;
  for (u64 b = blockIdx.x; b < total; b += gridDim.x) {
    const u32 c = static_cast<u32>(b / s.parts), part = static_cast<u32>(b % s.parts);
    const u64 start = s.columnStart(c), len = s.columnStart(c + 1) - start;
    const u64 from = start + scaledFloor(part, len, s.parts);
    const auto count = static_cast<u32>(start + scaledFloor(part + 1, len, s.parts) - from);
    const Picked r = absolute(blockMerge(scanRange(data + from, count)), from);
    if (threadIdx.x == 0) {
      if (s.parts == 1) writeColumn(data, s.begin, start, r, out + 4 * u64(c));
      else partial[b] = r;
    }
  }
}

/// b follows a in index order: b's extremes win only when strictly beyond a's (the lowest index wins ties).
template <typename T> __device__ Picked mergeInOrder(const T* data, Picked a, const Picked& b) {
  if (b.first == kNone) return a;
  if (a.first == kNone) return b;
  a.last = b.last;
  if (data[b.minAt] < data[a.minAt]) a.minAt = b.minAt;
  if (data[b.maxAt] > data[a.maxAt]) a.maxAt = b.maxAt;
  return a;
}

template <typename T> __global__ void m4Combine(const T* __restrict__ data, M4Shape s, const Picked* partial, Vertex2* out) {
  for (u64 c = blockIdx.x * u64(blockDim.x) + threadIdx.x; c < s.columns; c += u64(gridDim.x) * blockDim.x) {
    Picked r = partial[c * s.parts];
    for (u32 p = 1; p < s.parts; ++p) r = mergeInOrder(data, r, partial[c * s.parts + p]);
    writeColumn(data, s.begin, s.columnStart(static_cast<u32>(c)), r, out + 4 * c);
  }
}

template <typename T> __global__ void barsKernel(const T* __restrict__ d, u64 bins, u64 k, u64 bars, float* out) {
  for (u64 b = blockIdx.x * u64(blockDim.x) + threadIdx.x; b < bars; b += u64(gridDim.x) * blockDim.x) {
    double sum = 0;
    for (u64 i = b * k, e = min(bins, (b + 1) * k); i < e; ++i) sum += static_cast<double>(d[i]);
    out[b] = toFloat(sum);
  }
}

template <typename T> __global__ void texelsKernel(const T* __restrict__ d, u64 count, float* out) {
  for (u64 i = blockIdx.x * u64(blockDim.x) + threadIdx.x; i < count; i += u64(gridDim.x) * blockDim.x)
    out[i] = toFloat(d[i]);
}

template <typename T> __global__ void pointsKernel(const T* __restrict__ d, u64 k, u64 m, PointVertex* out) {
  for (u64 i = blockIdx.x * u64(blockDim.x) + threadIdx.x; i < m; i += u64(gridDim.x) * blockDim.x) {
    const u64 j = scaledFloor(i, k, m);
    out[i] = {toFloat(d[j]), toFloat(d[k + j]), toFloat(d[2 * k + j])};
  }
}

int smCount() {
  int dev = 0, sms = 0;
  if (cudaGetDevice(&dev) != cudaSuccess || cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev) != cudaSuccess)
    return 0;
  return sms;
}

/// Parts per column: enough blocks for the whole GPU when columns are few, parts of at least kMinPart elements,
/// none longer than kMaxPart.
u32 partsFor(u64 n, u32 columns, int sms) {
  if (columns == 0) return 1;
  const u64 shortest = n / columns, longest = (n + columns - 1) / columns, target = u64(std::max(sms, 1)) * kBlocksPerSm;
  u64 parts = 1;
  if (columns < target) parts = std::min((target + columns - 1) / columns, std::max<u64>(1, shortest / kMinPart));
  parts = std::max(parts, (longest + kMaxPart - 1) / kMaxPart);
  return static_cast<u32>(parts);
}

/// Blocks for a grid-stride loop over `work` items of kThreads each: enough for every SM, no more than needed.
unsigned gridFor(u64 work, u64 perBlock = kThreads) {
  const u64 blocks = (work + perBlock - 1) / perBlock, cap = u64(std::max(smCount(), 1)) * 32;
  return static_cast<unsigned>(std::max<u64>(1, std::min(blocks, cap)));
}

Built launched(std::size_t count) {
  const cudaError_t e = cudaGetLastError();
  if (e != cudaSuccess) return {0, launchlab::gpu::errorText(e)};
  return {count, {}};
}

cudaStream_t asStream(void* s) { return static_cast<cudaStream_t>(s); }

}  // namespace

std::size_t m4ScratchBytes(std::uint64_t n, std::uint32_t columns) {
  const u32 cols = m4Columns(n, columns);
  const u32 parts = partsFor(n, cols, smCount());
  return parts > 1 ? std::size_t{cols} * parts * sizeof(Picked) : 0;
}

Built m4Vertices(const void* data, DType dt, std::uint64_t begin, std::uint64_t end, std::uint32_t columns,
                 Vertex2* out, void* stream, void* scratch, std::size_t scratchBytes) {
  const u64 n = end > begin ? end - begin : 0;
  const M4Shape s{begin, n, m4Columns(n, columns), partsFor(n, m4Columns(n, columns), smCount())};
  if (s.columns == 0) return {0, {}};
  const std::size_t need = s.parts > 1 ? std::size_t{s.columns} * s.parts * sizeof(Picked) : 0;
  if (scratch && scratchBytes < need)
    return {0, "m4Vertices: scratch of " + std::to_string(scratchBytes) + " bytes, " + std::to_string(need) + " needed"};
  void* owned = nullptr;
  if (need && !scratch) {
    if (const cudaError_t e = cudaMallocAsync(&owned, need, asStream(stream)); e != cudaSuccess)
      return {0, launchlab::gpu::errorText(e)};
    scratch = owned;
  }
  visitDType(dt, [&](auto tag) {
    using T = decltype(tag);
    const T* d = static_cast<const T*>(data);
    auto* partial = static_cast<Picked*>(scratch);
    m4Blocks<T><<<gridFor(u64(s.columns) * s.parts, 1), kThreads, 0, asStream(stream)>>>(d, s, out, partial);
    if (s.parts > 1) m4Combine<T><<<gridFor(s.columns), kThreads, 0, asStream(stream)>>>(d, s, partial, out);
  });
  Built r = launched(4 * std::size_t{s.columns});
  if (owned) cudaFreeAsync(owned, asStream(stream));
  return r;
}

Built histogramBarHeights(const void* counts, DType dt, std::uint64_t bins, std::uint32_t maxBars, float* out,
                          void* stream) {
  if (maxBars == 0 || bins == 0) return {0, {}};
  const u64 k = geom::histogramBinsPerBar(bins, maxBars), bars = (bins + k - 1) / k;
  visitDType(dt, [&](auto tag) {
    using T = decltype(tag);
    barsKernel<T><<<gridFor(bars), kThreads, 0, asStream(stream)>>>(static_cast<const T*>(counts), bins, k, bars, out);
  });
  return launched(static_cast<std::size_t>(bars));
}

Built imageTexels(const void* data, DType dt, std::uint64_t count, float* out, void* stream) {
  if (count == 0) return {0, {}};
  visitDType(dt, [&](auto tag) {
    using T = decltype(tag);
    texelsKernel<T><<<gridFor(count), kThreads, 0, asStream(stream)>>>(static_cast<const T*>(data), count, out);
  });
  return launched(static_cast<std::size_t>(count));
}

Built pointVertices(const void* data, DType dt, std::uint64_t k, std::uint64_t maxPoints, PointVertex* out,
                    void* stream) {
  const u64 m = std::min(k, maxPoints);
  if (m == 0) return {0, {}};
  visitDType(dt, [&](auto tag) {
    using T = decltype(tag);
    pointsKernel<T><<<gridFor(m), kThreads, 0, asStream(stream)>>>(static_cast<const T*>(data), k, m, out);
  });
  return launched(static_cast<std::size_t>(m));
}

}  // namespace launchlab::geom::gpu
