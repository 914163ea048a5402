#include "render/render_view.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "launchlab/gl/host_feeder.h"
#include "launchlab/plot/colormap_lut.h"
#include "launchlab/plot/plot_geometry.h"

namespace launchlab::render {
namespace {

using gl::Expected;

/// Finite minimum and maximum of elements [begin, end); {0, 1} when none is finite, +-0.5 around a single value.
std::pair<double, double> finiteRange(const void* data, DType dt, std::uint64_t begin, std::uint64_t end) {
  double lo = std::numeric_limits<double>::infinity(), hi = -lo;
  visitDType(dt, [&](auto zero) {
    using T = decltype(zero);
    const T* p = static_cast<const T*>(data);
    for (std::uint64_t i = begin; i < end; ++i) {
      const double v = static_cast<double>(p[i]);
      if (!std::isfinite(v)) continue;
      lo = std::min(lo, v);
      hi = std::max(hi, v);
    }
  });
  if (!(lo <= hi)) return {0, 1};
  if (lo == hi) return {lo - 0.5, hi + 0.5};
  return {lo, hi};
}
/// The range padded by 5 % on each side (the plot's margin).
std::pair<double, double> padded(std::pair<double, double> r) {
  const double m = 0.05 * (r.second - r.first);
  return {r.first - m, r.second + m};
}

std::size_t elements(const ViewSource& s) {
  std::size_t n = 1;
  for (std::size_t d : s.shape) n *= d;
  return n;
}

/// The CPU builder (host) or its GPU twin (interop) into the right buffer; returns the count written.
template <class Host, class Gpu>
Expected<std::size_t> fill(GlBufferInterop& ib, FeedPath path, std::size_t bytes, Host&& host, Gpu&& gpu,
                           unsigned (*grow)(gl::PlotRenderer&, std::size_t), gl::PlotRenderer& r, InteropTimes* t) {
  if (path == FeedPath::HostUpload) return host();
  if (std::string e = ib.ensure(bytes, [&] { return grow(r, bytes); }); !e.empty())
    return Expected<std::size_t>::fail(e);
  const geom::gpu::Built b = ib.frame(gpu, nullptr, t);
  if (!b.ok()) return Expected<std::size_t>::fail(b.error);
  if (std::string e = synchronize(); !e.empty()) return Expected<std::size_t>::fail(e);
  return b.count;
}

}  // namespace

std::string unsupportedKind(PlotKind kind) {
  switch (kind) {
    case PlotKind::Waveform:
    case PlotKind::Histogram:
    case PlotKind::Image:
    case PlotKind::Points:
      return {};
    default:
      return "a " + std::string(plotKindName(kind)) +
             " output is not drawn by the GL views (waveform, histogram, "
             "image and points outputs are)";
  }
}

Expected<FedView> ViewFeeder::feed(gl::PlotRenderer& r, const ViewSource& s, const ViewWindow& w, FeedPath path,
                                   std::uint32_t width, InteropTimes* t) {
  using geom::PointVertex;
  using geom::Vertex2;
  if (std::string why = unsupportedKind(s.kind); !why.empty()) return Expected<FedView>::fail(why);
  if (path == FeedPath::Interop && !s.device) return Expected<FedView>::fail("interop: the data is not on the device");
  FedView v;
  v.kind = s.kind;
  const std::size_t n = elements(s);
  const void* dev = s.device;
  Expected<std::size_t> count = std::size_t{0};
  if (s.kind == PlotKind::Waveform) {
    const std::uint64_t end = w.end == 0 ? n : std::min<std::uint64_t>(w.end, n);
    if (w.begin >= end) return Expected<FedView>::fail("the range is empty (" + std::to_string(n) + " elements)");
    const std::uint32_t cols = w.columns ? w.columns : width;
    const std::size_t bytes = 4 * std::size_t(geom::m4Columns(end - w.begin, cols)) * sizeof(Vertex2);
    count = fill(
        m_buffers[0], path, bytes, [&] { return gl::feedWaveform(r, s.host, s.dtype, w.begin, end, cols); },
        [&](void* p) { return geom::gpu::m4Vertices(dev, s.dtype, w.begin, end, cols, static_cast<Vertex2*>(p)); },
        [](gl::PlotRenderer& g, std::size_t b) { return g.waveformBuffer(b / sizeof(Vertex2)); }, r, t);
    const auto y = w.valueRange ? *w.valueRange : padded(finiteRange(s.host, s.dtype, w.begin, end));
    v.begin = w.begin;
    v.range = {double(w.begin) - 0.5, double(end) - 0.5, y.first, y.second};
  } else if (s.kind == PlotKind::Histogram) {
    const std::uint32_t maxBars = w.maxBars ? w.maxBars : width;
    const std::uint32_t k = geom::histogramBinsPerBar(n, maxBars);
    const std::size_t bars = k ? (n + k - 1) / k : 0;
    count = fill(
        m_buffers[1], path, bars * sizeof(float), [&] { return gl::feedHistogram(r, s.host, s.dtype, n, maxBars); },
        [&](void* p) { return geom::gpu::histogramBarHeights(dev, s.dtype, n, maxBars, static_cast<float*>(p)); },
        [](gl::PlotRenderer& g, std::size_t b) { return g.histogramBuffer(b / sizeof(float)); }, r, t);
    std::vector<float> heights(bars);  // the tallest bar sets the y range (the CPU builder, as drawn)
    geom::histogramBarHeights(s.host, s.dtype, n, maxBars, heights.data());
    const double top = bars ? finiteRange(heights.data(), DType::F32, 0, bars).second : 1;
    v.range = {0, double(std::max<std::size_t>(bars, 1)), 0, top > 0 ? top * 1.05 : 1};
  } else if (s.kind == PlotKind::Image) {
    if (s.shape.size() != 2) return Expected<FedView>::fail("an image output must have 2 dimensions");
    v.rows = int(s.shape[0]);
    v.cols = int(s.shape[1]);
    count = fill(
        m_buffers[2], path, n * sizeof(float), [&] { return gl::feedImage(r, s.host, s.dtype, v.cols, v.rows); },
        [&](void* p) { return geom::gpu::imageTexels(dev, s.dtype, n, static_cast<float*>(p)); },
        [](gl::PlotRenderer& g, std::size_t b) {
          return g.imageBuffer(int(b / sizeof(float)), 1);  // one row: the same bytes as cols x rows
        },
        r, t);
    const auto range = w.valueRange ? *w.valueRange : finiteRange(s.host, s.dtype, 0, n);
    v.style = {.lo = range.first, .hi = range.second};
  } else {
    if (s.shape.size() != 2 || s.shape[0] != 3) return Expected<FedView>::fail("a points output must be 3 x k");
    const std::uint64_t k = s.shape[1];
    const std::size_t m = std::size_t(std::min<std::uint64_t>(k, w.maxPoints));
    count = fill(
        m_buffers[3], path, m * sizeof(PointVertex), [&] { return gl::feedPoints(r, s.host, s.dtype, k, w.maxPoints); },
        [&](void* p) { return geom::gpu::pointVertices(dev, s.dtype, k, w.maxPoints, static_cast<PointVertex*>(p)); },
        [](gl::PlotRenderer& g, std::size_t b) { return g.pointBuffer(b / sizeof(PointVertex)); }, r, t);
    const auto x = w.valueRange ? *w.valueRange : padded(finiteRange(s.host, s.dtype, 0, k));
    const auto y = w.valueRange ? *w.valueRange : padded(finiteRange(s.host, s.dtype, k, 2 * k));
    v.range = {x.first, x.second, y.first, y.second};
  }
  if (!count.ok()) return Expected<FedView>::fail(count.error());
  v.count = *count;
  return v;
}

gl::Status ViewFeeder::draw(gl::PlotRenderer& r, const FedView& v, const gl::PlotRect& rect) {
  constexpr gl::Rgba kLine{0.12f, 0.47f, 0.71f, 1};  // the window's first series colour (ui/colormap normalPalette)
  switch (v.kind) {
    case PlotKind::Waveform:
      return r.drawWaveform(rect, v.range, v.begin, v.count, kLine);
    case PlotKind::Histogram:
      return r.drawHistogram(rect, v.range, v.count, kLine);
    case PlotKind::Image:
      return r.drawImage(rect, v.cols, v.rows, v.style, colormap::lut256(colormap::viridis()));
    case PlotKind::Points:
      return r.drawPoints(rect, v.range, v.count, {0.12f, 0.47f, 0.71f, 1}, {0.84f, 0.15f, 0.16f, 1}, 2);
    default:
      return gl::Status::fail(unsupportedKind(v.kind));
  }
}

}  // namespace launchlab::render
