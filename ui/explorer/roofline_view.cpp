#include "explorer/roofline_view.h"

#include <qcustomplot.h>

#include <QCheckBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>
#include <tuple>

#include "explorer/crossover_view.h"
#include "launchlab/explorer/run_compare.h"
#include "models/text.h"
#include "plots/plot_interaction.h"

namespace launchlab::ui {

namespace {

/// "83.9", "1007", "0.083": three significant digits, no exponent for the ranges a roofline shows.
QString sig(double v) {
  const int digits = v >= 100 ? 0 : v >= 10 ? 1 : v >= 1 ? 2 : 3;
  return QString::number(v, 'f', digits);
}

/// The powers of ten that bracket [lo, hi] (at least one decade apart).
std::pair<double, double> decades(double lo, double hi) {
  const double a = std::floor(std::log10(lo)), b = std::ceil(std::log10(hi));
  return {std::pow(10.0, a), std::pow(10.0, b > a ? b : a + 1)};
}

constexpr double kHoverPixels = 12;

}  // namespace

RooflineMarks rooflineMarks(const RunResult& r, const Ceilings& c, const QString& tag, bool current) {
  RooflineMarks out;
  for (const auto& impl : r.impls) {
    if (impl.status != Status::Ok) continue;
    auto p = placeOnRoofline(c, impl.flops, impl.bytesMoved, impl.computeMedianMs());
    if (!p) {
      if (c.valid()) out.noFlopCount << tag + q(impl.implId);
      continue;
    }
    out.placed.push_back({tag + q(impl.implId), impl.gpu, current, *p});
  }
  return out;
}

QString rooflineReadout(const RooflineMark& m) {
  const RooflinePoint& p = m.point;
  return QString("%1 (%2): %3 FLOP/byte, %4 GFLOP/s, %5 GB/s, %6-bound, %7 % of the roof")
      .arg(m.label, m.gpu ? "GPU" : "CPU", sig(p.intensity), sig(p.gflops), sig(p.gbs),
           q(std::string(boundName(p.bound))), QString::number(p.percentOfRoof, 'f', p.percentOfRoof < 10 ? 1 : 0));
}

Ceilings datasheetCeilingsFor(const DeviceStatus& device) {
  if (device.available)
    if (auto p = profileForDevice(device.info)) return theoreticalCeilings(*p);
  return theoreticalCeilings(defaultArchProfile());
}

QString ceilingsProvenance(const Ceilings& c, bool gpuPresent) {
  QString s = "Ceilings " + q(c.label());
  if (c.source == Ceilings::Source::Theoretical && !gpuPresent) s += " (no GPU here)";
  return s;
}

RooflineView::RooflineView(QWidget* parent) : QWidget(parent) {
  auto* l = new QVBoxLayout(this);
  l->setContentsMargins(0, 2, 0, 0);
  auto* row = new QHBoxLayout;
  auto* note = new QLabel("FLOP per byte moved against GFLOP/s; hover a point: its bound and % of the roof");
  note->setStyleSheet("color: palette(mid);");
  note->setWordWrap(true);
  m_historyBox = new QCheckBox("History runs");
  m_historyBox->setToolTip("Also place the session's earlier runs (History tab), faded, tagged with their number");
  row->addWidget(note, 1);
  row->addWidget(m_historyBox);
  l->addLayout(row);
  m_plot = new QCustomPlot(this);
  m_plot->setMinimumSize(300, 180);
  m_title = addTitleRow(*m_plot);
  m_plot->plotLayout()->insertRow(1);  // the ceilings' provenance, under the title
  m_provenance = new QCPTextElement(m_plot, "", QFont());
  m_plot->plotLayout()->addElement(1, 0, m_provenance);
  setAxisLog(*m_plot->xAxis, true);
  setAxisLog(*m_plot->yAxis, true);
  m_interaction = new PlotInteraction(m_plot, [this](double x, double y) { return readoutAt(x, y); });
  l->addWidget(m_plot, 1);
  m_noFlop = new QLabel;
  m_noFlop->setWordWrap(true);
  m_noFlop->setStyleSheet("color: #8a5a00;");
  m_noFlop->setVisible(false);
  l->addWidget(m_noFlop);
  connect(m_historyBox, &QCheckBox::toggled, this, [this] { rebuild(); });
  m_ceilings = datasheetCeilingsFor({});
  rebuild();
}

RooflineView::~RooflineView() = default;

void RooflineView::setCeilings(const Ceilings& c, bool gpuPresent) {
  m_ceilings = c;
  m_gpuPresent = gpuPresent;
  rebuild();
}

void RooflineView::setRun(const RunResult& r) {
  m_run = withoutArrays(r);
  m_haveRun = true;
  rebuild();
}

void RooflineView::setHistory(std::vector<std::pair<QString, RunResult>> runs) {
  m_history = std::move(runs);
  if (m_historyBox->isChecked()) rebuild();
}

void RooflineView::setViewStyle(const ViewStyle& s) {
  m_style = s;
  rebuild();
}

QString RooflineView::provenanceText() const { return ceilingsProvenance(m_ceilings, m_gpuPresent); }
QString RooflineView::noFlopText() const { return m_noFlop->isVisibleTo(this) ? m_noFlop->text() : QString(); }
QString RooflineView::exportTitle() const { return "Roofline: " + q(m_run.workload); }
void RooflineView::render(QCPPainter& painter, const QSize& size) {
  m_plot->toPainter(&painter, size.width(), size.height());
}

QString RooflineView::otherDeviceNote() const {
  const bool gpuRun = std::any_of(m_run.impls.begin(), m_run.impls.end(), [](const ImplResult& i) { return i.gpu; });
  if (!m_haveRun || !gpuRun || !m_run.device.available || m_run.device.info.name == m_ceilings.gpuName) return {};
  return "This run's GPU points were measured on " + q(m_run.device.info.name) + ": the roofs drawn are " +
         q(m_ceilings.label()) + ", not that GPU's own";
}

QString RooflineView::readoutAt(double intensity, double gflops) const {
  const double px = m_plot->xAxis->coordToPixel(intensity), py = m_plot->yAxis->coordToPixel(gflops);
  const RooflineMark* best = nullptr;
  double bestD = kHoverPixels;
  for (const auto& m : m_marks) {
    const double d = std::hypot(m_plot->xAxis->coordToPixel(m.point.intensity) - px,
                                m_plot->yAxis->coordToPixel(m.point.gflops) - py);
    if (d <= bestD) {
      bestD = d;
      best = &m;
    }
  }
  if (best) return rooflineReadout(*best);
  const Bound b = boundAt(m_ceilings, intensity);
  return QString("%1 FLOP/byte: roof %2 GFLOP/s (%3-bound)")
      .arg(sig(intensity), sig(roofAt(m_ceilings, intensity)), q(std::string(boundName(b))));
}

void RooflineView::fitAxes(double& xLo, double& xHi) {
  const double ridge = ridgePoint(m_ceilings);
  double lo = ridge > 0 ? ridge / 100 : 0.01, hi = ridge > 0 ? ridge * 10 : 100;
  double yLo = m_ceilings.fp32Gflops > 0 ? m_ceilings.fp32Gflops / 1e4 : 1, yHi = std::max(m_ceilings.fp32Gflops, 1.0);
  for (const auto& m : m_marks) {
    lo = std::min(lo, m.point.intensity);
    hi = std::max(hi, m.point.intensity);
    yLo = std::min(yLo, m.point.gflops / 2);  // room for the point's marker under it
    yHi = std::max(yHi, m.point.gflops);
  }
  std::tie(xLo, xHi) = decades(lo, hi);
  const auto [y0, y1] = decades(yLo, yHi * 4);  // room above the compute roof for its label
  m_plot->xAxis->setRange(xLo, xHi);
  m_plot->yAxis->setRange(y0, y1);
}

/// The memory roof up to the ridge, the compute roof after it, each labelled, and the ridge marked.
void RooflineView::drawRoofs(double xLo, double xHi) {
  if (!m_ceilings.valid()) return;
  const double ridge = ridgePoint(m_ceilings), peak = m_ceilings.fp32Gflops;
  auto* memory = m_plot->addGraph();
  memory->setPen(QPen(m_style.seriesColor(2), m_style.lineWidth * 2));
  memory->setData({xLo, ridge}, {xLo * m_ceilings.copyGBs, peak});
  auto* compute = m_plot->addGraph();
  compute->setPen(QPen(m_style.seriesColor(3), m_style.lineWidth * 2));
  compute->setData({ridge, xHi}, {peak, peak});
  memory->removeFromLegend();
  compute->removeFromLegend();
  auto* ridgeLine = new QCPItemStraightLine(m_plot);
  ridgeLine->point1->setCoords(ridge, 1);
  ridgeLine->point2->setCoords(ridge, 2);
  ridgeLine->setPen(QPen(toQColor(m_style.palette->foreground), 1, Qt::DotLine));
  auto label = [&](const QString& text, double x, double y, Qt::Alignment a, const QColor& colour) {
    auto* t = new QCPItemText(m_plot);
    t->position->setCoords(x, y);
    t->setPositionAlignment(a);
    t->setText(text);
    t->setFont(m_style.font(1.0, true));
    t->setColor(colour);
  };
  const double xm = std::sqrt(xLo * ridge);  // halfway along the slope (log scale), under it
  label(QString("memory roof %1 GB/s").arg(sig(m_ceilings.copyGBs)), xm * 1.15, xm * m_ceilings.copyGBs / 1.15,
        Qt::AlignLeft | Qt::AlignTop, m_style.seriesColor(2));
  label(QString("FP32 compute roof %1 GFLOP/s").arg(sig(peak)), xHi / 1.3, peak * 1.12,
        Qt::AlignRight | Qt::AlignBottom, m_style.seriesColor(3));
  label(QString("ridge %1 FLOP/byte").arg(sig(ridge)), ridge * 1.1, peak / 1.3, Qt::AlignLeft | Qt::AlignTop,
        toQColor(m_style.palette->foreground));
}

/// GPU implementations as discs, CPU ones as squares; History runs faded; each labelled beside its point.
void RooflineView::drawMarks() {
  for (int kind = 0; kind < 4; ++kind) {
    const bool gpu = kind % 2 == 0, current = kind < 2;
    QVector<double> x, y;
    for (const auto& m : m_marks)
      if (m.gpu == gpu && m.current == current) {
        x << m.point.intensity;
        y << m.point.gflops;
      }
    if (x.isEmpty()) continue;
    QColor c = m_style.seriesColor(gpu ? 0 : 1);
    if (!current) c.setAlpha(110);
    auto* g = m_plot->addGraph();
    g->setName(QString(gpu ? "GPU" : "CPU") + (current ? "" : " (History)"));
    g->setLineStyle(QCPGraph::lsNone);
    g->setScatterStyle(QCPScatterStyle(gpu ? QCPScatterStyle::ssDisc : QCPScatterStyle::ssSquare, c, c,
                                       m_style.markerSize + (current ? 4 : 2)));
    g->setData(x, y, true);
  }
  // Points of the same FLOP/byte (every implementation of a workload has the same count and bytes) share one label,
  // a name per line from the fastest down, beside the highest: the plot spans decades in a few hundred pixels, so
  // their own labels would print one over the other.
  std::vector<const RooflineMark*> current;
  for (const auto& m : m_marks)
    if (m.current) current.push_back(&m);
  std::sort(current.begin(), current.end(), [](auto* a, auto* b) { return a->point.gflops > b->point.gflops; });
  std::vector<bool> used(current.size(), false);
  for (std::size_t i = 0; i < current.size(); ++i) {
    if (used[i]) continue;
    const RooflinePoint& top = current[i]->point;
    QStringList names{current[i]->label};
    for (std::size_t j = i + 1; j < current.size(); ++j) {
      const RooflinePoint& p = current[j]->point;
      if (used[j] || std::abs(std::log10(p.intensity / top.intensity)) > 0.08) continue;
      used[j] = true;
      names << current[j]->label;
    }
    auto* t = new QCPItemText(m_plot);
    t->position->setCoords(top.intensity, top.gflops);
    t->setPositionAlignment(Qt::AlignLeft | (names.size() > 1 ? Qt::AlignTop : Qt::AlignVCenter));
    t->setPadding(QMargins(int(m_style.markerSize) + 2, 0, 0, 0));
    t->setText(names.join('\n'));
    t->setFont(m_style.font(0.95));
    t->setColor(toQColor(m_style.palette->foreground));
  }
}

void RooflineView::rebuild() {
  m_marks.clear();
  m_noFlopCount.clear();
  if (m_haveRun) {
    RooflineMarks now = rooflineMarks(m_run, m_ceilings);
    m_marks = std::move(now.placed);
    m_noFlopCount = now.noFlopCount;
  }
  if (m_historyBox->isChecked())
    for (const auto& [tag, run] : m_history) {
      RooflineMarks old = rooflineMarks(run, m_ceilings, tag + " ", false);
      m_marks.insert(m_marks.end(), old.placed.begin(), old.placed.end());
    }
  resetLogLogPlot(*m_plot, *m_title, m_style);
  m_title->setText("Roofline" + (m_haveRun ? ": " + q(m_run.workload) : QString()));
  m_provenance->setText(provenanceText());
  m_provenance->setFont(m_style.font(1.0, true));
  m_provenance->setTextColor(m_ceilings.source == Ceilings::Source::Theoretical
                                 ? QColor(0x8a, 0x5a, 0x00)
                                 : toQColor(m_style.palette->foreground));
  m_plot->xAxis->setLabel("arithmetic intensity (FLOP / byte moved)");
  m_plot->yAxis->setLabel("achieved GFLOP/s");
  double xLo = 0, xHi = 0;
  fitAxes(xLo, xHi);
  drawRoofs(xLo, xHi);
  drawMarks();
  m_plot->legend->setVisible(m_plot->legend->itemCount() > 0);
  // Above the memory roof nothing is attainable: the legend goes there, never over a point.
  m_plot->axisRect()->insetLayout()->setInsetAlignment(0, Qt::AlignTop | Qt::AlignLeft);
  const QString none = m_noFlopCount.isEmpty() ? QString() : "No FLOP count (not placed): " + m_noFlopCount.join(", ");
  const QString why = m_ceilings.valid() ? QString() : "No ceilings: " + q(m_ceilings.problem);
  QStringList lines{why.isEmpty() ? none : why};
  if (const QString other = otherDeviceNote(); !other.isEmpty()) lines << other;
  lines.removeAll(QString());
  m_noFlop->setText(lines.join('\n'));
  m_noFlop->setVisible(!m_noFlop->text().isEmpty());
  replotWhenVisible(*m_plot);
}

}  // namespace launchlab::ui
