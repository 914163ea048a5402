// The CPU builders of the GPU plot views' buffers (launchlab/plot/plot_geometry.h): the host-upload path and the
// reference the CUDA twins (kernels/render/plot_geometry.cu) must match byte for byte. Every rule is a selection
// or an integer computation; the only sum (histogram bars) runs in double in bin order, as the GPU does.
#include "launchlab/plot/plot_geometry.h"

#include <omp.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <type_traits>

namespace launchlab::geom {

namespace {

__extension__ typedef unsigned __int128 u128;

/// floor(i * n / m) in 128 bits (i * n may exceed 2^64).
std::uint64_t scaledIndex(std::uint64_t i, std::uint64_t n, std::uint64_t m) {
  return static_cast<std::uint64_t>(static_cast<u128>(i) * n / m);
}

/// The element as float; every NaN becomes the one quiet NaN 0x7fc00000 (CUDA's conversions drop NaN payloads, the
/// CPU's keep them: without this the bytes would differ).
template <typename T>
float toFloat(T v) {
  if constexpr (std::is_floating_point_v<T>)
    if (std::isnan(v)) return std::numeric_limits<float>::quiet_NaN();
  return static_cast<float>(v);
}

template <typename T>
bool isFiniteValue(T v) {
  if constexpr (std::is_floating_point_v<T>)
    return std::isfinite(v);
  else
    return true;
}

/// What a column's scan keeps: indices of its first and last finite elements, of its minimum and its maximum
/// (lowest index on ties). `none` when the column has no finite element.
struct ColumnPick {
  static constexpr std::uint64_t none = std::numeric_limits<std::uint64_t>::max();
  std::uint64_t first = none, minAt = none, maxAt = none, last = none;
};

/// The minimum and maximum of d[0, n) over its finite elements, into lo and hi (which start at a finite element of
/// the range, so masked-out elements can stand in for it). One vectorised pass: which copy of an equal extreme it
/// keeps does not matter, firstEqual finds the lowest index after.
template <typename T>
void extremes(const T* __restrict d, std::uint64_t n, T& lo, T& hi) {
  const T seed = lo;
  T l = lo, h = hi;
#pragma omp simd reduction(min : l) reduction(max : h)
  for (std::uint64_t k = 0; k < n; ++k) {
    T x = d[k];
    if constexpr (std::is_floating_point_v<T>) x = std::abs(x) <= std::numeric_limits<T>::max() ? x : seed;
    l = std::min(l, x);
    h = std::max(h, x);
  }
  lo = l;
  hi = h;
}

/// The lowest index of [from, to) holding a value equal to v (finite, and present there).
template <typename T>
std::uint64_t firstEqual(const T* data, std::uint64_t from, std::uint64_t to, T v) {
  while (from < to && !(data[from] == v)) ++from;
  return from;
}

/// The column's first and last finite elements from both ends, then its extremes in two passes: their values, then
/// the lowest index of each (what a left-to-right scan with strict comparisons keeps).
template <typename T>
ColumnPick scanColumn(const T* data, std::uint64_t from, std::uint64_t to) {
  ColumnPick p;
  std::uint64_t i = from;
  while (i < to && !isFiniteValue(data[i])) ++i;
  if (i == to) return p;
  std::uint64_t j = to - 1;
  while (!isFiniteValue(data[j])) --j;
  p.first = i;
  p.last = j;
  T lo = data[i], hi = data[i];
  extremes(data + i, j + 1 - i, lo, hi);
  p.minAt = firstEqual(data, i, j + 1, lo);
  p.maxAt = firstEqual(data, i, j + 1, hi);
  return p;
}

template <typename T>
Vertex2 vertexAt(const T* data, std::uint64_t i, std::uint64_t begin) {
  return {static_cast<float>(i - begin), toFloat(data[i])};
}

template <typename T>
void writeColumn(const T* data, std::uint64_t begin, std::uint64_t start, const ColumnPick& p, Vertex2* out) {
  if (p.first == ColumnPick::none) {
    const Vertex2 gap{static_cast<float>(start - begin), std::numeric_limits<float>::quiet_NaN()};
    std::fill(out, out + 4, gap);
    return;
  }
  const std::uint64_t a = std::min(p.minAt, p.maxAt), b = std::max(p.minAt, p.maxAt);
  out[0] = vertexAt(data, p.first, begin);
  out[1] = vertexAt(data, a, begin);
  out[2] = vertexAt(data, b, begin);
  out[3] = vertexAt(data, p.last, begin);
}

constexpr std::int64_t kParallelFrom = 1 << 16;  // elements: below this the threads cost more than they save

/// Geometry runs on a renderer's thread, not on the engine's. libgomp keeps an idle pool of threads for every
/// thread that started a parallel loop, and once the pools together hold more threads than there are cores it
/// stops spinning in all of them: each timed repetition of a CPU-parallel implementation then waits for its
/// threads to be woken (about 4x slower at small sizes on an idle machine, milliseconds while the window draws).
/// So a parallel loop here hands its threads back at once, and the process keeps one pool: the engine's.
void releaseThreads(std::int64_t n) {
  if (n >= kParallelFrom) omp_pause_resource(omp_pause_soft, omp_get_initial_device());
}

}  // namespace

std::uint32_t m4Columns(std::uint64_t n, std::uint32_t requested) {
  return static_cast<std::uint32_t>(std::min<std::uint64_t>(n, requested));
}

std::uint64_t m4ColumnStart(std::uint64_t begin, std::uint64_t n, std::uint32_t columns, std::uint32_t c) {
  return columns == 0 ? begin : begin + scaledIndex(c, n, columns);
}

std::size_t m4Vertices(const void* data, DType dt, std::uint64_t begin, std::uint64_t end, std::uint32_t columns,
                       Vertex2* out) {
  const std::uint64_t n = end > begin ? end - begin : 0;
  const std::uint32_t cols = m4Columns(n, columns);
  visitDType(dt, [&](auto tag) {
    using T = decltype(tag);
    const T* d = static_cast<const T*>(data);
    const auto count = static_cast<std::int64_t>(cols);
#pragma omp parallel for schedule(static) if (static_cast <std::int64_t>(n) >= kParallelFrom)
    for (std::int64_t c = 0; c < count; ++c) {
      const auto col = static_cast<std::uint32_t>(c);
      const std::uint64_t from = m4ColumnStart(begin, n, cols, col), to = m4ColumnStart(begin, n, cols, col + 1);
      writeColumn(d, begin, from, scanColumn(d, from, to), out + 4 * c);
    }
  });
  releaseThreads(static_cast<std::int64_t>(n));
  return 4 * std::size_t{cols};
}

std::uint32_t histogramBinsPerBar(std::uint64_t bins, std::uint32_t maxBars) {
  if (maxBars == 0 || bins <= maxBars) return 1;
  return static_cast<std::uint32_t>(
      std::min<std::uint64_t>((bins + maxBars - 1) / maxBars, std::numeric_limits<std::uint32_t>::max()));
}

std::size_t histogramBarHeights(const void* counts, DType dt, std::uint64_t bins, std::uint32_t maxBars, float* out) {
  if (maxBars == 0 || bins == 0) return 0;
  const std::uint64_t k = histogramBinsPerBar(bins, maxBars), bars = (bins + k - 1) / k;
  visitDType(dt, [&](auto tag) {
    using T = decltype(tag);
    const T* d = static_cast<const T*>(counts);
    for (std::uint64_t b = 0; b < bars; ++b) {
      double sum = 0;
      for (std::uint64_t i = b * k, e = std::min(bins, (b + 1) * k); i < e; ++i) sum += static_cast<double>(d[i]);
      out[b] = toFloat(sum);
    }
  });
  return static_cast<std::size_t>(bars);
}

std::size_t imageTexels(const void* data, DType dt, std::uint64_t count, float* out) {
  visitDType(dt, [&](auto tag) {
    using T = decltype(tag);
    const T* d = static_cast<const T*>(data);
    const auto n = static_cast<std::int64_t>(count);
#pragma omp parallel for schedule(static) if (n >= kParallelFrom)
    for (std::int64_t i = 0; i < n; ++i) out[i] = toFloat(d[i]);
  });
  releaseThreads(static_cast<std::int64_t>(count));
  return static_cast<std::size_t>(count);
}

std::size_t pointVertices(const void* data, DType dt, std::uint64_t k, std::uint64_t maxPoints, PointVertex* out) {
  const std::uint64_t m = std::min(k, maxPoints);
  visitDType(dt, [&](auto tag) {
    using T = decltype(tag);
    const T* d = static_cast<const T*>(data);
    const auto count = static_cast<std::int64_t>(m);
#pragma omp parallel for schedule(static) if (count >= kParallelFrom)
    for (std::int64_t i = 0; i < count; ++i) {
      const std::uint64_t j = scaledIndex(static_cast<std::uint64_t>(i), k, m);
      out[i] = {toFloat(d[j]), toFloat(d[k + j]), toFloat(d[2 * k + j])};
    }
  });
  releaseThreads(static_cast<std::int64_t>(m));
  return static_cast<std::size_t>(m);
}

}  // namespace launchlab::geom
