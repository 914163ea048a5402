#include "explorer/sweep_heatmap.h"

#include <qcustomplot.h>

#include <QMouseEvent>
#include <cmath>

#include "models/text.h"
#include "plots/plot_interaction.h"

namespace launchlab::ui {

namespace {

/// The largest map whose unmeasured cells each get a cross (a larger one shows them grey alone).
constexpr std::size_t kMaxMarkedCells = 1024;

QSharedPointer<QCPAxisTickerText> labelTicks(const std::vector<std::string>& labels, std::size_t every) {
  auto t = QSharedPointer<QCPAxisTickerText>(new QCPAxisTickerText);
  for (std::size_t i = 0; i < labels.size(); i += every) t->addTick(double(i), q(labels[i]));
  return t;
}
}  // namespace

SweepHeatmap::SweepHeatmap(QWidget* parent) : m_plot(new QCustomPlot(parent)) {
  m_plot->setMinimumSize(300, 180);
  m_title = addTitleRow(*m_plot);
  m_colors = addColorMapWithScale(*m_plot, m_scale);
  m_plot->legend->setVisible(false);
  m_interaction = new PlotInteraction(m_plot, [this](double x, double y) { return readoutAt(x, y); });
  connect(m_plot, &QCustomPlot::mouseRelease, this, &SweepHeatmap::released);
  rebuild();
}

SweepHeatmap::~SweepHeatmap() { delete m_plot.data(); }
QWidget* SweepHeatmap::widget() { return m_plot; }
QString SweepHeatmap::titleText() const { return m_title->text(); }
QString SweepHeatmap::exportTitle() const { return m_title->text(); }
void SweepHeatmap::render(QCPPainter& painter, const QSize& size) {
  m_plot->toPainter(&painter, size.width(), size.height());
}

void SweepHeatmap::setMap(SweepMap map, SweepMetric metric, const QString& title) {
  m_map = std::move(map);
  m_metric = metric;
  m_titleText = title;
  m_picked.reset();
  rebuild();
}

void SweepHeatmap::setViewStyle(const ViewStyle& s) {
  m_style = s;
  rebuild();
}

std::optional<std::pair<std::size_t, std::size_t>> SweepHeatmap::cellAt(double x, double y) const {
  const double b = std::round(x), g = std::round(y);
  if (m_map.empty() || b < 0 || g < 0 || b >= double(m_map.blocks.size()) || g >= double(m_map.grids.size()))
    return std::nullopt;
  return std::make_pair(std::size_t(b), std::size_t(g));
}

QString SweepHeatmap::valueText(double v) const {
  if (!std::isfinite(v)) return "not measured";
  switch (m_metric) {
    case SweepMetric::TimeMs:
      return QString::number(v, 'g', 4) + " ms";
    case SweepMetric::BandwidthGBs:
      return QString::number(v, 'f', 1) + " GB/s";
    case SweepMetric::PercentOfCopy:
      return QString::number(v, 'f', 1) + " % of cudaMemcpy";
  }
  return {};
}

QString SweepHeatmap::readoutAt(double x, double y) const {
  const auto cell = cellAt(x, y);
  if (!cell) return {};
  return QString("block %1 \xC3\x97 grid %2: %3")
      .arg(q(m_map.blocks[cell->first]), q(m_map.grids[cell->second]), valueText(m_map.at(cell->first, cell->second)));
}

void SweepHeatmap::pickBest() {
  int best = -1;
  for (std::size_t i = 0; i < m_map.values.size(); ++i) {
    const double v = m_map.values[i];
    if (!std::isfinite(v)) continue;
    const bool better = best < 0 || (m_metric == SweepMetric::TimeMs ? v < m_map.values[std::size_t(best)]
                                                                     : v > m_map.values[std::size_t(best)]);
    if (better) best = int(i);
  }
  if (best >= 0) clickCell(std::size_t(best) % m_map.blocks.size(), std::size_t(best) / m_map.blocks.size());
}

void SweepHeatmap::clickCell(std::size_t block, std::size_t grid) {
  if (m_map.empty() || block >= m_map.blocks.size() || grid >= m_map.grids.size()) return;
  m_picked = std::make_pair(block, grid);
  markCells();
  replotWhenVisible(*m_plot);
  emit cellClicked(m_map.pointAt(block, grid));
}

void SweepHeatmap::released(QMouseEvent* e) {
  if (e->button() != Qt::LeftButton || !m_plot->axisRect()->rect().contains(e->pos())) return;
  if (const auto cell =
          cellAt(m_plot->xAxis->pixelToCoord(e->position().x()), m_plot->yAxis->pixelToCoord(e->position().y())))
    clickCell(cell->first, cell->second);
}

void SweepHeatmap::rebuild() {
  clearItemsKeepingReadout(*m_plot);
  applyPlotStyle(*m_plot, m_style);
  styleTitle(*m_title, m_style);
  m_plot->legend->setVisible(false);
  m_title->setText(m_titleText.isEmpty()
                       ? QString("Block \xC3\x97 grid heatmap: pick a grid axis and press Sweep, or open a sweep")
                       : m_titleText);
  m_scale->axis()->setLabel(q(std::string(sweepMetricName(m_metric))));
  m_scale->axis()->setLabelFont(m_style.font());
  m_scale->axis()->setTickLabelFont(m_style.font());
  m_scale->axis()->setLabelColor(toQColor(m_style.palette->foreground));
  m_scale->axis()->setTickLabelColor(toQColor(m_style.palette->foreground));
  m_plot->xAxis->setLabel("threads per block");
  m_plot->yAxis->setLabel("blocks per grid");
  auto* data = m_colors->data();
  const std::size_t nb = m_map.blocks.size(), ng = m_map.grids.size();
  m_colors->setVisible(!m_map.empty() && m_map.problem.empty());
  m_scale->setVisible(m_colors->visible());
  if (m_colors->visible()) {
    data->setSize(int(nb), int(ng));
    data->setRange(QCPRange(0, double(std::max<std::size_t>(nb, 2) - 1)),
                   QCPRange(0, double(std::max<std::size_t>(ng, 2) - 1)));
    for (std::size_t g = 0; g < ng; ++g)
      for (std::size_t b = 0; b < nb; ++b) data->setCell(int(b), int(g), m_map.at(b, g));
    const double lo = m_map.minValue, hi = m_map.maxValue > lo ? m_map.maxValue : lo + 1;
    // Times spanning a decade or more: a log scale, or one slow cell would paint every other one the same.
    const bool log = m_metric == SweepMetric::TimeMs && lo > 0 && hi / lo >= 10;
    m_colors->setDataScaleType(log ? QCPAxis::stLogarithmic : QCPAxis::stLinear);
    QSharedPointer<QCPAxisTicker> ticker =
        log ? QSharedPointer<QCPAxisTicker>(new QCPAxisTickerLog) : QSharedPointer<QCPAxisTicker>(new QCPAxisTicker);
    ticker->setTickCount(log ? 3 : 5);  // a short colour bar: few labels that never touch
    m_scale->axis()->setTicker(ticker);
    m_colors->setDataRange(QCPRange(lo, hi));
    // Tick labels: every column and row while they fit, else every 2nd, 4th, ...
    const int width = std::max(200, m_plot->axisRect()->width()), height = std::max(120, m_plot->axisRect()->height());
    const double px = m_style.fontPointSize * 1.333;
    const std::size_t everyX = std::max<std::size_t>(1, std::size_t(std::ceil(double(nb) * px * 3.2 / width)));
    const std::size_t everyY = std::max<std::size_t>(1, std::size_t(std::ceil(double(ng) * px * 1.8 / height)));
    m_plot->xAxis->setTicker(labelTicks(m_map.blocks, everyX));
    m_plot->yAxis->setTicker(labelTicks(m_map.grids, everyY));
    m_plot->xAxis->setRange(-0.5, double(nb) - 0.5);
    m_plot->yAxis->setRange(-0.5, double(ng) - 0.5);
    markCells();
  } else if (!m_map.problem.empty() || !m_titleText.isEmpty()) {
    auto* t = new QCPItemText(m_plot);
    t->position->setType(QCPItemPosition::ptAxisRectRatio);
    t->position->setCoords(0.5, 0.45);
    t->setText(m_map.problem.empty() ? QString("nothing measured yet") : q(m_map.problem));
    t->setFont(m_style.font(1.0));
    t->setColor(toQColor(m_style.palette->foreground));
  }
  replotWhenVisible(*m_plot);
}

/// A cross on every cell without a measurement (on a map of at most kMaxMarkedCells: a larger one shows them grey
/// alone, as an item per cell would cost the window its time to make and draw), the value in each cell of a small
/// map, a frame round the pick.
void SweepHeatmap::markCells() {
  clearItemsKeepingReadout(*m_plot);
  const std::size_t nb = m_map.blocks.size(), ng = m_map.grids.size();
  const bool values = nb * ng <= 48 && nb <= 12;
  for (std::size_t g = 0; nb * ng <= kMaxMarkedCells && g < ng; ++g)
    for (std::size_t b = 0; b < nb; ++b) {
      const double v = m_map.at(b, g);
      if (std::isfinite(v) && !values) continue;
      auto* t = new QCPItemText(m_plot);
      t->position->setCoords(double(b), double(g));
      t->setText(std::isfinite(v) ? valueText(v).section(' ', 0, 0) : QString("\xC3\x97"));
      t->setFont(m_style.font(std::isfinite(v) ? 0.9 : 1.2, !std::isfinite(v)));
      const bool log = m_colors->dataScaleType() == QCPAxis::stLogarithmic;
      const double t01 = log ? normalize(std::log(v), std::log(m_map.minValue), std::log(m_map.maxValue))
                             : normalize(v, m_map.minValue, m_map.maxValue);
      t->setColor(!std::isfinite(v) ? m_style.mismatchColor() : t01 > 0.6 ? QColor(20, 20, 20) : QColor(250, 250, 250));
      t->setClipToAxisRect(true);
    }
  if (m_picked) {
    auto* r = new QCPItemRect(m_plot);
    r->topLeft->setCoords(double(m_picked->first) - 0.5, double(m_picked->second) + 0.5);
    r->bottomRight->setCoords(double(m_picked->first) + 0.5, double(m_picked->second) - 0.5);
    r->setPen(QPen(m_style.mismatchColor(), m_style.lineWidth + 1.5));
  }
}

}  // namespace launchlab::ui
