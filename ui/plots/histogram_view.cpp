// Histogram: bin counts as bars, the reference and the shown implementation overlaid.
#include <algorithm>
#include <cmath>

#include "plots/qcp_view_base.h"

namespace launchlab::ui {

namespace {

/// Bin counts as bars: the reference (outline) and the shown implementation (filled) overlaid.
class HistogramView final : public QcpViewBase {
 public:
  static constexpr int kMaxBars = 512;
  explicit HistogramView(QWidget* parent) : QcpViewBase(parent) {
    m_ref = new QCPBars(m_plot->xAxis, m_plot->yAxis);
    m_main = new QCPBars(m_plot->xAxis, m_plot->yAxis);
    m_bad = new QCPBars(m_plot->xAxis, m_plot->yAxis);
    restyle();
    enableGl([this](QSize px) { return glRequest(px); });
  }
  void setData(const ViewData& d) override {
    // An output drawn on a log axis by default (ArraySpec::logY, e.g. a mass spectrum): switched on with the first
    // data; the window's "Log y" box switches it afterwards.
    if (d.spec.logY && !m_specLogYApplied) {
      m_specLogYApplied = true;
      m_logY = true;
      setAxisLog(*m_plot->yAxis, true);
    }
    begin(d);
    const HostArray* a = d.array(d.source);
    if (!a) return showNoData();
    glDataChanged();
    m_array = a;
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
      m_maxCount = std::max(m_maxCount, *std::max_element(rb.counts.begin(), rb.counts.end()));
    } else {
      m_ref->data()->clear();
    }
    labelReference(m_ref, r != nullptr);
    markMismatchBars(main);
    m_lo = lo;
    m_hi = hi;
    m_summary =
        main.binsPerBar > 1
            ? QString("%1 bins shown as %2 bars of %3 bins").arg(countText(a->size())).arg(m_drawn).arg(main.binsPerBar)
            : QString("%1 bins").arg(countText(a->size()));
    resetZoom();
  }
  void resetZoom() override {
    m_plot->xAxis->setRange(m_lo, m_hi);
    if (m_logY)
      setYRange(1, m_maxCount);
    else
      m_plot->yAxis->setRange(0, std::max(1.0, m_maxCount * 1.08));
    for (auto* b : {m_ref, m_main, m_bad}) b->setBaseValue(m_logY ? m_plot->yAxis->range().lower : 0);
    replotWhenVisible(*m_plot);
  }

 private:
  /// Bars holding a mismatching bin, in the mismatch colour.
  void markMismatchBars(const HistogramBars& main) {
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
    labelMismatches(m_bad, !bk.isEmpty());
  }
  void setOwnSeriesVisible(bool on) override { m_main->setVisible(on); }
  /// The shown source's bars over the visible part of the axis (bars of binsPerBar bins, as histogramBars makes).
  std::optional<GlFrameRequest> glRequest(QSize px) const {
    if (!m_array || m_array->size() == 0 || m_message->visible() || m_hi <= m_lo) return std::nullopt;
    const double bins = double(m_array->size());
    const double perBar = std::ceil(bins / kMaxBars), barWidth = (m_hi - m_lo) / bins * perBar;
    GlFrameRequest q = glRequestOf(GlDraw::Histogram, m_array, px);
    q.maxBars = kMaxBars;
    q.drawRange.x0 = (q.range.x0 - m_lo) / barWidth;  // in bars
    q.drawRange.x1 = (q.range.x1 - m_lo) / barWidth;
    // QCustomPlot's translucent fill, mixed over the background: the frame is drawn opaque.
    const QColor c = m_style.seriesColor(m_data.colorIndex), bg = toQColor(m_style.palette->background);
    const double a = 150.0 / 255.0;
    q.color = QColor::fromRgbF(float(c.redF() * a + bg.redF() * (1 - a)), float(c.greenF() * a + bg.greenF() * (1 - a)),
                               float(c.blueF() * a + bg.blueF() * (1 - a)));
    return q;
  }
  void clearData() override {
    m_array = nullptr;
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
  const HostArray* m_array = nullptr;
  double m_maxCount = 1, m_lo = 0, m_hi = 1;
  bool m_specLogYApplied = false;
};

}  // namespace

std::unique_ptr<OutputView> makeHistogramView(QWidget* parent) { return std::make_unique<HistogramView>(parent); }

}  // namespace launchlab::ui
