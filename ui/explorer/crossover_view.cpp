#include "explorer/crossover_view.h"

#include <qcustomplot.h>

#include <algorithm>
#include <bit>
#include <map>

#include "launchlab/files/parse.h"
#include "models/text.h"
#include "plots/plot_interaction.h"

namespace launchlab::ui {

namespace {}  // namespace

void resetLogLogPlot(QCustomPlot& plot, QCPTextElement& title, const ViewStyle& s) {
  plot.clearPlottables();
  clearItemsKeepingReadout(plot);
  applyPlotStyle(plot, s);
  setAxisLog(*plot.xAxis, true);
  setAxisLog(*plot.yAxis, true);
  styleTitle(title, s);
}

QString powerOfTwoText(std::uint64_t n) {
  if (n > 0 && std::has_single_bit(n)) return "2^" + QString::number(std::countr_zero(n));
  return QString::number(n);
}

CrossoverPlot crossoverPlot(const std::vector<std::string>& axisFields, const std::vector<SweepPoint>& points) {
  CrossoverPlot out;
  const auto all = crossovers(axisFields, points);
  if (all.empty()) return out;
  out.crossover = all.front();
  const Crossover& c = *out.crossover;
  const auto nAxis = std::size_t(std::find(axisFields.begin(), axisFields.end(), "n") - axisFields.begin());
  // The curves of the crossover's group (the other axes' values), by implementation, ascending in N.
  std::map<std::string, std::map<double, std::pair<double, double>>> byImpl;
  std::vector<std::string> order;
  for (const auto& p : points) {
    if (p.status != Status::Ok || p.values.size() != axisFields.size()) continue;
    std::string group;
    for (std::size_t a = 0; a < axisFields.size(); ++a)
      if (a != nAxis) group += (group.empty() ? "" : ", ") + axisFields[a] + "=" + p.values[a];
    const auto n = parseSize(p.values[nAxis]);
    if (!n || group != c.group || (p.gpu && p.implId != c.gpuImpl)) continue;
    if (!byImpl.count(p.implId)) order.push_back(p.implId);
    byImpl[p.implId][double(*n)] = {p.kernelMs, p.totalMs};
  }
  std::stable_partition(order.begin(), order.end(), [&](const std::string& id) { return id != c.gpuImpl; });
  for (const auto& id : order) {
    const bool gpu = id == c.gpuImpl;
    for (int copies = 0; copies < (gpu ? 2 : 1); ++copies) {
      CrossoverCurve curve{
          gpu ? QString(copies ? "GPU with copies" : "GPU kernel only") : q(id), gpu, copies == 1, {}, {}};
      for (const auto& [n, t] : byImpl[id]) {
        curve.n.push_back(n);
        curve.ms.push_back(gpu && !copies ? t.first : t.second);
      }
      out.curves.push_back(std::move(curve));
    }
  }
  const QString last = c.rows.empty() ? "?" : powerOfTwoText(c.rows.back().n);
  out.kernelLabel = c.kernelOnlyFrom ? "GPU wins from N = " + powerOfTwoText(*c.kernelOnlyFrom) + " (kernel only)"
                                     : "kernel only: never up to " + last;
  out.copiesLabel = c.withCopiesFrom ? "with copies: from N = " + powerOfTwoText(*c.withCopiesFrom)
                                     : "with copies: never up to " + last;
  return out;
}

CrossoverView::CrossoverView(QWidget* parent) : m_plot(new QCustomPlot(parent)) {
  m_plot->setMinimumSize(300, 180);
  m_title = addTitleRow(*m_plot);
  m_plot->plotLayout()->insertRow(1);  // where the GPU starts to win, in words, under the title
  m_subtitle = new QCPTextElement(m_plot, "", QFont());
  m_plot->plotLayout()->addElement(1, 0, m_subtitle);
  // The legend in a column right of the axis rect (under the titles, which span the width): a short plot keeps
  // every curve in view.
  auto* body = new QCPLayoutGrid;
  QCPAxisRect* rect = m_plot->axisRect();
  m_plot->plotLayout()->take(rect);
  m_plot->plotLayout()->addElement(2, 0, body);
  body->addElement(0, 0, rect);
  rect->insetLayout()->take(m_plot->legend);
  auto* side = new QCPLayoutGrid;  // the legend at the top of its column, the rest empty
  body->addElement(0, 1, side);
  side->addElement(0, 0, m_plot->legend);
  side->addElement(1, 0, new QCPLayoutElement(m_plot));
  side->setRowStretchFactor(0, 0.001);
  body->setColumnStretchFactor(1, 0.001);
  new PlotInteraction(m_plot);
  rebuild();
}

CrossoverView::~CrossoverView() { delete m_plot; }
QWidget* CrossoverView::widget() { return m_plot; }

void CrossoverView::setSweep(const CrossoverPlot& plot, const QString& title) {
  m_data = plot;
  m_titleText = title;
  rebuild();
}

void CrossoverView::setViewStyle(const ViewStyle& s) {
  m_style = s;
  rebuild();
}

void CrossoverView::render(QCPPainter& painter, const QSize& size) {
  m_plot->toPainter(&painter, size.width(), size.height());
}
QString CrossoverView::exportTitle() const { return m_title->text(); }
QStringList CrossoverView::markerTexts() const { return m_markers; }

/// A dashed vertical line at N = n, with `text` at its foot (the bottom of the plot is left free for it).
void CrossoverView::addMarker(double n, const QString& text, const QColor& colour) {
  auto* line = new QCPItemStraightLine(m_plot);
  line->point1->setCoords(n, 1);
  line->point2->setCoords(n, 2);
  line->setPen(QPen(colour, m_style.lineWidth, Qt::DashLine));
  auto* t = new QCPItemText(m_plot);
  t->position->setTypeX(QCPItemPosition::ptPlotCoords);
  t->position->setTypeY(QCPItemPosition::ptAxisRectRatio);
  t->position->setCoords(n, 0.98);
  t->setPositionAlignment(Qt::AlignLeft | Qt::AlignBottom);
  t->setPadding(QMargins(4, 0, 0, 0));
  t->setText(text);
  t->setFont(m_style.font(0.95, true));
  t->setColor(colour);
}

void CrossoverView::rebuild() {
  resetLogLogPlot(*m_plot, *m_title, m_style);
  m_markers.clear();
  m_title->setText(m_titleText.isEmpty() ? QString("CPU/GPU crossover: open an N sweep")
                                         : "CPU/GPU crossover: " + m_titleText);
  m_plot->xAxis->setLabel("N (elements)");
  m_plot->yAxis->setLabel("time (ms, median)");
  double lo = 1e300, hi = 0, nLo = 1e300, nHi = 0;
  int cpu = 0;
  for (const auto& c : m_data.curves) {
    auto* g = m_plot->addGraph();
    g->setName(c.name);
    const QColor colour = c.gpu ? m_style.seriesColor(0) : m_style.seriesColor(1 + 2 * cpu++);
    g->setPen(QPen(colour, m_style.lineWidth * 1.5, c.withCopies ? Qt::DashLine : Qt::SolidLine));
    g->setScatterStyle(
        QCPScatterStyle(c.gpu ? QCPScatterStyle::ssDisc : QCPScatterStyle::ssSquare, colour, m_style.markerSize));
    QVector<double> x, y;
    for (std::size_t i = 0; i < c.n.size(); ++i)
      if (c.ms[i] > 0) {
        x << c.n[i];
        y << c.ms[i];
        lo = std::min(lo, c.ms[i]);
        hi = std::max(hi, c.ms[i]);
        nLo = std::min(nLo, c.n[i]);
        nHi = std::max(nHi, c.n[i]);
      }
    g->setData(x, y, true);
  }
  if (hi > 0) {
    m_plot->xAxis->setRange(nLo / 1.5, nHi * 1.5);
    m_plot->yAxis->setRange(lo / 20, hi * 3);  // a decade free at the foot for the markers' labels
  }
  if (const auto& c = m_data.crossover) {
    if (c->kernelOnlyFrom)
      addMarker(double(*c->kernelOnlyFrom), "kernel only: " + powerOfTwoText(*c->kernelOnlyFrom),
                m_style.seriesColor(0));
    if (c->withCopiesFrom)
      addMarker(double(*c->withCopiesFrom), "with copies: " + powerOfTwoText(*c->withCopiesFrom),
                toQColor(m_style.palette->foreground));
    m_markers << m_data.kernelLabel << m_data.copiesLabel;
  }
  m_subtitle->setText(m_markers.join("   \xC2\xB7   "));
  m_subtitle->setFont(m_style.font(1.0, true));
  m_subtitle->setTextColor(m_style.seriesColor(0));
  m_plot->legend->setVisible(m_plot->legend->itemCount() > 0);
  replotWhenVisible(*m_plot);
}

}  // namespace launchlab::ui
