#include "plots/sweep_chart.h"

#include <qcustomplot.h>

#include <algorithm>
#include <cmath>

#include "plots/plot_interaction.h"

namespace launchlab::ui {

SweepChart::SweepChart(QWidget* parent) : m_plot(new QCustomPlot(parent)) {
  m_plot->setMinimumSize(300, 180);
  m_title = addTitleRow(*m_plot);
  legendBelow(*m_plot);
  m_plot->yAxis2->setVisible(true);
  m_occupancyAxis = m_plot->axisRect()->addAxis(QCPAxis::atRight);
  m_occupancyAxis->setRange(0, 105);
  new PlotInteraction(m_plot);
  rebuild();
}

void SweepChart::setOccupancy(const QString& label, std::vector<OccupancyCurve> curves) {
  if (curves.empty() && m_occupancy.empty() && label == m_occupancyAxis->label()) return;  // nothing to redraw
  m_occupancy = std::move(curves);
  m_occupancyAxis->setLabel(label);
  rebuild();
}

QString SweepChart::occupancyLabel() const { return m_occupancyAxis->label(); }

/// The theoretical occupancy, dotted steps on the right-hand axis (0-105 %), one per kernel.
void SweepChart::plotOccupancy() {
  m_occupancyAxis->setVisible(!m_occupancy.empty());
  m_occupancyAxis->setLabelColor(toQColor(m_style.palette->foreground));
  m_occupancyAxis->setTickLabelColor(toQColor(m_style.palette->foreground));
  for (std::size_t i = 0; i < m_occupancy.size(); ++i) {
    const auto& c = m_occupancy[i];
    auto* g = m_plot->addGraph(m_plot->xAxis, m_occupancyAxis);
    g->setName(c.label);
    g->setLineStyle(QCPGraph::lsStepCenter);
    g->setPen(QPen(m_style.seriesColor(int(i) + 2), m_style.lineWidth, Qt::DotLine));
    g->setData(QVector<double>(c.threads.begin(), c.threads.end()),
               QVector<double>(c.percent.begin(), c.percent.end()));
  }
}

SweepChart::~SweepChart() { delete m_plot.data(); }
QWidget* SweepChart::widget() { return m_plot; }

void SweepChart::begin(const QString& implTitle, const QString& setupText) {
  m_points.clear();
  m_implTitle = implTitle;
  m_setup = setupText;
  rebuild();
}

void SweepChart::addPoint(const SweepPoint& p) {
  m_points.push_back(p);
  rebuild();
}

void SweepChart::setPoints(const QString& implTitle, const QString& setupText, std::vector<SweepPoint> points) {
  m_points = std::move(points);
  m_implTitle = implTitle;
  m_setup = setupText;
  rebuild();
}

void SweepChart::clear() {
  m_points.clear();
  m_implTitle.clear();
  rebuild();
}

void SweepChart::setViewStyle(const ViewStyle& s) {
  m_style = s;
  rebuild();
}

QString SweepChart::exportTitle() const { return m_title->text(); }
void SweepChart::render(QCPPainter& painter, const QSize& size) {
  m_plot->toPainter(&painter, size.width(), size.height());
}

void SweepChart::rebuild() {
  m_plot->clearPlottables();
  clearItemsKeepingReadout(*m_plot);
  applyPlotStyle(*m_plot, m_style);
  styleTitle(*m_title, m_style);
  m_title->setText(m_implTitle.isEmpty() ? QString("Block-size sweep: pick a CUDA implementation and press Sweep")
                                         : "Block-size sweep: " + m_implTitle + " (" + m_setup + ")");
  setupAxes();
  const bool measured = plotPoints();
  plotOccupancy();
  if (!m_points.empty() && !measured) showNothingMeasured();
  m_plot->legend->setVisible(m_plot->legend->itemCount() > 0);  // no empty legend frame before a sweep
  replotWhenVisible(*m_plot);
}

void SweepChart::setupAxes() {
  m_plot->xAxis->setLabel("threads per block");
  m_plot->yAxis->setLabel("kernel time (ms, median; whiskers min-max)");
  m_plot->yAxis2->setLabel("bandwidth (GB/s)");
  auto ticker = QSharedPointer<QCPAxisTickerFixed>(new QCPAxisTickerFixed);
  ticker->setTickStep(128);
  ticker->setScaleStrategy(QCPAxisTickerFixed::ssMultiples);
  m_plot->xAxis->setTicker(ticker);
  m_plot->xAxis->setRange(0, 1056);
}

/// Kernel time with whiskers and GB/s per measured point, a cross per point without a measurement; returns
/// whether any point was measured.
bool SweepChart::plotPoints() {
  auto* time = m_plot->addGraph(m_plot->xAxis, m_plot->yAxis);
  time->setName("kernel time");
  time->setPen(QPen(m_style.seriesColor(0), m_style.lineWidth));
  time->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, m_style.seriesColor(0), m_style.markerSize));
  auto* bw = m_plot->addGraph(m_plot->xAxis, m_plot->yAxis2);
  bw->setName("GB/s");
  bw->setPen(QPen(m_style.seriesColor(1), m_style.lineWidth, Qt::DashLine));
  bw->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssSquare, m_style.seriesColor(1), m_style.markerSize));
  auto* bad = m_plot->addGraph(m_plot->xAxis, m_plot->yAxis);
  bad->setName("skipped / failed (reason in the list)");
  bad->setLineStyle(QCPGraph::lsNone);
  bad->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCross, QPen(m_style.mismatchColor(), m_style.lineWidth + 0.5),
                                       Qt::NoBrush, m_style.markerSize + 4));
  auto* whiskers = new QCPErrorBars(m_plot->xAxis, m_plot->yAxis);
  whiskers->removeFromLegend();
  whiskers->setPen(QPen(m_style.seriesColor(0), 1));

  QVector<double> x, y, em, ep, bx, by, gx, gy;
  double maxMs = 0, maxBw = 0;
  for (const auto& p : m_points) {
    if (p.status == Status::Ok && p.kernelMs > 0) {
      x << double(p.threads);
      y << p.kernelMs;
      em << p.kernelMs - p.minMs;
      ep << p.maxMs - p.kernelMs;
      gx << double(p.threads);
      gy << p.bandwidthGBs;
      maxMs = std::max(maxMs, p.maxMs);
      maxBw = std::max(maxBw, p.bandwidthGBs);
    } else {
      bx << double(p.threads);
    }
  }
  time->setData(x, y);
  bw->setData(gx, gy);
  whiskers->setDataPlottable(time);
  whiskers->setData(em, ep);
  m_plot->yAxis->setRange(0, maxMs > 0 ? maxMs * 1.15 : 1);
  m_plot->yAxis2->setRange(0, maxBw > 0 ? maxBw * 1.15 : 1);
  for (int i = 0; i < bx.size(); ++i) by << m_plot->yAxis->range().lower + m_plot->yAxis->range().size() * 0.04;
  bad->setData(bx, by);
  if (bx.isEmpty()) bad->removeFromLegend();
  if (x.isEmpty()) time->removeFromLegend();
  if (gx.isEmpty()) bw->removeFromLegend();
  return !x.isEmpty();
}

/// Every point failed or was skipped: say so, with the last reason, in the middle of the chart.
void SweepChart::showNothingMeasured() {
  auto* t = new QCPItemText(m_plot);
  t->position->setType(QCPItemPosition::ptAxisRectRatio);
  t->position->setCoords(0.5, 0.45);
  QString reason = QString::fromStdString(m_points.back().reason);
  if (reason.size() > 110) reason = reason.left(108) + "\xE2\x80\xA6";
  t->setText(QString("%1 of %2 points ran nothing measurable:\n").arg(m_points.size()).arg(m_points.size()) + reason);
  t->setFont(m_style.font(1.0));
  t->setColor(toQColor(m_style.palette->foreground));
}

}  // namespace launchlab::ui
