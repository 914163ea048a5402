// Series: y against x pairs, log x when x spans decades.
#include <algorithm>
#include <cmath>

#include "plots/qcp_view_base.h"

namespace launchlab::ui {

namespace {

/// y against x pairs (2 x k array), lines with markers; log x when x spans more than three decades.
class SeriesView final : public QcpViewBase {
 public:
  explicit SeriesView(QWidget* parent) : QcpViewBase(parent) {
    m_bandLo = m_plot->addGraph();
    m_bandHi = m_plot->addGraph();
    m_bandHi->setChannelFillGraph(m_bandLo);
    m_exact = m_plot->addGraph();
    m_ref = addSegmentGraph(m_plot);
    m_main = addSegmentGraph(m_plot);
    m_bandLo->removeFromLegend();
    restyle();
  }
  void setData(const ViewData& d) override {
    begin(d);
    const HostArray* a = d.array(d.source);
    if (!a) return showNoData();
    const XY main = seriesPoints(*a, kMaxPoints);
    m_main->setData(qv(main.x), qv(main.y));
    m_main->setName(d.sourceTitle(d.source));
    m_drawn = int(main.size());
    const HostArray* r = showReference() ? d.array(d.reference) : nullptr;
    if (r) {
      const XY rp = seriesPoints(*r, kMaxPoints);
      m_ref->setData(qv(rp.x), qv(rp.y));
    } else {
      m_ref->data()->clear();
    }
    labelReference(m_ref, r != nullptr);
    const auto [mn, mx] = std::minmax_element(main.x.begin(), main.x.end());
    const bool logX = !main.x.empty() && *mn > 0 && *mx / *mn > 1000;
    setAxisLog(*m_plot->xAxis, logX);
    // One tick format along the axis: powers of ten on a log axis, plain numbers otherwise.
    m_plot->xAxis->setNumberFormat(logX ? "eb" : "g");
    m_plot->xAxis->setNumberPrecision(logX ? 0 : 6);
    showExact(main.x.empty() ? 0 : *mn, main.x.empty() ? 0 : *mx);
    m_summary = QString("%1 points").arg(countText(main.size()));
    resetZoom();
  }
  void resetZoom() override {
    m_plot->rescaleAxes();
    const QCPRange y = m_plot->yAxis->range();
    setYRange(y.lower, y.upper);
    // A margin on x too, so the first and last markers are whole.
    const QCPRange x = m_plot->xAxis->range();
    if (m_plot->xAxis->scaleType() == QCPAxis::stLogarithmic)
      m_plot->xAxis->setRange(x.lower / 1.6, x.upper * 1.6);
    else
      m_plot->xAxis->setRange(x.lower - 0.04 * x.size(), x.upper + 0.04 * x.size());
    replotWhenVisible(*m_plot);
  }

 private:
  void clearData() override {
    for (auto* g : {m_ref, m_main, m_exact, m_bandLo, m_bandHi}) g->data()->clear();
    m_drawn = 0;
  }
  /// The exact value the series converges to (when known) as a line, and for a Monte Carlo estimate of pi the
  /// band of +-1 standard deviation of the estimator at each sample count, which shrinks as 1 / sqrt(n).
  void showExact(double xMin, double xMax) {
    const bool known = m_data.spec.referenceValue.has_value() && xMax > xMin;
    const double exact = m_data.spec.referenceValue.value_or(0);
    m_exact->setData(QVector<double>{xMin, xMax}, QVector<double>{exact, exact});
    m_exact->setName(QString("exact value %1").arg(exact, 0, 'g', 8));
    showInLegend(m_exact, known);
    const double box = m_data.spec.samplingBox;
    const Band b = known && hitOrMissSigma(exact, 1, box) > 0 ? hitOrMissBand(exact, xMin, xMax, 96, box) : Band{};
    m_bandLo->setData(qv(b.x), qv(b.lower), true);
    m_bandHi->setData(qv(b.x), qv(b.upper), true);
    m_bandHi->setName(QString("\xC2\xB1"
                              "1\xCF\x83 of the estimate: %1\xE2\x88\x9A(p(1\xE2\x88\x92p)/n), p = exact / %1")
                          .arg(box));
    showInLegend(m_bandHi, !b.x.empty());
    if (!known) m_exact->data()->clear();
  }
  void restyle() override {
    const QColor c = m_style.seriesColor(m_data.colorIndex);
    m_main->setPen(mainPen());
    m_main->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, c, m_style.markerSize));
    m_ref->setPen(refPen(2.4));
    const QColor fg = toQColor(m_style.palette->foreground);
    m_exact->setPen(QPen(fg, m_style.lineWidth, Qt::DashLine));
    QColor band = m_style.seriesColor(m_data.colorIndex + 1);
    for (auto* g : {m_bandLo, m_bandHi}) g->setPen(QPen(band, 1, Qt::DotLine));
    band.setAlpha(50);
    m_bandHi->setBrush(band);
  }
  QCPGraph *m_ref = nullptr, *m_main = nullptr, *m_exact = nullptr, *m_bandLo = nullptr, *m_bandHi = nullptr;
};

}  // namespace

std::unique_ptr<OutputView> makeSeriesView(QWidget* parent) { return std::make_unique<SeriesView>(parent); }

}  // namespace launchlab::ui
