#include "models/plot_data.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <numeric>

#include "launchlab/files/parse.h"

namespace launchlab::ui {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

/// Running min/max over finite values; empty (NaN, NaN) until one finite value is seen.
struct MinMax {
  double lo = kNaN, hi = kNaN;
  void add(double v) {
    if (!std::isfinite(v)) return;
    if (std::isnan(lo) || v < lo) lo = v;
    if (std::isnan(hi) || v > hi) hi = v;
  }
  void merge(double l, double h) {
    if (std::isnan(l)) return;
    if (std::isnan(lo) || l < lo) lo = l;
    if (std::isnan(hi) || h > hi) hi = h;
  }
};

template <typename T>
void scanRaw(const T* d, std::size_t lo, std::size_t hi, MinMax& mm) {
  for (std::size_t i = lo; i < hi; ++i) mm.add(static_cast<double>(d[i]));
}

/// Column c of `columns` over [b, b + count): [lo, hi).
std::pair<std::size_t, std::size_t> column(std::size_t b, std::size_t count, int columns, int c) {
  const auto cols = static_cast<std::size_t>(columns);
  return {b + count * std::size_t(c) / cols, b + count * std::size_t(c + 1) / cols};
}

std::pair<std::size_t, std::size_t> clampRange(double begin, double end, std::size_t n) {
  const double b = std::clamp(std::floor(begin), 0.0, double(n));
  const double e = std::clamp(std::ceil(end), 0.0, double(n));
  return {std::size_t(b), std::size_t(std::max(b, e))};
}

template <typename T>
std::vector<Envelope> perElement(const T* d, std::size_t b, std::size_t e) {
  std::vector<Envelope> out;
  out.reserve(e - b);
  for (std::size_t i = b; i < e; ++i) {
    const double v = static_cast<double>(d[i]);
    const double y = std::isfinite(v) ? v : kNaN;
    out.push_back({double(i), y, y});
  }
  return out;
}

}  // namespace

std::vector<Envelope> decimateMinMax(const HostArray& a, std::size_t begin, std::size_t end, int columns) {
  end = std::min(end, a.size());
  if (begin >= end || columns < 1) return {};
  return visitDType(a.dtype(), [&](auto t) {
    using T = decltype(t);
    const T* d = static_cast<const T*>(a.data());
    const std::size_t count = end - begin;
    if (count <= std::size_t(columns)) return perElement(d, begin, end);
    std::vector<Envelope> out;
    out.reserve(std::size_t(columns));
    for (int c = 0; c < columns; ++c) {
      auto [lo, hi] = column(begin, count, columns, c);
      MinMax mm;
      scanRaw(d, lo, hi, mm);
      out.push_back({double(lo), mm.lo, mm.hi});
    }
    return out;
  });
}

MinMaxPyramid::MinMaxPyramid(const HostArray& a) : m_n(a.size()) {
  if (m_n == 0) return;
  visitDType(a.dtype(), [&](auto t) {
    using T = decltype(t);
    const T* d = static_cast<const T*>(a.data());
    const std::size_t buckets = (m_n + kBase - 1) / kBase;
    std::vector<double> mn(buckets), mx(buckets);
    for (std::size_t b = 0; b < buckets; ++b) {
      MinMax mm;
      scanRaw(d, b * kBase, std::min(m_n, (b + 1) * kBase), mm);
      mn[b] = mm.lo;
      mx[b] = mm.hi;
    }
    m_min.push_back(std::move(mn));
    m_max.push_back(std::move(mx));
  });
  while (m_min.back().size() > 1) {
    const auto& pmn = m_min.back();
    const auto& pmx = m_max.back();
    const std::size_t buckets = (pmn.size() + 1) / 2;
    std::vector<double> mn(buckets), mx(buckets);
    for (std::size_t b = 0; b < buckets; ++b) {
      MinMax mm;
      mm.merge(pmn[2 * b], pmx[2 * b]);
      if (2 * b + 1 < pmn.size()) mm.merge(pmn[2 * b + 1], pmx[2 * b + 1]);
      mn[b] = mm.lo;
      mx[b] = mm.hi;
    }
    m_min.push_back(std::move(mn));
    m_max.push_back(std::move(mx));
  }
}

std::vector<Envelope> MinMaxPyramid::query(const HostArray& a, double begin, double end, int columns) const {
  if (a.size() != m_n || m_n == 0 || columns < 1) return {};
  auto [b, e] = clampRange(begin, end, m_n);
  if (b >= e) return {};
  return visitDType(a.dtype(), [&, b = b, e = e](auto t) {
    using T = decltype(t);
    const T* d = static_cast<const T*>(a.data());
    const std::size_t count = e - b;
    if (count <= std::size_t(columns)) return perElement(d, b, e);
    std::vector<Envelope> out;
    out.reserve(std::size_t(columns));
    for (int c = 0; c < columns; ++c) {
      auto [lo, hi] = column(b, count, columns, c);
      const double x = double(lo);
      MinMax mm;
      // Raw head and tail up to bucket boundaries, then whole buckets, climbing levels like a segment tree.
      while (lo < hi && lo % kBase != 0) mm.add(static_cast<double>(d[lo++]));
      while (hi > lo && hi % kBase != 0) mm.add(static_cast<double>(d[--hi]));
      std::size_t bl = lo / kBase, bh = hi / kBase;
      for (std::size_t level = 0; bl < bh; ++level) {
        const auto& mn = m_min[level];
        const auto& mx = m_max[level];
        if (level + 1 == m_min.size()) {
          for (std::size_t k = bl; k < bh; ++k) mm.merge(mn[k], mx[k]);
          break;
        }
        if (bl & 1) {
          mm.merge(mn[bl], mx[bl]);
          ++bl;
        }
        if (bh & 1) {
          --bh;
          mm.merge(mn[bh], mx[bh]);
        }
        bl /= 2;
        bh /= 2;
      }
      out.push_back({x, mm.lo, mm.hi});
    }
    return out;
  });
}

XY envelopeToLine(const std::vector<Envelope>& env) {
  XY xy;
  xy.x.reserve(env.size() * 2);
  xy.y.reserve(env.size() * 2);
  for (const auto& e : env) {
    xy.x.push_back(e.x);
    xy.y.push_back(e.yMin);
    if (!std::isnan(e.yMin) && e.yMax != e.yMin) {
      xy.x.push_back(e.x);
      xy.y.push_back(e.yMax);
    }
  }
  return xy;
}

bool looksLikeNoise(const std::vector<Envelope>& env, double lo, double hi) {
  if (env.size() < 16 || !(hi > lo)) return false;
  std::size_t wide = 0;
  for (const auto& e : env) wide += (e.yMax - e.yMin) > 0.5 * (hi - lo);  // NaN columns compare false
  return wide * 2 > env.size();
}

XY elementPoints(const HostArray& a, std::size_t begin, std::size_t end) {
  XY p;
  end = std::min(end, a.size());
  for (std::size_t i = begin; i < end; ++i) {
    p.x.push_back(double(i));
    p.y.push_back(a.at(i));
  }
  return p;
}

std::pair<double, double> finiteRange(const HostArray& a) {
  MinMax mm;
  visitDType(a.dtype(), [&](auto t) {
    using T = decltype(t);
    scanRaw(static_cast<const T*>(a.data()), 0, a.size(), mm);
  });
  if (std::isnan(mm.lo)) return {0.0, 0.0};
  return {mm.lo, mm.hi};
}

std::uint64_t countNaN(const HostArray& a) {
  if (!isFloating(a.dtype())) return 0;
  return visitDType(a.dtype(), [&](auto t) -> std::uint64_t {
    using T = decltype(t);
    const T* d = static_cast<const T*>(a.data());
    std::uint64_t c = 0;
    for (std::size_t i = 0; i < a.size(); ++i) c += std::isnan(static_cast<double>(d[i])) ? 1 : 0;
    return c;
  });
}

std::vector<std::size_t> sampleIndices(std::size_t n, std::size_t maxPoints, const std::vector<std::uint64_t>& must) {
  std::vector<std::size_t> idx;
  if (n <= maxPoints) {
    idx.resize(n);
    std::iota(idx.begin(), idx.end(), std::size_t(0));
    return idx;
  }
  idx.reserve(maxPoints + must.size());
  // k * n stays far below 2^64: maxPoints is a display budget (thousands) and n an element count.
  for (std::size_t k = 0; k < maxPoints; ++k) idx.push_back(std::size_t(std::uint64_t(k) * n / maxPoints));
  for (auto m : must)
    if (m < n) idx.push_back(std::size_t(m));
  std::sort(idx.begin(), idx.end());
  idx.erase(std::unique(idx.begin(), idx.end()), idx.end());
  return idx;
}

XY scatterPoints(const HostArray& x, const HostArray& y, const std::vector<std::size_t>& indices) {
  std::vector<std::pair<double, double>> pts;
  pts.reserve(indices.size());
  const std::size_t n = std::min(x.size(), y.size());
  for (auto i : indices) {
    if (i >= n) continue;
    const double xv = x.at(i);
    if (std::isfinite(xv)) pts.emplace_back(xv, y.at(i));
  }
  std::sort(pts.begin(), pts.end(), [](const auto& p, const auto& q) { return p.first < q.first; });
  XY xy;
  xy.x.reserve(pts.size());
  xy.y.reserve(pts.size());
  for (const auto& [px, py] : pts) {
    xy.x.push_back(px);
    xy.y.push_back(py);
  }
  return xy;
}

XY seriesPoints(const HostArray& a, std::size_t maxPoints) {
  XY xy;
  const bool pairs = a.shape().size() == 2 && a.shape()[0] == 2;
  const std::size_t k = pairs ? a.shape()[1] : a.size();
  for (auto j : sampleIndices(k, maxPoints)) {
    xy.x.push_back(pairs ? a.at(j) : double(j));
    xy.y.push_back(pairs ? a.at(k + j) : a.at(j));
  }
  return xy;
}

HistogramBars histogramBars(const HostArray& counts, double xMin, double xMax, int maxBars) {
  HistogramBars h;
  const std::size_t bins = counts.size();
  h.xMin = xMin;
  h.xMax = xMax;
  if (bins == 0 || maxBars < 1) return h;
  const std::size_t per = (bins + std::size_t(maxBars) - 1) / std::size_t(maxBars);
  const double binWidth = (xMax - xMin) / double(bins);
  h.binsPerBar = int(per);
  h.width = binWidth * double(per);
  for (std::size_t first = 0; first < bins; first += per) {
    const std::size_t last = std::min(bins, first + per);
    double sum = 0;
    for (std::size_t i = first; i < last; ++i) sum += counts.at(i);
    h.centres.push_back(xMin + binWidth * (double(first) + double(last - first) / 2.0));
    h.counts.push_back(sum);
  }
  return h;
}

ImageGrid downsampleImage(const HostArray& a, std::size_t maxSide) {
  ImageGrid g;
  const auto& s = a.shape();
  g.rows = s.size() >= 2 ? s[0] : 1;
  g.cols = g.rows ? a.size() / g.rows : 0;
  if (g.rows == 0 || g.cols == 0 || maxSide == 0) return g;
  g.blockRows = (g.rows + maxSide - 1) / maxSide;
  g.blockCols = (g.cols + maxSide - 1) / maxSide;
  g.cellRows = (g.rows + g.blockRows - 1) / g.blockRows;
  g.cellCols = (g.cols + g.blockCols - 1) / g.blockCols;
  std::vector<double> sum(g.cellRows * g.cellCols, 0.0);
  std::vector<std::uint32_t> cnt(sum.size(), 0);
  visitDType(a.dtype(), [&](auto t) {
    using T = decltype(t);
    const T* d = static_cast<const T*>(a.data());
    for (std::size_t r = 0; r < g.rows; ++r) {
      const std::size_t cr = r / g.blockRows;
      for (std::size_t c = 0; c < g.cols; ++c) {
        const double v = static_cast<double>(d[r * g.cols + c]);
        if (!std::isfinite(v)) continue;
        const std::size_t cell = cr * g.cellCols + c / g.blockCols;
        sum[cell] += v;
        ++cnt[cell];
      }
    }
  });
  g.values.resize(sum.size());
  for (std::size_t i = 0; i < sum.size(); ++i) g.values[i] = cnt[i] ? sum[i] / cnt[i] : kNaN;
  std::tie(g.vMin, g.vMax) = finiteRange(a);
  return g;
}

ImageMarkers findImageMarkers(const ImageGrid& g, const std::vector<MarkerValue>& markers) {
  ImageMarkers m;
  m.vMin = g.vMin;
  m.vMax = g.vMax;
  m.present.assign(markers.size(), false);
  if (markers.empty() || g.blockRows * g.blockCols != 1) return m;
  std::vector<int> cells(g.values.size(), -1);
  double lo = INFINITY, hi = -INFINITY;
  bool any = false;
  for (std::size_t i = 0; i < g.values.size(); ++i) {
    const double v = g.values[i];
    for (std::size_t k = 0; k < markers.size() && cells[i] < 0; ++k)
      if (v == markers[k].value) {
        cells[i] = int(k);
        m.present[k] = any = true;
      }
    if (cells[i] < 0 && std::isfinite(v)) {
      lo = std::min(lo, v);
      hi = std::max(hi, v);
    }
  }
  if (!any) return m;
  m.cellMarker = std::move(cells);
  m.vMin = lo <= hi ? lo : 0;
  m.vMax = lo <= hi ? hi : 0;
  return m;
}

ScalarValue scalarValue(const HostArray& a, const ArraySpec& spec) {
  ScalarValue s;
  s.value = a.size() ? a.at(0) : kNaN;
  s.integer = !isFloating(a.dtype());
  if (spec.referenceValue) {
    s.hasReference = true;
    s.reference = *spec.referenceValue;
    s.absError = std::fabs(s.value - s.reference);
    s.relError = s.reference != 0 ? s.absError / std::fabs(s.reference) : s.absError;
  }
  return s;
}

double scalarDifference(const ScalarValue& s, std::optional<double> refValue) {
  if (s.hasReference) return s.value - s.reference;
  return refValue ? s.value - *refValue : 0.0;
}

std::string scalarLabel(const ScalarValue& s, std::optional<double> refValue) {
  char buf[160];
  const double d = scalarDifference(s, refValue);
  // A count lost to a race is "-4095", never "-4.1e+03": whole numbers are printed whole.
  if (s.integer && std::isfinite(s.value) && std::isfinite(d)) {
    const auto whole = [](double v) { return static_cast<long long>(std::llround(v)); };
    if (refValue && !s.hasReference)
      std::snprintf(buf, sizeof buf, "%lld\n%+lld from the reference", whole(s.value), whole(d));
    else if (!s.hasReference)
      std::snprintf(buf, sizeof buf, "%lld\n(the reference)", whole(s.value));
    else
      std::snprintf(buf, sizeof buf, "%lld\n%+lld from exact", whole(s.value), whole(d));
    return buf;
  }
  if (s.hasReference)
    std::snprintf(buf, sizeof buf, "%.10g\n%+.3g from exact (relative %.3g)", s.value, d, s.relError);
  else if (refValue)
    std::snprintf(buf, sizeof buf, "%.10g\n%+.3g from the reference", s.value, d);
  else
    std::snprintf(buf, sizeof buf, "%.10g\n(the reference)", s.value);
  return buf;
}

double hitOrMissSigma(double exact, double n, double box) {
  const double p = exact / box;
  return n > 0 && p > 0 && p < 1 ? box * std::sqrt(p * (1 - p) / n) : kNaN;
}

Band hitOrMissBand(double exact, double xMin, double xMax, int points, double box) {
  Band b;
  if (!(xMin > 0) || !(xMax > xMin) || points < 2) return b;
  const double step = std::log(xMax / xMin) / (points - 1);
  for (int i = 0; i < points; ++i) {
    const double x = xMin * std::exp(step * i), s = hitOrMissSigma(exact, x, box);
    b.x.push_back(x);
    b.lower.push_back(exact - s);
    b.upper.push_back(exact + s);
  }
  return b;
}

std::pair<std::size_t, std::size_t> visibleIndices(double lower, double upper, std::size_t n) {
  const double dn = double(n);
  const double b = std::clamp(std::ceil(lower), 0.0, dn), e = std::clamp(std::floor(upper) + 1, 0.0, dn);
  return {std::size_t(b), std::size_t(std::max(b, e))};
}

const PreparedArray* PreparedRun::find(const std::string& key) const {
  auto it = arrays.find(key);
  return it == arrays.end() ? nullptr : &it->second;
}

std::string arrayKey(const std::string& source, const std::string& name) { return source + "/" + name; }

namespace {
PreparedArray prepareArray(const HostArray& a, PlotKind kind, std::size_t imageMaxSide) {
  PreparedArray p;
  p.array = &a;
  p.kind = kind;
  p.range = finiteRange(a);
  p.nanCount = countNaN(a);
  if (kind == PlotKind::Waveform) p.pyramid = std::make_shared<MinMaxPyramid>(a);
  if (kind == PlotKind::Image) p.image = std::make_shared<ImageGrid>(downsampleImage(a, imageMaxSide));
  return p;
}
PlotKind kindOf(const std::vector<ArraySpec>& specs, const std::string& name, PlotKind fallback) {
  for (const auto& s : specs)
    if (s.name == name) return s.plot;
  return fallback;
}
}  // namespace

PreparedRun prepareRun(const RunResult& r, const WorkloadInfo& info, std::size_t imageMaxSide) {
  PreparedRun p;
  for (const auto& a : r.inputs) {
    // Inputs are shown as they are generated: images as images, anything else as a waveform.
    PlotKind k = kindOf(info.inputs, a.name(), PlotKind::Waveform);
    if (k != PlotKind::Image) k = PlotKind::Waveform;
    p.arrays[arrayKey("input", a.name())] = prepareArray(a, k, imageMaxSide);
  }
  for (const auto& impl : r.impls)
    for (const auto& a : impl.outputs)
      p.arrays[arrayKey(impl.implId, a.name())] =
          prepareArray(a, kindOf(info.outputs, a.name(), PlotKind::Waveform), imageMaxSide);
  return p;
}

}  // namespace launchlab::ui
