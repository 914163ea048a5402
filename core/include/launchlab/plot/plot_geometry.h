#pragma once
/// What the GPU plot views draw, as buffers with an exact layout: the CPU builds them here (the host-upload path
/// and the reference), and kernels/render/ builds the same buffers on the GPU straight into mapped OpenGL buffers
/// (the interop path). Both must produce IDENTICAL bytes for the same input (tests compare them with memcmp):
/// every rule below is a selection or an integer computation, never a float sum whose order could differ. Every NaN
/// written is the one quiet NaN 0x7fc00000 (CUDA's conversions drop NaN payloads).
/// No GL, no CUDA, no Qt here.
#include <cstddef>
#include <cstdint>

#include "launchlab/engine/dtype.h"

namespace launchlab::geom {

/// A line or point vertex. x is relative to the first element of the range drawn (element index - begin),
/// so that it stays small when zoomed in; y is the element's value converted to float.
struct Vertex2 {
  float x = 0, y = 0;
};
/// A Monte Carlo sample: x, y, and 1 inside / 0 outside (PlotKind::Points rows 0, 1, 2).
struct PointVertex {
  float x = 0, y = 0, inside = 0;
};

/// The number of pixel columns a range of n elements decimates to: min(requested, n) (each column holds at least
/// one element, so a connected line never breaks at an empty column); 0 when n or requested is 0.
std::uint32_t m4Columns(std::uint64_t n, std::uint32_t requested);
/// First element (absolute index) of column c of [begin, begin + n) split into `columns` columns:
/// begin + floor(c * n / columns), computed exactly in 128-bit integers. Column c covers [start(c), start(c + 1)).
std::uint64_t m4ColumnStart(std::uint64_t begin, std::uint64_t n, std::uint32_t columns, std::uint32_t c);

/// M4 decimation of elements [begin, end) of `data` (dtype `dt`) into m4Columns(end - begin, columns) columns.
/// Each column gives 4 vertices, in this order: the first finite element, the minimum and the maximum (the two in
/// the order of their indices; the lowest index wins ties), the last finite element. Drawn as one connected line
/// strip this is exactly the line of every sample (the M4 property: same pixels as drawing all of them).
/// Non-finite elements (NaN, +-inf; unwritten outputs are NaN) are skipped; a column with no finite element gives
/// 4 vertices with x = its start - begin and y = NaN (the renderer draws a gap there).
/// Writes 4 * m4Columns(...) vertices to `out`; returns that count.
std::size_t m4Vertices(const void* data, DType dt, std::uint64_t begin, std::uint64_t end, std::uint32_t columns,
                       Vertex2* out);

/// Histogram bars from a counts array of `bins` elements: k = ceil(bins / maxBars) bins per bar (1 when bins <=
/// maxBars), bar b = sum of bins [b k, min((b + 1) k, bins)) accumulated in double in bin order, stored as float.
/// Returns the number of bars (ceil(bins / k)); writes that many floats to `out`.
std::uint32_t histogramBinsPerBar(std::uint64_t bins, std::uint32_t maxBars);
std::size_t histogramBarHeights(const void* counts, DType dt, std::uint64_t bins, std::uint32_t maxBars, float* out);

/// Image texels: `count` elements converted to float in place order (row-major; NaN and inf kept: the shader
/// colours them). Returns count.
std::size_t imageTexels(const void* data, DType dt, std::uint64_t count, float* out);

/// Points from a 3 x k array (row 0 x, row 1 y, row 2 inside flag; rows are k elements apart): at most maxPoints
/// of them, point i taken from column floor(i * k / m) with m = min(k, maxPoints). Returns m.
std::size_t pointVertices(const void* data, DType dt, std::uint64_t k, std::uint64_t maxPoints, PointVertex* out);

}  // namespace launchlab::geom
