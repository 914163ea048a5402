#include "launchlab/gl/host_feeder.h"

#include <algorithm>
#include <vector>

#include "launchlab/plot/plot_geometry.h"

namespace launchlab::gl {
namespace {

/// Uploads `v` into the buffer `name`; the count on success.
template <class T>
Expected<std::size_t> put(PlotRenderer& r, unsigned name, const std::vector<T>& v, std::size_t n) {
  if (name == 0) return Expected<std::size_t>::fail("could not allocate the GL buffer");
  if (n == 0) return std::size_t{0};
  const Status s = r.upload(name, v.data(), n * sizeof(T));
  if (!s.ok()) return Expected<std::size_t>::fail(s.error);
  return n;
}

}  // namespace

Expected<std::size_t> feedWaveform(PlotRenderer& r, const void* data, DType dt, std::uint64_t begin, std::uint64_t end,
                                   std::uint32_t columns) {
  if (end < begin) return Expected<std::size_t>::fail("waveform: the range ends before it begins");
  std::vector<geom::Vertex2> v(4 * std::size_t(geom::m4Columns(end - begin, columns)));
  const std::size_t n = geom::m4Vertices(data, dt, begin, end, columns, v.data());
  return put(r, r.waveformBuffer(std::max<std::size_t>(n, 1)), v, n);
}

Expected<std::size_t> feedHistogram(PlotRenderer& r, const void* counts, DType dt, std::uint64_t bins,
                                    std::uint32_t maxBars) {
  const std::uint32_t k = geom::histogramBinsPerBar(bins, maxBars);
  std::vector<float> h(k == 0 ? 0 : std::size_t((bins + k - 1) / k));
  const std::size_t n = geom::histogramBarHeights(counts, dt, bins, maxBars, h.data());
  return put(r, r.histogramBuffer(std::max<std::size_t>(n, 1)), h, n);
}

Expected<std::size_t> feedImage(PlotRenderer& r, const void* data, DType dt, int cols, int rows) {
  if (cols < 1 || rows < 1) return Expected<std::size_t>::fail("image: no rows or columns");
  std::vector<float> t(std::size_t(cols) * std::size_t(rows));
  const std::size_t n = geom::imageTexels(data, dt, t.size(), t.data());
  return put(r, r.imageBuffer(cols, rows), t, n);
}

Expected<std::size_t> feedPoints(PlotRenderer& r, const void* data, DType dt, std::uint64_t k,
                                 std::uint64_t maxPoints) {
  std::vector<geom::PointVertex> p(std::size_t(std::min(k, maxPoints)));
  const std::size_t n = geom::pointVertices(data, dt, k, maxPoints, p.data());
  return put(r, r.pointBuffer(std::max<std::size_t>(n, 1)), p, n);
}

}  // namespace launchlab::gl
