#include "plots/charts.h"

#include <qcustomplot.h>

#include <algorithm>
#include <cmath>
#include <functional>

#include "plots/plot_interaction.h"

namespace launchlab::ui {

namespace {

QString phaseLabel(Phase p) {
  switch (p) {
    case Phase::H2D:
      return "H2D copy (host to device)";
    case Phase::Kernel:
      return "kernel";
    case Phase::D2H:
      return "D2H copy (device to host)";
    case Phase::Cpu:
      return "CPU loop";
    case Phase::Total:
      break;
  }
  return "total";
}

/// Wraps a long label onto two lines near its middle space.
QString wrapLabel(const std::string& s, int max = 34) {
  QString q = QString::fromStdString(s);
  if (q.size() <= max) return q;
  int cut = q.lastIndexOf(' ', q.size() / 2 + 4);
  if (cut <= 0) cut = q.indexOf(' ');
  if (cut <= 0) return q;
  return q.left(cut) + "\n" + q.mid(cut + 1);
}

/// Calls `f` when the watched widget's width changes.
class WidthHook final : public QObject {
 public:
  WidthHook(QWidget* w, std::function<void()> f) : QObject(w), m_f(std::move(f)) { w->installEventFilter(this); }
  bool eventFilter(QObject* o, QEvent* e) override {
    if (e->type() == QEvent::Resize) {
      const int w = static_cast<QWidget*>(o)->width();
      if (w != m_width) {
        m_width = w;
        m_f();
      }
    }
    return false;
  }

 private:
  std::function<void()> m_f;
  int m_width = -1;
};

}  // namespace

// ---- TimingChart ----

TimingChart::TimingChart(QWidget* parent) : m_plot(new QCustomPlot(parent)) {
  m_plot->setMinimumSize(300, 180);
  m_title = addTitleRow(*m_plot);
  legendBelow(*m_plot);
  new PlotInteraction(m_plot, [this](double, double key) { return barReadout(key); });
  new WidthHook(m_plot, [this] { rebuild(); });  // the labels' room is measured in pixels
  rebuild();
}

/// The bar under the cursor: its median, min and max.
QString TimingChart::barReadout(double key) const {
  const int n = int(m_data.bars.size()), i = n - 1 - int(std::lround(key));
  if (i < 0 || i >= n) return {};
  const auto& b = m_data.bars[std::size_t(i)];
  if (b.status != Status::Ok) return QString::fromStdString(b.title + "\n" + b.label);
  return QString::fromStdString(b.title + "\nmedian " + durationText(b.totalMs) + "\nmin " + durationText(b.minMs) +
                                ", max " + durationText(b.maxMs));
}

TimingChart::~TimingChart() { delete m_plot.data(); }
QWidget* TimingChart::widget() { return m_plot; }

void TimingChart::setResult(const RunResult& r) {
  m_raw = timingChart(r);
  refit();
  m_stale.clear();
  m_workloadTitle = r.workload + ", n = " + std::to_string(r.n) + " " + r.dtype;
  rebuild();
}

void TimingChart::clear() { markStale({}); }

void TimingChart::markStale(const QString& reason) {
  m_data = m_raw = {};
  m_stale = reason;
  rebuild();
}

QString TimingChart::titleText() const { return m_title->text(); }

void TimingChart::setLogScale(bool on) {
  m_log = on;
  refit();  // a log axis has room for every bar: no fit to the GPU bars
  rebuild();
}

void TimingChart::setKernelFirst(bool on) {
  m_kernelFirst = on;
  refit();
  rebuild();
}

void TimingChart::setGpuFit(bool on) {
  m_gpuFit = on;
  refit();
  rebuild();
}

void TimingChart::refit() {
  if (m_raw.bars.empty()) return;
  m_data = leadWithKernel(m_raw, m_kernelFirst);
  if (m_gpuFit && !m_log) m_data = fitToGpuBars(std::move(m_data));
}

void TimingChart::projectAs(const ViewStyle* style) { setViewStyle(nextProjectedStyle(style, m_style, m_ownStyle)); }

bool TimingChart::logAxis() const { return m_log || (m_kernelFirst && kernelsHidden(m_data)); }

void TimingChart::setViewStyle(const ViewStyle& s) {
  m_style = s;
  rebuild();
}

QString TimingChart::exportTitle() const { return m_title->text(); }
void TimingChart::render(QCPPainter& painter, const QSize& size) {
  m_plot->toPainter(&painter, size.width(), size.height());
}

void TimingChart::rebuild() {
  m_plot->clearPlottables();
  clearItemsKeepingReadout(*m_plot);
  applyPlotStyle(*m_plot, m_style);
  styleTitle(*m_title, m_style);
  const QString empty = m_stale.isEmpty() ? QString("Timing: run a workload to compare implementations") : m_stale;
  m_title->setText(m_data.bars.empty()
                       ? empty
                       : "Time per run, median of repetitions (" + QString::fromStdString(m_workloadTitle) + ")");
  // Microseconds when every median is under a millisecond: "0.0005 ms" ticks read badly.
  const double unit = m_data.maxMedianMs > 0 && m_data.maxMedianMs < 1 ? 1000.0 : 1.0;
  const TimingAxis axis = setupAxes(unit);
  addPhaseBars(axis, unit);
  addWhiskers(unit, axis);
  for (int i = int(m_data.bars.size()) - 1; i >= 0; --i) addBarLabel(i, axis.lo, unit, axis);
  m_plot->legend->setFont(m_style.font(0.9));
  // Nothing to compare yet (before the first run, or while live mode runs): the title alone, no empty axes whose
  // ticks read "2.5E-07", no empty legend frame.
  const bool any = !m_data.bars.empty();
  m_plot->xAxis->setVisible(any);
  m_plot->yAxis->setVisible(any);
  m_plot->legend->setVisible(any && m_plot->legend->itemCount() > 0);
  replotWhenVisible(*m_plot);
}

/// One row per implementation (the first at the top) on the key axis, time on the value axis; returns the
/// axis (scaled to the medians).
TimingAxis TimingChart::setupAxes(double unit) {
  QCPAxis* key = m_plot->yAxis;
  QCPAxis* val = m_plot->xAxis;
  const bool log = logAxis();
  setAxisLog(*val, log);
  const QString unitName = unit > 1 ? QString("microseconds") : QString("milliseconds");
  const QString scale = log ? (m_log ? " (log scale)" : " (log scale: kernels beside their copies)") : QString();
  val->setLabel(m_data.gpuFit && !log
                    ? unitName + ", fitted to the GPU bars (\xE2\x96\xB6 runs past the end); whiskers: min to max"
                    : unitName + scale + "; whiskers: min to max over repetitions");
  const int n = int(m_data.bars.size());
  auto ticker = QSharedPointer<QCPAxisTickerText>(new QCPAxisTickerText);
  for (int i = 0; i < n; ++i) {
    const auto& b = m_data.bars[std::size_t(i)];
    // A projector is wide and short: one line per row keeps the rows' font large (fitHeight shrinks it otherwise).
    ticker->addTick(n - 1 - i, wrapLabel(b.title + (b.demonstration ? " (demo)" : ""), m_style.presentation ? 48 : 34));
  }
  key->setTicker(ticker);
  key->setTickLabelFont(m_style.font(m_style.presentation ? 0.85 : 1.0));
  key->setLabel({});
  key->grid()->setVisible(false);
  fitHeight(*ticker);

  const TimingAxis axis = timingAxis(m_data, log, unit, labelFraction(*ticker));
  val->setRange(axis.lo, axis.hi);
  key->setRange(-0.6, std::max(0, n - 1) + 0.6);
  return axis;
}

/// A bar series per phase shown, stacked in phase order, then the overlapped pipelines' (hatched). On an axis fitted
/// to the GPU bars, a longer bar is drawn to the clip edge (its whisker's arrow and label say it goes on).
void TimingChart::addPhaseBars(const TimingAxis& axis, double unit) {
  const int n = int(m_data.bars.size());
  std::vector<double> stacked(std::size_t(n), 0.0);  // drawn so far per bar, in display units
  QCPBars* below = nullptr;
  const auto addSeries = [&](const QString& name, const QBrush& brush, auto&& wanted) {
    auto* bars = new QCPBars(m_plot->yAxis, m_plot->xAxis);
    bars->setName(name);
    bars->setWidth(0.62);
    bars->setBaseValue(axis.lo);
    bars->setStackingGap(0);
    bars->setPen(QPen(toQColor(m_style.palette->background), m_style.presentation ? 1.5 : 0.8));
    bars->setBrush(brush);
    QVector<double> k, v;
    for (int i = 0; i < n; ++i)
      for (const auto& seg : m_data.bars[std::size_t(i)].segments)
        if (wanted(seg)) {
          double& done = stacked[std::size_t(i)];
          const double drawn = m_data.gpuFit ? std::clamp(axis.clipMs - done, 0.0, seg.ms * unit) : seg.ms * unit;
          done += drawn;
          k << double(n - 1 - i);
          v << drawn;
        }
    bars->setData(k, v);
    if (below) bars->moveAbove(below);
    below = bars;
    return bars;
  };
  for (Phase p : m_data.phasesShown)
    addSeries(phaseLabel(p), m_style.phaseColor(int(p)),
              [p](const TimingSegment& seg) { return seg.phase == p && !seg.overlapped; });
  if (m_data.overlappedShown) {
    // Hatched in the kernel's colour, outlined: copies and kernels at once, neither one alone.
    QBrush hatch(m_style.phaseColor(int(Phase::Kernel)), Qt::BDiagPattern);
    auto* bars = addSeries(kOverlappedLabel, hatch, [](const TimingSegment& seg) { return seg.overlapped; });
    bars->setPen(QPen(m_style.phaseColor(int(Phase::Kernel)), m_style.presentation ? 2.0 : 1.2));
  }
}

/// Whiskers: an invisible graph at the totals carries min-max error bars along the time axis; a whisker
/// longer than the axis' clip edge ends there with an arrow.
void TimingChart::addWhiskers(double unit, const TimingAxis& axis) {
  QCPAxis* key = m_plot->yAxis;
  QCPAxis* val = m_plot->xAxis;
  auto* totals = m_plot->addGraph(key, val);
  totals->setLineStyle(QCPGraph::lsNone);
  totals->removeFromLegend();
  auto* whiskers = new QCPErrorBars(key, val);
  whiskers->removeFromLegend();
  whiskers->setErrorType(QCPErrorBars::etValueError);
  whiskers->setPen(QPen(toQColor(m_style.palette->foreground), m_style.presentation ? 2.5 : 1.2));
  whiskers->setWhiskerWidth(m_style.presentation ? 14 : 8);
  // Keys ascending (the last bar at key 0): a graph sorts its data by key, and the error bars follow that order.
  const int n = int(m_data.bars.size());
  QVector<double> tk, tv, em, ep;
  for (int i = n - 1; i >= 0; --i) {
    const auto& b = m_data.bars[std::size_t(i)];
    if (b.status != Status::Ok || b.totalMs <= 0) continue;
    if (b.totalMs * unit > axis.clipMs) {  // a bar past the axis fitted to the GPU bars: its arrow, no whisker
      markClipped(axis.clipMs, double(n - 1 - i));
      continue;
    }
    const auto [end, clipped] = drawnWhiskerEnd(b, axis, unit);
    tk << double(n - 1 - i);
    tv << b.totalMs * unit;
    em << (b.totalMs - b.minMs) * unit;
    ep << end - b.totalMs * unit;
    if (clipped) markClipped(end, double(n - 1 - i));
  }
  totals->setData(tk, tv);
  whiskers->setDataPlottable(totals);
  whiskers->setData(em, ep);
}

/// A clipped whisker's end: an arrow pointing off the axis.
void TimingChart::markClipped(double x, double key) {
  auto* t = new QCPItemText(m_plot);
  t->setObjectName("clipped");
  t->position->setAxes(m_plot->xAxis, m_plot->yAxis);
  t->position->setCoords(x, key);
  t->setPositionAlignment(Qt::AlignHCenter | Qt::AlignVCenter);
  t->setText("\xE2\x96\xB6");  // a right-pointing triangle: the whisker goes on
  t->setFont(m_style.font(0.9));
  t->setColor(toQColor(m_style.palette->foreground));
}

/// The text right of bar i's whisker: its speedup, or why it is missing (the first clause: the table and the log
/// have the whole reason).
QString TimingChart::barLabelText(int i) const {
  const auto& b = m_data.bars[std::size_t(i)];
  QString label = QString::fromStdString(b.label);
  if (b.status != Status::Ok) {
    const int paren = label.indexOf(" (");
    if (paren > 0) label = label.left(paren);
  }
  if (label.size() > 60) label = label.left(58) + "\xE2\x80\xA6";
  return label;
}

QFont TimingChart::barLabelFont(int i) const {
  const auto& b = m_data.bars[std::size_t(i)];
  const bool result = b.status == Status::Ok && !b.noisy;
  return m_style.font(result ? 1.0 : 0.9, result && b.implId != kCpuSerial);
}

/// The share of the time axis' width that the right-hand labels need (measured in pixels, at most 60%).
double TimingChart::labelFraction(QCPAxisTickerText& keyTicks) const {
  int keyPx = 0, labelPx = 0;
  const QFontMetrics keyFm(m_plot->yAxis->tickLabelFont());
  for (const QString& t : keyTicks.ticks())
    for (const QString& line : t.split('\n')) keyPx = std::max(keyPx, keyFm.horizontalAdvance(line));
  for (int i = 0; i < int(m_data.bars.size()); ++i)
    labelPx = std::max(labelPx, QFontMetrics(barLabelFont(i)).horizontalAdvance(barLabelText(i)) + 24);
  const int axisPx = m_plot->width() - keyPx - 64;  // tick padding and the axis rect's margins
  return axisPx > 0 ? std::clamp(double(labelPx) / axisPx, 0.1, 0.6) : 0.6;
}

/// Tall enough for every row's label without overlap: the chart asks for that height as its minimum. In a window,
/// at most a third of the window's height goes to it (two fifths in presentation mode) (the plots above keep theirs):
/// when many rows would need more, the row labels get a smaller font (down to 70%, or the presentation style's minimum)
/// instead.
void TimingChart::fitHeight(QCPAxisTickerText& keyTicks) {
  int lines = 1;
  for (const QString& t : keyTicks.ticks()) lines = std::max(lines, int(t.count('\n')) + 1);
  const int rows = std::max(1, int(m_data.bars.size()));
  const int chromePx = 4 * QFontMetrics(m_style.font(1.1)).lineSpacing() + 16;  // title, ticks, axis label, legend
  const QWidget* top = m_plot->window();
  // A third of the window at a desk (the output plot above is the picture); two fifths on a projector's desk view.
  int budget = top && top != m_plot ? top->height() * (m_style.presentation ? 2.0 / 5 : 1.0 / 3) - 40 : 0;
  if (m_style.presentation) budget = std::max(budget, m_plot->height());  // on the stage it has the window
  m_plot->yAxis->setTickLabelFont(m_style.font());  // measured from the style's size, not an earlier shrink
  auto rowPx = [&] { return QFontMetrics(m_plot->yAxis->tickLabelFont()).lineSpacing() * lines + 6; };
  if (budget > 180 && rows * rowPx() + chromePx > budget) {
    QFont f = m_plot->yAxis->tickLabelFont();
    const double least = m_style.presentation ? m_style.minimumPointSize() / m_style.fontPointSize : 0.7;
    const double scale = std::clamp(double(budget - chromePx) / (rows * rowPx()), least, 1.0);
    f.setPointSizeF(f.pointSizeF() * scale);
    m_plot->yAxis->setTickLabelFont(f);
  }
  m_plot->setMinimumHeight(std::max(180, rows * rowPx() + chromePx));
}

/// The speedup (or the reason a bar is missing) right of bar i's whisker.
void TimingChart::addBarLabel(int i, double base, double unit, const TimingAxis& axis) {
  const auto& b = m_data.bars[std::size_t(i)];
  const bool measured = b.status == Status::Ok && b.totalMs > 0;
  const double x = measured ? drawnWhiskerEnd(b, axis, unit).first : base;
  auto* t = new QCPItemText(m_plot);
  t->position->setAxes(m_plot->xAxis, m_plot->yAxis);
  t->position->setCoords(x, int(m_data.bars.size()) - 1 - i);
  t->setPositionAlignment(Qt::AlignLeft | Qt::AlignVCenter);
  t->setPadding(QMargins(8, 0, 0, 0));
  t->setText(barLabelText(i));
  t->setFont(barLabelFont(i));
  const bool result = b.status == Status::Ok && !b.noisy;
  t->setColor(result ? toQColor(m_style.palette->foreground) : b.noisy ? QColor(160, 90, 0) : QColor(120, 120, 120));
  t->setClipToAxisRect(true);
}

}  // namespace launchlab::ui
