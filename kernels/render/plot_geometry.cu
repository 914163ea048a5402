// The CUDA twins of core's plot-geometry builders (render/plot_geometry_gpu.h): same selections, same integer
// column arithmetic (128 bits), same float conversions, so the bytes equal the CPU's (tests compare with memcmp).
// M4: a warp (short items) or a block (long ones) scans a (column, part) range; long columns are split into parts
// so that few columns still fill the GPU, and a second kernel (a warp per column) combines a split column's parts.
// Extremes merge order-free by (value, index), which gives the CPU's lowest-index tie rule.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstring>
#include <limits>
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
constexpr u32 kUnroll = 4;            // 16-byte loads in flight per thread
constexpr u64 kMaxPart = 1ull << 30;  // elements one item holds at most: offsets stay 32-bit
constexpr u64 kMinPart = 1ull << 12;  // a shorter part costs more to combine than it saves
constexpr u64 kWarpItem = 8192;       // items up to this long are scanned by one warp, longer ones by a block
constexpr u64 kBlocksPerSm = 32;      // M4 blocks wanted per SM (4 waves of 8) before columns are split
// Resident blocks of kThreads asked of ptxas for m4BlockItems: 8 (2048 threads) where an SM holds that many, else
// what it holds; ptxas refuses a bound past the SM's threads (sm_75: 1024; sm_86 and sm_89: 1536), which failed the
// build of the default architectures (a machine without a GPU builds them all).
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ == 750
constexpr int kResidentBlocks = 4;
#elif defined(__CUDA_ARCH__) && (__CUDA_ARCH__ == 860 || __CUDA_ARCH__ == 870 || __CUDA_ARCH__ == 890)
constexpr int kResidentBlocks = 6;
#else
constexpr int kResidentBlocks = 8;
#endif
constexpr unsigned kFull = 0xffffffffu;

/// floor(i * n / m) in 128 bits, as core's m4ColumnStart and pointVertices compute it.
__host__ __device__ inline u64 scaledFloor(u64 i, u64 n, u64 m) {
  return static_cast<u64>(static_cast<u128>(i) * n / m);
}

constexpr int kQuietNaN = 0x7fc00000;  // the CPU's std::numeric_limits<float>::quiet_NaN()

/// The element as float, every NaN as the CPU's quiet NaN (core's toFloat).
template <typename T>
__device__ inline float toFloat(T v) {
  if constexpr (std::is_floating_point_v<T>)
    if (isnan(v)) return __int_as_float(kQuietNaN);
  return static_cast<float>(v);
}

template <typename T>
__device__ inline bool finiteValue(T v) {
  if constexpr (std::is_floating_point_v<T>)
    return isfinite(v);
  else
    return true;
}

/// The extremes of one range: offsets of its minimum and maximum and their values (lowest offset on ties);
/// minAt == kNone32 when the range has no finite element. Trivial, so that it can live in shared memory.
/// I: u32 offsets within a scanned range, u64 absolute indices when parts are combined.
template <typename T, typename I = u32>
struct Extremes {
  I minAt, maxAt;
  T lo, hi;
};
template <typename T, typename I = u32>
__device__ inline Extremes<T, I> noExtremes() {
  return {I(~I(0)), I(~I(0)), std::numeric_limits<T>::max(), std::numeric_limits<T>::lowest()};
}

/// One thread's next element; a thread visits its offsets in increasing order, so strict comparisons keep the
/// lowest offset. Integers need the "none yet" test (their max is a value); a finite float is below float's max
/// or equal to it, where the test is needed too.
template <typename T>
__device__ inline void visit(Extremes<T>& e, T v, u32 o) {
  if (!finiteValue(v)) return;
  if (v < e.lo || e.minAt == kNone32) e.lo = v, e.minAt = o;
  if (v > e.hi || e.maxAt == kNone32) e.hi = v, e.maxAt = o;
}

/// Order-free merge: the (value, offset) pairs are totally ordered, so any reduction tree gives the lowest offset
/// among equal extremes, as the CPU's left-to-right scan does.
template <typename T, typename I>
__device__ inline Extremes<T, I> merge(const Extremes<T, I>& a, const Extremes<T, I>& b) {
  constexpr I none = ~I(0);
  Extremes<T, I> r = a;
  if (b.minAt != none && (a.minAt == none || b.lo < a.lo || (b.lo == a.lo && b.minAt < a.minAt)))
    r.lo = b.lo, r.minAt = b.minAt;
  if (b.maxAt != none && (a.maxAt == none || b.hi > a.hi || (b.hi == a.hi && b.maxAt < a.maxAt)))
    r.hi = b.hi, r.maxAt = b.maxAt;
  return r;
}

template <typename T>
__device__ inline T shflDown(T v, int d) {
  if constexpr (sizeof(T) < 4)
    return static_cast<T>(__shfl_down_sync(kFull, static_cast<int>(v), d));
  else
    return __shfl_down_sync(kFull, v, d);
}

template <typename T, typename I>
__device__ Extremes<T, I> warpMerge(Extremes<T, I> e) {
  for (int d = 16; d > 0; d /= 2) {
    const Extremes<T, I> o{__shfl_down_sync(kFull, e.minAt, d), __shfl_down_sync(kFull, e.maxAt, d), shflDown(e.lo, d),
                           shflDown(e.hi, d)};
    e = merge(e, o);
  }
  return e;
}

/// The block's merged extremes, valid in thread 0. The caller syncs before the next call reuses `warps`.
template <typename T>
__device__ Extremes<T> blockMerge(Extremes<T> e) {
  __shared__ Extremes<T> warps[kWarps];
  e = warpMerge(e);
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  if (lane == 0) warps[warp] = e;
  __syncthreads();
  if (warp == 0) e = warpMerge(lane < kWarps ? warps[lane] : noExtremes<T>());
  return e;
}

/// The extremes of d[0, len) seen by thread r of a group of G: the elements before the first 16-byte boundary,
/// then 16-byte vectors (kUnroll in flight per thread), then the tail.
template <u32 G, typename T>
__device__ Extremes<T> scanExtremes(const T* __restrict__ d, u32 len, u32 r) {
  constexpr u32 V = 16 / sizeof(T);
  Extremes<T> e = noExtremes<T>();
  const auto misaligned = static_cast<u32>(reinterpret_cast<std::uintptr_t>(d) % 16);
  const u32 head = min(len, (16 - misaligned) % 16 / u32(sizeof(T)));
  if (r < head) visit(e, d[r], r);
  const u32 vectors = (len - head) / V;
  const uint4* vec = reinterpret_cast<const uint4*>(d + head);
  for (u32 i = r; i < vectors; i += G * kUnroll) {
    uint4 w[kUnroll];
#pragma unroll
    for (u32 k = 0; k < kUnroll; ++k) w[k] = i + k * G < vectors ? __ldg(vec + i + k * G) : make_uint4(0, 0, 0, 0);
#pragma unroll
    for (u32 k = 0; k < kUnroll; ++k) {
      if (i + k * G >= vectors) break;
      T x[V];
      memcpy(x, &w[k], sizeof(x));
#pragma unroll
      for (u32 j = 0; j < V; ++j) visit(e, x[j], head + (i + k * G) * V + j);
    }
  }
  const u32 tail = head + vectors * V + r;
  if (tail < len) visit(e, d[tail], tail);
  return e;
}

/// Offset of the first finite element of d[0, len), searched by one warp from the front; kNone32 when none.
template <typename T>
__device__ u32 firstFinite(const T* d, u32 len, u32 lane) {
  if constexpr (!std::is_floating_point_v<T>) {
    return len ? 0 : kNone32;
  } else {
    for (u32 base = 0; base < len; base += 32) {
      const unsigned m = __ballot_sync(kFull, base + lane < len && finiteValue(d[base + lane]));
      if (m) return base + __ffs(m) - 1;
    }
    return kNone32;
  }
}

/// Offset of the last finite element of d[0, len), searched by one warp from the back; kNone32 when none.
template <typename T>
__device__ u32 lastFinite(const T* d, u32 len, u32 lane) {
  if constexpr (!std::is_floating_point_v<T>) {
    return len ? len - 1 : kNone32;
  } else {
    for (u32 end = len; end > 0; end = end > 32 ? end - 32 : 0) {
      const u32 from = end > 32 ? end - 32 : 0;
      const unsigned m = __ballot_sync(kFull, from + lane < end && finiteValue(d[from + lane]));
      if (m) return from + 31 - __clz(m);
    }
    return kNone32;
  }
}

/// Absolute indices of a column's (or a part's) picks; first == kNone when it has no finite element.
struct Picked {
  u64 first, minAt, maxAt, last;
};

template <typename T>
__device__ inline Vertex2 vertexAt(const T* data, u64 i, u64 begin) {
  return {static_cast<float>(i - begin), toFloat(data[i])};
}

template <typename T>
__device__ void writeColumn(const T* data, u64 begin, u64 start, const Picked& p, Vertex2* out) {
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

/// Work item b = (column b / parts, part b % parts): the column's start and the part's elements.
struct Item {
  u64 start, from;
  u32 count;
};
__device__ inline Item itemOf(const M4Shape& s, u64 b) {
  const auto c = static_cast<u32>(b / s.parts), part = static_cast<u32>(b % s.parts);
  const u64 start = s.columnStart(c), len = s.columnStart(c + 1) - start;
  const u64 from = start + scaledFloor(part, len, s.parts);
  return {start, from, static_cast<u32>(start + scaledFloor(part + 1, len, s.parts) - from)};
}

/// Item b's result: the column's vertices when it is the whole column, else its partial pick.
template <typename T>
__device__ void finishItem(const T* data, const M4Shape& s, u64 b, const Item& it, const Extremes<T>& e, u32 first,
                           u32 last, Vertex2* out, Picked* partial) {
  const Picked p = e.minAt == kNone32 ? Picked{kNone, kNone, kNone, kNone}
                                      : Picked{it.from + first, it.from + e.minAt, it.from + e.maxAt, it.from + last};
  if (s.parts == 1)
    writeColumn(data, s.begin, it.start, p, out + 4 * b);
  else
    partial[b] = p;
}

/// One block per item (long items); warps 0 and 1 find the first and last finite elements.
template <typename T>
__global__ void __launch_bounds__(kThreads, kResidentBlocks)
    m4BlockItems(const T* __restrict__ data, M4Shape s, Vertex2* out, Picked* partial) {
  __shared__ u32 ends[2];
  const u32 warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  for (u64 b = blockIdx.x; b < u64(s.columns) * s.parts; b += gridDim.x) {
    const Item it = itemOf(s, b);
    const T* d = data + it.from;
    const Extremes<T> e = blockMerge(scanExtremes<kThreads>(d, it.count, threadIdx.x));
    if (warp < 2) {
      const u32 end = warp == 0 ? firstFinite(d, it.count, lane) : lastFinite(d, it.count, lane);
      if (lane == 0) ends[warp] = end;
    }
    __syncthreads();
    if (threadIdx.x == 0) finishItem(data, s, b, it, e, ends[0], ends[1], out, partial);
    __syncthreads();
  }
}

/// One warp per item (short items).
template <typename T>
__global__ void __launch_bounds__(kThreads)
    m4WarpItems(const T* __restrict__ data, M4Shape s, Vertex2* out, Picked* partial) {
  const u32 warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  for (u64 b = u64(blockIdx.x) * kWarps + warp; b < u64(s.columns) * s.parts; b += u64(gridDim.x) * kWarps) {
    const Item it = itemOf(s, b);
    const T* d = data + it.from;
    const Extremes<T> e = warpMerge(scanExtremes<32>(d, it.count, lane));
    const u32 first = firstFinite(d, it.count, lane), last = lastFinite(d, it.count, lane);
    if (lane == 0) finishItem(data, s, b, it, e, first, last, out, partial);
  }
}

/// One warp per column: its lanes read the column's parts; their picks merge order-free like the scans' (by value,
/// then absolute index), first and last as the lowest first and the highest last.
template <typename T>
__global__ void m4Combine(const T* __restrict__ data, M4Shape s, const Picked* partial, Vertex2* out) {
  const u32 warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  for (u64 c = u64(blockIdx.x) * kWarps + warp; c < s.columns; c += u64(gridDim.x) * kWarps) {
    Extremes<T, u64> e = noExtremes<T, u64>();
    u64 first = kNone, last = 0;
    for (u64 p = c * s.parts + lane; p < (c + 1) * s.parts; p += 32) {
      const Picked q = partial[p];
      if (q.first == kNone) continue;
      e = merge(e, Extremes<T, u64>{q.minAt, q.maxAt, data[q.minAt], data[q.maxAt]});
      first = min(first, q.first);
      last = max(last, q.last);
    }
    e = warpMerge(e);
    for (int d = 16; d > 0; d /= 2) {
      first = min(first, __shfl_down_sync(kFull, first, d));
      last = max(last, __shfl_down_sync(kFull, last, d));
    }
    const Picked r = e.minAt == kNone ? Picked{kNone, kNone, kNone, kNone} : Picked{first, e.minAt, e.maxAt, last};
    if (lane == 0) writeColumn(data, s.begin, s.columnStart(static_cast<u32>(c)), r, out + 4 * c);
  }
}

template <typename T>
__global__ void barsKernel(const T* __restrict__ d, u64 bins, u64 k, u64 bars, float* out) {
  for (u64 b = blockIdx.x * u64(blockDim.x) + threadIdx.x; b < bars; b += u64(gridDim.x) * blockDim.x) {
    double sum = 0;
    for (u64 i = b * k, e = min(bins, (b + 1) * k); i < e; ++i) sum += static_cast<double>(d[i]);
    out[b] = toFloat(sum);
  }
}

template <typename T>
__global__ void texelsKernel(const T* __restrict__ d, u64 count, float* out) {
  for (u64 i = blockIdx.x * u64(blockDim.x) + threadIdx.x; i < count; i += u64(gridDim.x) * blockDim.x)
    out[i] = toFloat(d[i]);
}

template <typename T>
__global__ void pointsKernel(const T* __restrict__ d, u64 k, u64 m, PointVertex* out) {
  for (u64 i = blockIdx.x * u64(blockDim.x) + threadIdx.x; i < m; i += u64(gridDim.x) * blockDim.x) {
    const u64 j = scaledFloor(i, k, m);
    out[i] = {toFloat(d[j]), toFloat(d[k + j]), toFloat(d[2 * k + j])};
  }
}

int smCount() {
  int dev = 0, sms = 0;
  if (cudaGetDevice(&dev) != cudaSuccess ||
      cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev) != cudaSuccess)
    return 0;
  return sms;
}

/// Parts per column: enough blocks for the whole GPU when columns are few, parts of at least kMinPart elements,
/// none longer than kMaxPart.
u32 partsFor(u64 n, u32 columns, int sms) {
  if (columns == 0) return 1;
  const u64 shortest = n / columns, longest = (n + columns - 1) / columns,
            target = u64(std::max(sms, 1)) * kBlocksPerSm;
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
    return {0,
            "m4Vertices: scratch of " + std::to_string(scratchBytes) + " bytes, " + std::to_string(need) + " needed"};
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
    const u64 items = u64(s.columns) * s.parts, longest = (s.n + s.columns - 1) / s.columns;
    if ((longest + s.parts - 1) / s.parts <= kWarpItem)
      m4WarpItems<T><<<gridFor(items, kWarps), kThreads, 0, asStream(stream)>>>(d, s, out, partial);
    else
      m4BlockItems<T><<<gridFor(items, 1), kThreads, 0, asStream(stream)>>>(d, s, out, partial);
    if (s.parts > 1) m4Combine<T><<<gridFor(s.columns, kWarps), kThreads, 0, asStream(stream)>>>(d, s, partial, out);
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
