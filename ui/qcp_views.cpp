// The QCustomPlot views, one per PlotKind, and the view factory.
#include <QLocale>
#include <QPointer>

#include <qcustomplot.h>

#include <algorithm>
#include <cmath>

#include "output_view.h"

namespace launchlab::ui {

// ---- ViewData lookups ----

const ImplResult* ViewData::impl(const std::string& src) const {
  return outcome ? outcome->result.find(src) : nullptr;
}

const HostArray* ViewData::input(const std::string& name) const {
  if (!outcome) return nullptr;
  for (const auto& a : outcome->result.inputs)
    if (a.name() == name) return &a;
  return nullptr;
}

const HostArray* ViewData::array(const std::string& src) const {
  if (src == "input") return input(spec.name);
  if (const ImplResult* i = impl(src))
    for (const auto& a : i->outputs)
      if (a.name() == spec.name) return &a;
  return nullptr;
}

const PreparedArray* ViewData::prepared(const std::string& src) const {
  return outcome ? outcome->prepared.find(arrayKey(src, spec.name)) : nullptr;
}

QString ViewData::sourceTitle(const std::string& src) const {
  if (src == "input") return "input";
  const ImplResult* i = impl(src);
  return QString::fromStdString(i && !i->title.empty() ? i->title : src);
}

namespace {

QVector<double> qv(const std::vector<double>& v) { return QVector<double>(v.begin(), v.end()); }

QString count(std::uint64_t n) { return QLocale(QLocale::English).toString(qulonglong(n)); }

/// A graph whose line is drawn segment by segment. QPainter strokes a polyline as one outline, and a wide
/// pen over a jagged polyline (dense data, min/max edges) makes that outline self-overlap everywhere, which
/// takes seconds to fill; separate segments stay linear in their count at any width and DPI.
class SegmentGraph final : public QCPGraph {
 public:
  SegmentGraph(QCPAxis* key, QCPAxis* value) : QCPGraph(key, value) {}

 protected:
  void drawLinePlot(QCPPainter* painter, const QVector<QPointF>& lines) const override {
    if (painter->pen().style() == Qt::NoPen || painter->pen().color().alpha() == 0 || lines.size() < 2) return;
    applyDefaultAntialiasingHint(painter);
    // On screen, thin pens become 1-pixel cosmetic ones: the rasterizer's fastest path. Exports (no caching
    // mode: PNG at any DPI, PDF, SVG) keep the real width.
    if (!painter->modes().testFlag(QCPPainter::pmNoCaching) && painter->pen().widthF() <= 1.5) {
      QPen thin = painter->pen();
      thin.setWidth(0);
      painter->setPen(thin);
    }
    QVector<QLineF> segs;
    segs.reserve(lines.size());
    for (int i = 1; i < lines.size(); ++i) {
      const QPointF &a = lines[i - 1], &b = lines[i];
      if (qIsNaN(a.y()) || qIsNaN(b.y()) || qIsNaN(a.x()) || qIsNaN(b.x())) continue;
      segs.push_back(QLineF(a, b));
    }
    painter->drawLines(segs);
  }
};

QCPGraph* addSegmentGraph(QCustomPlot* plot) { return new SegmentGraph(plot->xAxis, plot->yAxis); }

/// Shared by every QCustomPlot view: the plot, its title row, a centred message and style handling.
class QcpViewBase : public OutputView {
 public:
  explicit QcpViewBase(QWidget* parent) : m_plot(new QCustomPlot(parent)) {
    m_plot->setMinimumSize(240, 160);
    m_plot->plotLayout()->insertRow(0);
    m_title = new QCPTextElement(m_plot, "", QFont());
    m_plot->plotLayout()->addElement(0, 0, m_title);
    m_plot->legend->setVisible(true);
    m_plot->axisRect()->insetLayout()->setInsetAlignment(0, Qt::AlignTop | Qt::AlignRight);
    m_plot->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    m_plot->setNoAntialiasingOnDrag(true);
    m_message = new QCPItemText(m_plot);
    m_message->position->setType(QCPItemPosition::ptAxisRectRatio);
    m_message->position->setCoords(0.5, 0.5);
    m_message->setClipToAxisRect(false);
    m_message->setVisible(false);
    applyStyle();
  }
  ~QcpViewBase() override { delete m_plot.data(); }

  QWidget* widget() override { return m_plot; }

  void render(QCPPainter& painter, const QSize& size) override { m_plot->toPainter(&painter, size.width(), size.height()); }
  QString exportTitle() const override { return m_title->text(); }

  void showMessage(const QString& text) override {
    clearData();
    m_message->setText(text);
    m_message->setVisible(true);
    replotWhenVisible(*m_plot);
  }
  void setViewStyle(const ViewStyle& s) override {
    m_style = s;
    applyStyle();
    restyle();
    replotWhenVisible(*m_plot);
  }
  void setLogY(bool on) override {
    m_logY = on;
    setAxisLog(m_plot->yAxis, on);
    resetZoom();
  }
  QString summary() const override { return m_summary; }
  int drawnPoints() const override { return m_drawn; }

 protected:
  virtual void restyle() = 0;
  virtual void clearData() = 0;

  void applyStyle() {
    applyPlotStyle(*m_plot, m_style);
    m_title->setFont(m_style.font(1.15, true));
    m_title->setTextColor(toQColor(m_style.palette->foreground));
    m_message->setFont(m_style.font(1.2));
    m_message->setColor(toQColor(m_style.palette->foreground));
  }
  static void setAxisLog(QCPAxis* a, bool on) {
    a->setScaleType(on ? QCPAxis::stLogarithmic : QCPAxis::stLinear);
    if (on) a->setTicker(QSharedPointer<QCPAxisTickerLog>(new QCPAxisTickerLog));
    else a->setTicker(QSharedPointer<QCPAxisTicker>(new QCPAxisTicker));
  }
  /// Prepares for new data: hides the message, sets title and axis labels.
  void begin(const ViewData& d) {
    m_data = d;
    m_message->setVisible(false);
    m_plot->xAxis->setLabel(QString::fromStdString(d.spec.xLabel));
    m_plot->yAxis->setLabel(QString::fromStdString(d.spec.yLabel));
    const QString spec = QString::fromStdString(d.spec.title.empty() ? d.spec.name : d.spec.title);
    // Long titles go on two lines rather than off both edges.
    QString t = spec + (spec.size() + d.sourceTitle(d.source).size() > 60 ? "\n" : "  \xE2\x80\x94  ") +
                d.sourceTitle(d.source);
    if (const auto* p = d.prepared(d.source); p && p->nanCount)
      t += QString("  (%1 unwritten: NaN)").arg(count(p->nanCount));
    m_title->setText(t);
  }
  /// The shown implementation's mismatching indices (first ones the engine kept).
  std::vector<std::uint64_t> mismatches() const {
    const ImplResult* i = m_data.impl(m_data.source);
    if (!i || i->verification.mismatches == 0) return {};
    return i->verification.firstMismatches;
  }
  QString mismatchLegend() const {
    const ImplResult* i = m_data.impl(m_data.source);
    return QString("mismatch (first %1 of %2)").arg(mismatches().size()).arg(count(i ? i->verification.mismatches : 0));
  }
  bool showReference() const { return !m_data.reference.empty() && m_data.reference != m_data.source; }
  QPen mainPen() const { return QPen(m_style.seriesColor(m_data.colorIndex), m_style.lineWidth); }
  /// The reference, lighter and wider, under the shown series. Opaque on purpose: a wide translucent polyline
  /// must be stroked as one self-overlapping path, which is orders of magnitude slower to rasterize.
  QPen refPen(double widthScale = 1.0) const {
    const QColor c = m_style.referenceColor(), bg = toQColor(m_style.palette->background);
    const QColor light((c.red() + 2 * bg.red()) / 3, (c.green() + 2 * bg.green()) / 3, (c.blue() + 2 * bg.blue()) / 3);
    return QPen(light, m_style.lineWidth * widthScale);
  }
  QCPScatterStyle mismatchStyle() const {
    return QCPScatterStyle(QCPScatterStyle::ssCircle, QPen(m_style.mismatchColor(), m_style.lineWidth + 0.6), Qt::NoBrush,
                           m_style.markerSize + 4);
  }
  void styleMismatchGraph(QCPGraph* g) const {
    g->setLineStyle(QCPGraph::lsNone);
    g->setScatterStyle(mismatchStyle());
    g->setPen(QPen(m_style.mismatchColor(), m_style.lineWidth));
  }
  int columns() const {
    const int w = m_plot->axisRect()->width();
    return std::clamp(w > 10 ? w : 1200, 100, 8192);
  }
  void setYRange(double lo, double hi) {
    const auto r = paddedRange(lo, hi, m_logY, 0.06);
    m_plot->yAxis->setRange(r.lo, r.hi);
  }

  QPointer<QCustomPlot> m_plot;
  QCPTextElement* m_title = nullptr;
  QCPItemText* m_message = nullptr;
  ViewStyle m_style;
  ViewData m_data;
  bool m_logY = false;
  QString m_summary;
  int m_drawn = 0;
};

/// y against index, min/max decimated per pixel column at every zoom; x zoom and pan, y follows the data.
class WaveformView final : public QcpViewBase {
 public:
  explicit WaveformView(QWidget* parent) : QcpViewBase(parent) {
    m_ref = addSegmentGraph(m_plot);
    m_main = addSegmentGraph(m_plot);
    m_bad = m_plot->addGraph();
    // The envelope already has one column per pixel: QCustomPlot's own resampling would only undo it.
    m_ref->setAdaptiveSampling(false);
    m_main->setAdaptiveSampling(false);
    // Dense columns are vertical strokes that need no antialiasing, and aliased strokes rasterize several
    // times faster (a 2^24-element waveform replots in a few milliseconds instead of tens).
    m_ref->setAntialiased(false);
    m_main->setAntialiased(false);
    m_plot->axisRect()->setRangeDrag(Qt::Horizontal);
    m_plot->axisRect()->setRangeZoom(Qt::Horizontal);
    QObject::connect(m_plot->xAxis, qOverload<const QCPRange&>(&QCPAxis::rangeChanged), m_plot,
                     [this](const QCPRange& r) { onRange(r); });
    restyle();
  }
  void setData(const ViewData& d) override {
    begin(d);
    m_mainArr = d.array(d.source);
    m_mainPrep = d.prepared(d.source);
    m_refArr = showReference() ? d.array(d.reference) : nullptr;
    m_refPrep = showReference() ? d.prepared(d.reference) : nullptr;
    if (!m_mainArr) return showMessage("no data for " + d.sourceTitle(d.source));
    m_n = m_mainArr->size();
    m_main->setName(d.sourceTitle(d.source));
    m_ref->setName(d.sourceTitle(d.reference) + " (reference)");
    m_ref->setVisible(m_refArr != nullptr);
    m_ref->addToLegend();
    if (!m_refArr) m_ref->removeFromLegend();
    QVector<double> bx, by;
    for (auto i : mismatches()) {
      if (i >= m_n) continue;
      double y = m_mainArr->at(i);
      if (!std::isfinite(y) && m_refArr) y = m_refArr->at(i);
      bx << double(i);
      by << y;
    }
    m_bad->setData(bx, by, true);
    m_bad->setName(mismatchLegend());
    m_bad->setVisible(!bx.isEmpty());
    if (bx.isEmpty()) m_bad->removeFromLegend();
    else m_bad->addToLegend();
    resetZoom();
  }
  void resetZoom() override {
    if (!m_mainArr) return;
    m_plot->xAxis->setRange(0, std::max<double>(1, double(m_n) - 1));
    refresh();
  }

 private:
  void clearData() override {
    m_mainArr = m_refArr = nullptr;
    m_mainPrep = m_refPrep = nullptr;
    for (auto* g : {m_ref, m_main, m_bad}) g->data()->clear();
    m_drawn = 0;
  }
  void restyle() override {
    m_main->setPen(mainPen());
    m_ref->setPen(refPen(2.4));
    styleMismatchGraph(m_bad);
  }
  void onRange(const QCPRange& r) {
    if (m_inRange || !m_mainArr) return;
    // Keep the view within the data (5% margin), so panning never loses it.
    const double n = double(m_n), margin = std::max(1.0, n * 0.05);
    QCPRange c = r;
    if (c.size() > n + 2 * margin) c = QCPRange(-margin, n + margin);
    if (c.lower < -margin) c += -margin - c.lower;
    if (c.upper > n + margin) c -= c.upper - (n + margin);
    m_inRange = true;
    if (c != r) m_plot->xAxis->setRange(c);
    m_inRange = false;
    refresh();
  }
  void refresh() {
    if (!m_mainArr) return;
    const QCPRange r = m_plot->xAxis->range();
    const int cols = columns();
    double lo = 0, hi = 0;
    bool any = false;
    auto draw = [&](QCPGraph* g, const HostArray* a, const PreparedArray* p) -> std::size_t {
      if (!a) {
        g->data()->clear();
        return 0;
      }
      const auto env = p && p->pyramid ? p->pyramid->query(*a, r.lower, r.upper + 1, cols)
                                       : decimateMinMax(*a, std::size_t(std::max(0.0, std::floor(r.lower))),
                                                        std::size_t(std::max(0.0, std::ceil(r.upper + 1))), cols);
      for (const auto& e : env) {
        if (std::isnan(e.yMin)) continue;
        if (m_logY && e.yMax <= 0) continue;
        const double l = m_logY && e.yMin <= 0 ? e.yMax : e.yMin;
        lo = any ? std::min(lo, l) : l;
        hi = any ? std::max(hi, e.yMax) : e.yMax;
        any = true;
      }
      const XY line = envelopeToLine(env);
      g->setData(qv(line.x), qv(line.y), true);
      return line.size();
    };
    m_drawn = int(draw(m_main, m_mainArr, m_mainPrep));
    draw(m_ref, m_refArr, m_refPrep);
    if (any) setYRange(lo, hi);
    const std::uint64_t visible = std::uint64_t(std::max(0.0, std::min(double(m_n), r.upper + 1) - std::max(0.0, r.lower)));
    m_summary = visible > std::uint64_t(cols)
                    ? QString("%1 of %2 elements visible, drawn as %3 min/max columns").arg(count(visible), count(m_n)).arg(cols)
                    : QString("%1 of %2 elements visible, every element drawn").arg(count(visible), count(m_n));
    replotWhenVisible(*m_plot);
  }

  QCPGraph *m_ref = nullptr, *m_main = nullptr, *m_bad = nullptr;
  const HostArray *m_mainArr = nullptr, *m_refArr = nullptr;
  const PreparedArray *m_mainPrep = nullptr, *m_refPrep = nullptr;
  std::size_t m_n = 0;
  bool m_inRange = false;
};

/// y against the input named by xFrom (e.g. a pdf against x): an even sample of points plus every
/// highlighted mismatch.
class ScatterView final : public QcpViewBase {
 public:
  static constexpr std::size_t kMaxPoints = 20000;
  explicit ScatterView(QWidget* parent) : QcpViewBase(parent) {
    m_ref = m_plot->addGraph();
    m_main = m_plot->addGraph();
    m_bad = m_plot->addGraph();
    for (auto* g : {m_ref, m_main}) g->setLineStyle(QCPGraph::lsNone);
    restyle();
  }
  void setData(const ViewData& d) override {
    begin(d);
    const HostArray* y = d.array(d.source);
    if (!y) return showMessage("no data for " + d.sourceTitle(d.source));
    const HostArray* x = d.input(d.spec.xFrom);
    const auto mism = mismatches();
    const auto idx = sampleIndices(y->size(), kMaxPoints, mism);
    auto points = [&](const HostArray* a, const std::vector<std::size_t>& ids) {
      if (x) return scatterPoints(*x, *a, ids);
      XY xy;
      for (auto i : ids) {
        xy.x.push_back(double(i));
        xy.y.push_back(a->at(i));
      }
      return xy;
    };
    const XY main = points(y, idx);
    m_main->setData(qv(main.x), qv(main.y), true);
    m_main->setName(d.sourceTitle(d.source));
    m_drawn = int(main.size());
    const HostArray* ref = showReference() ? d.array(d.reference) : nullptr;
    if (ref) {
      const XY r = points(ref, idx);
      m_ref->setData(qv(r.x), qv(r.y), true);
      m_ref->setName(d.sourceTitle(d.reference) + " (reference)");
      m_ref->addToLegend();
    } else {
      m_ref->data()->clear();
      m_ref->removeFromLegend();
    }
    std::vector<std::size_t> badIdx(mism.begin(), mism.end());
    const XY bad = points(y, badIdx);
    m_bad->setData(qv(bad.x), qv(bad.y), true);
    m_bad->setName(mismatchLegend());
    if (bad.size()) m_bad->addToLegend();
    else m_bad->removeFromLegend();
    if (!x) m_plot->xAxis->setLabel("index");
    m_summary = y->size() > kMaxPoints ? QString("%1 of %2 points drawn (even sample)").arg(count(main.size()), count(y->size()))
                                       : QString("all %1 points drawn").arg(count(y->size()));
    resetZoom();
  }
  void resetZoom() override {
    m_plot->rescaleAxes();
    const QCPRange x = m_plot->xAxis->range(), y = m_plot->yAxis->range();
    const auto rx = paddedRange(x.lower, x.upper, false, 0.03);
    m_plot->xAxis->setRange(rx.lo, rx.hi);
    setYRange(y.lower, y.upper);
    replotWhenVisible(*m_plot);
  }

 private:
  void clearData() override {
    for (auto* g : {m_ref, m_main, m_bad}) g->data()->clear();
    m_drawn = 0;
  }
  void restyle() override {
    const QColor c = m_style.seriesColor(m_data.colorIndex);
    m_main->setPen(QPen(c));
    m_main->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, c, std::max(3.0, m_style.markerSize * 0.55)));
    m_ref->setPen(refPen());
    m_ref->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, refPen().color(), m_style.markerSize + 1));
    styleMismatchGraph(m_bad);
  }
  QCPGraph *m_ref = nullptr, *m_main = nullptr, *m_bad = nullptr;
};

/// Bin counts as bars: the reference (outline) and the shown implementation (filled) overlaid.
class HistogramView final : public QcpViewBase {
 public:
  static constexpr int kMaxBars = 512;
  explicit HistogramView(QWidget* parent) : QcpViewBase(parent) {
    m_ref = new QCPBars(m_plot->xAxis, m_plot->yAxis);
    m_main = new QCPBars(m_plot->xAxis, m_plot->yAxis);
    m_bad = new QCPBars(m_plot->xAxis, m_plot->yAxis);
    restyle();
  }
  void setData(const ViewData& d) override {
    begin(d);
    const HostArray* a = d.array(d.source);
    if (!a) return showMessage("no data for " + d.sourceTitle(d.source));
    const auto [lo, hi] = histogramRange(d.spec, d.outcome->result.params, a->size());
    const HistogramBars main = histogramBars(*a, lo, hi, kMaxBars);
    m_main->setData(qv(main.centres), qv(main.counts), true);
    m_main->setWidth(main.width);
    m_main->setName(d.sourceTitle(d.source));
    m_drawn = int(main.centres.size());
    m_maxCount = *std::max_element(main.counts.begin(), main.counts.end());
    const HostArray* r = showReference() ? d.array(d.reference) : nullptr;
    if (r) {
      const HistogramBars rb = histogramBars(*r, lo, hi, kMaxBars);
      m_ref->setData(qv(rb.centres), qv(rb.counts), true);
      m_ref->setWidth(rb.width);
      m_ref->setName(d.sourceTitle(d.reference) + " (reference)");
      m_ref->addToLegend();
      m_maxCount = std::max(m_maxCount, *std::max_element(rb.counts.begin(), rb.counts.end()));
    } else {
      m_ref->data()->clear();
      m_ref->removeFromLegend();
    }
    // Bars holding a mismatching bin, in the mismatch colour.
    QVector<double> bk, bv;
    for (auto i : mismatches()) {
      const std::size_t bar = std::size_t(i) / std::size_t(main.binsPerBar);
      if (bar < main.centres.size() && !bk.contains(main.centres[bar])) {
        bk << main.centres[bar];
        bv << main.counts[bar];
      }
    }
    m_bad->setData(bk, bv);
    m_bad->setWidth(main.width);
    m_bad->setName(mismatchLegend());
    if (bk.isEmpty()) m_bad->removeFromLegend();
    else m_bad->addToLegend();
    m_lo = lo;
    m_hi = hi;
    m_summary = main.binsPerBar > 1 ? QString("%1 bins shown as %2 bars of %3 bins").arg(count(a->size())).arg(m_drawn).arg(main.binsPerBar)
                                    : QString("%1 bins").arg(count(a->size()));
    resetZoom();
  }
  void resetZoom() override {
    m_plot->xAxis->setRange(m_lo, m_hi);
    if (m_logY) setYRange(1, m_maxCount);
    else m_plot->yAxis->setRange(0, std::max(1.0, m_maxCount * 1.08));
    for (auto* b : {m_ref, m_main, m_bad}) b->setBaseValue(m_logY ? m_plot->yAxis->range().lower : 0);
    replotWhenVisible(*m_plot);
  }

 private:
  void clearData() override {
    for (auto* b : {m_ref, m_main, m_bad}) b->data()->clear();
    m_drawn = 0;
  }
  void restyle() override {
    QColor c = m_style.seriesColor(m_data.colorIndex);
    m_main->setPen(Qt::NoPen);
    c.setAlpha(150);
    m_main->setBrush(c);
    m_ref->setPen(QPen(m_style.referenceColor(), m_style.lineWidth));
    m_ref->setBrush(Qt::NoBrush);
    QColor bad = m_style.mismatchColor();
    bad.setAlpha(190);
    m_bad->setPen(QPen(m_style.mismatchColor(), m_style.lineWidth));
    m_bad->setBrush(bad);
  }
  QCPBars *m_ref = nullptr, *m_main = nullptr, *m_bad = nullptr;
  double m_maxCount = 1, m_lo = 0, m_hi = 1;
};

/// A 2-D array as a heat map (viridis, with a colour scale), down-sampled by block means when large.
class ImageView final : public QcpViewBase {
 public:
  explicit ImageView(QWidget* parent) : QcpViewBase(parent) {
    m_map = new QCPColorMap(m_plot->xAxis, m_plot->yAxis);
    m_scale = new QCPColorScale(m_plot);
    m_plot->plotLayout()->addElement(1, 1, m_scale);
    m_scale->setType(QCPAxis::atRight);
    m_map->setColorScale(m_scale);
    m_map->setGradient(viridisGradient());
    m_map->setInterpolate(false);
    auto* group = new QCPMarginGroup(m_plot);
    m_plot->axisRect()->setMarginGroup(QCP::msBottom | QCP::msTop, group);
    m_scale->setMarginGroup(QCP::msBottom | QCP::msTop, group);
    m_plot->yAxis->setRangeReversed(true);  // row 0 at the top, like an image
    m_plot->legend->setVisible(false);
    m_bad = m_plot->addGraph();
    restyle();
  }
  void setData(const ViewData& d) override {
    begin(d);
    const HostArray* a = d.array(d.source);
    if (!a) return showMessage("no data for " + d.sourceTitle(d.source));
    const PreparedArray* p = d.prepared(d.source);
    const ImageGrid g = p && p->image ? *p->image : downsampleImage(*a, 512);
    m_rows = g.rows;
    m_cols = g.cols;
    auto* data = m_map->data();
    data->setSize(int(g.cellCols), int(g.cellRows));
    data->setRange(QCPRange(0.5 * double(g.blockCols), double(g.cols) - 0.5 * double(g.blockCols)),
                   QCPRange(0.5 * double(g.blockRows), double(g.rows) - 0.5 * double(g.blockRows)));
    for (std::size_t r = 0; r < g.cellRows; ++r)
      for (std::size_t c = 0; c < g.cellCols; ++c) data->setCell(int(c), int(r), g.values[r * g.cellCols + c]);
    const double lo = g.vMin, hi = g.vMax > g.vMin ? g.vMax : g.vMin + 1;
    m_map->setDataRange(QCPRange(lo, hi));
    m_scale->axis()->setLabel(QString::fromStdString(d.spec.yLabel));
    m_plot->xAxis->setLabel(d.spec.xLabel == "index" ? "column" : QString::fromStdString(d.spec.xLabel));
    m_plot->yAxis->setLabel("row");
    QVector<double> bx, by;
    for (auto i : mismatches())
      if (g.cols) {
        bx << double(i % g.cols) + 0.5;
        by << double(i / g.cols) + 0.5;
      }
    m_bad->setData(bx, by);
    m_drawn = int(g.cellRows * g.cellCols);
    m_summary = g.blockRows * g.blockCols > 1
                    ? QString("%1 x %2 image shown as %3 x %4 block means").arg(g.rows).arg(g.cols).arg(g.cellRows).arg(g.cellCols)
                    : QString("%1 x %2 image, every pixel drawn").arg(g.rows).arg(g.cols);
    resetZoom();
  }
  void resetZoom() override {
    m_plot->xAxis->setRange(0, double(std::max<std::size_t>(1, m_cols)));
    m_plot->yAxis->setRange(0, double(std::max<std::size_t>(1, m_rows)));
    replotWhenVisible(*m_plot);
  }
  void setLogY(bool) override {}  // rows are rows

 private:
  void clearData() override {
    m_map->data()->clear();
    m_bad->data()->clear();
    m_drawn = 0;
  }
  void restyle() override {
    styleMismatchGraph(m_bad);
    m_bad->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCross, QPen(m_style.mismatchColor(), m_style.lineWidth + 1),
                                           Qt::NoBrush, m_style.markerSize + 6));
    m_scale->axis()->setTickLabelFont(m_style.font());
    m_scale->axis()->setLabelFont(m_style.font(1.05));
  }
  QCPColorMap* m_map = nullptr;
  QCPColorScale* m_scale = nullptr;
  QCPGraph* m_bad = nullptr;
  std::size_t m_rows = 0, m_cols = 0;
};

/// One value per implementation, as horizontal bars with the exact value as a line and the error as text.
class ScalarView final : public QcpViewBase {
 public:
  explicit ScalarView(QWidget* parent) : QcpViewBase(parent) {
    m_bars = new QCPBars(m_plot->yAxis, m_plot->xAxis);
    m_badBars = new QCPBars(m_plot->yAxis, m_plot->xAxis);
    m_refLine = new QCPItemStraightLine(m_plot);
    m_plot->legend->setVisible(false);
    m_plot->setInteractions({});
    restyle();
  }
  void setData(const ViewData& d) override {
    begin(d);
    m_title->setText(QString::fromStdString(d.spec.title.empty() ? d.spec.name : d.spec.title));
    for (auto* t : m_labels) m_plot->removeItem(t);
    m_labels.clear();
    auto ticker = QSharedPointer<QCPAxisTickerText>(new QCPAxisTickerText);
    QVector<double> keys, vals, badKeys, badVals;
    double lo = 0, hi = 0;
    ScalarValue first;
    int k = 0;
    const auto& impls = d.outcome->result.impls;
    for (auto it = impls.rbegin(); it != impls.rend(); ++it) {  // first implementation on top
      const HostArray* a = nullptr;
      for (const auto& o : it->outputs)
        if (o.name() == d.spec.name) a = &o;
      if (!a) continue;
      const ScalarValue s = scalarValue(*a, d.spec);
      first = s;
      const bool bad = it->verification.outcome == Verification::Outcome::Fail ||
                       it->verification.outcome == Verification::Outcome::Demonstration;
      (bad ? badKeys : keys) << double(k);
      (bad ? badVals : vals) << s.value;
      ticker->addTick(k, QString::fromStdString(it->title.empty() ? it->implId : it->title));
      lo = std::min(lo, s.value);
      hi = std::max(hi, s.value);
      QString text = QString::number(s.value, 'g', 10);
      if (s.hasReference) text += QString("\nerror %1 (relative %2)").arg(s.absError, 0, 'g', 3).arg(s.relError, 0, 'g', 3);
      // At the right edge of the plot, level with its bar: never clipped, whatever the values.
      auto* label = new QCPItemText(m_plot);
      label->position->setTypeX(QCPItemPosition::ptAxisRectRatio);
      label->position->setTypeY(QCPItemPosition::ptPlotCoords);
      label->position->setCoords(0.99, k);
      label->setPositionAlignment(Qt::AlignRight | Qt::AlignVCenter);
      label->setTextAlignment(Qt::AlignRight);
      label->setPadding(QMargins(6, 2, 6, 2));
      label->setBrush(QBrush(QColor(255, 255, 255, 220)));
      label->setText(text);
      label->setFont(m_style.font(1.0, true));
      label->setColor(toQColor(m_style.palette->foreground));
      m_labels.push_back(label);
      ++k;
    }
    if (k == 0) return showMessage("no implementation produced " + QString::fromStdString(d.spec.name));
    m_plot->yAxis->setTicker(ticker);
    m_bars->setData(keys, vals);
    m_badBars->setData(badKeys, badVals);
    m_refLine->setVisible(first.hasReference);
    if (first.hasReference) {
      m_refLine->point1->setCoords(first.reference, 0);
      m_refLine->point2->setCoords(first.reference, 1);
      lo = std::min(lo, first.reference);
      hi = std::max(hi, first.reference);
    }
    m_lo = lo;
    m_hi = hi;
    m_k = k;
    m_drawn = k;
    m_plot->xAxis->setLabel(QString::fromStdString(d.spec.yLabel.empty() ? d.spec.name : d.spec.yLabel) +
                            (first.hasReference ? QString("   (line: exact value %1)").arg(first.reference, 0, 'g', 10) : QString()));
    m_plot->yAxis->setLabel({});
    m_summary = QString("%1 implementations").arg(k);
    resetZoom();
  }
  void resetZoom() override {
    const double span = std::max(std::fabs(m_hi - m_lo), std::max(std::fabs(m_hi), std::fabs(m_lo)));
    // Bars over the left 55%: the labels stand on the right.
    m_plot->xAxis->setRange(std::min(0.0, m_lo - 0.05 * span), m_hi + 0.8 * (span > 0 ? span : 1));
    m_plot->yAxis->setRange(-0.6, m_k - 0.4);
    replotWhenVisible(*m_plot);
  }
  void setLogY(bool) override {}

 private:
  void clearData() override {
    m_bars->data()->clear();
    m_badBars->data()->clear();
    for (auto* t : m_labels) m_plot->removeItem(t);
    m_labels.clear();
    m_drawn = 0;
  }
  void restyle() override {
    QColor c = m_style.seriesColor(0);
    c.setAlpha(170);
    m_bars->setBrush(c);
    m_bars->setPen(Qt::NoPen);
    m_bars->setWidth(0.6);
    QColor b = m_style.mismatchColor();
    b.setAlpha(170);
    m_badBars->setBrush(b);
    m_badBars->setPen(Qt::NoPen);
    m_badBars->setWidth(0.6);
    m_refLine->setPen(QPen(toQColor(m_style.palette->foreground), m_style.lineWidth, Qt::DashLine));
  }
  QCPBars *m_bars = nullptr, *m_badBars = nullptr;
  QCPItemStraightLine* m_refLine = nullptr;
  std::vector<QCPItemText*> m_labels;
  double m_lo = 0, m_hi = 1;
  int m_k = 0;
};

/// y against x pairs (2 x k array), lines with markers; log x when x spans more than three decades.
class SeriesView final : public QcpViewBase {
 public:
  static constexpr std::size_t kMaxPoints = 20000;
  explicit SeriesView(QWidget* parent) : QcpViewBase(parent) {
    m_ref = addSegmentGraph(m_plot);
    m_main = addSegmentGraph(m_plot);
    restyle();
  }
  void setData(const ViewData& d) override {
    begin(d);
    const HostArray* a = d.array(d.source);
    if (!a) return showMessage("no data for " + d.sourceTitle(d.source));
    const XY main = seriesPoints(*a, kMaxPoints);
    m_main->setData(qv(main.x), qv(main.y));
    m_main->setName(d.sourceTitle(d.source));
    m_drawn = int(main.size());
    const HostArray* r = showReference() ? d.array(d.reference) : nullptr;
    if (r) {
      const XY rp = seriesPoints(*r, kMaxPoints);
      m_ref->setData(qv(rp.x), qv(rp.y));
      m_ref->setName(d.sourceTitle(d.reference) + " (reference)");
      m_ref->addToLegend();
    } else {
      m_ref->data()->clear();
      m_ref->removeFromLegend();
    }
    const auto [mn, mx] = std::minmax_element(main.x.begin(), main.x.end());
    setAxisLog(m_plot->xAxis, !main.x.empty() && *mn > 0 && *mx / *mn > 1000);
    m_summary = QString("%1 points").arg(count(main.size()));
    resetZoom();
  }
  void resetZoom() override {
    m_plot->rescaleAxes();
    const QCPRange y = m_plot->yAxis->range();
    setYRange(y.lower, y.upper);
    replotWhenVisible(*m_plot);
  }

 private:
  void clearData() override {
    m_ref->data()->clear();
    m_main->data()->clear();
    m_drawn = 0;
  }
  void restyle() override {
    const QColor c = m_style.seriesColor(m_data.colorIndex);
    m_main->setPen(mainPen());
    m_main->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, c, m_style.markerSize));
    m_ref->setPen(refPen(2.4));
  }
  QCPGraph *m_ref = nullptr, *m_main = nullptr;
};

OutputViewFactory& factory() {
  static OutputViewFactory f = createQcpOutputView;
  return f;
}

}  // namespace

std::unique_ptr<OutputView> createQcpOutputView(PlotKind kind, QWidget* parent) {
  switch (kind) {
    case PlotKind::Waveform: return std::make_unique<WaveformView>(parent);
    case PlotKind::Scatter: return std::make_unique<ScatterView>(parent);
    case PlotKind::Histogram: return std::make_unique<HistogramView>(parent);
    case PlotKind::Image: return std::make_unique<ImageView>(parent);
    case PlotKind::Scalar: return std::make_unique<ScalarView>(parent);
    case PlotKind::Series: return std::make_unique<SeriesView>(parent);
  }
  return std::make_unique<WaveformView>(parent);
}

std::unique_ptr<OutputView> createOutputView(PlotKind kind, QWidget* parent) { return factory()(kind, parent); }

void setOutputViewFactory(OutputViewFactory f) { factory() = f ? std::move(f) : OutputViewFactory(createQcpOutputView); }

}  // namespace launchlab::ui
