// Timeline: a Gantt chart of measured copies and kernels (4 x K: stream, engine, start ms, end ms per column), one
// row per stream, a bar per operation coloured by engine (the timing chart's H2D / kernel / D2H colours), and under
// the title the achieved overlap (busiest engine's busy time / wall time) and the CPU's poll count.
#include <QLocale>
#include <algorithm>
#include <cmath>

#include "launchlab/explorer/timeline.h"
#include "plots/qcp_view_base.h"

namespace launchlab::ui {

namespace {

constexpr double kBarHalfHeight = 0.32;

QString ms(double v) { return QString::number(v, 'f', v < 1 ? 3 : 2) + " ms"; }
QString engineText(TimelineEngine e) {
  const std::string_view n = timelineEngineName(e);
  return QString::fromUtf8(n.data(), qsizetype(n.size()));
}

/// "overlap 94 % = busiest engine (H2D copy) 1.42 ms / wall 1.51 ms  ·  12,345 CPU polls while waiting".
QString overlapLine(const OverlapStats& o, const ImplResult* impl) {
  QString t = QString("overlap %1 % = busiest engine (%2) %3 / wall %4")
                  .arg(std::lround(100 * o.overlapFraction))
                  .arg(engineText(o.busiest))
                  .arg(ms(o.busiestMs), ms(o.wallMs));
  if (impl)
    if (auto it = impl->metrics.find("poll_count"); it != impl->metrics.end())
      t += QString("  \xC2\xB7  %1 CPU polls while waiting").arg(countText(std::uint64_t(std::llround(it->second))));
  return t;
}

class TimelineView final : public QcpViewBase {
 public:
  explicit TimelineView(QWidget* parent) : QcpViewBase(parent) {
    // Empty bars: legend entries in the engines' colours (the spans themselves are rectangles).
    for (std::size_t e = 0; e < kTimelineEngines; ++e) {
      m_legend[e] = new QCPBars(m_plot->xAxis, m_plot->yAxis);
      m_legend[e]->setName(engineText(TimelineEngine(int(e))));
    }
    // The overlap and the poll count in a row of their own under the title.
    m_plot->plotLayout()->insertRow(1);
    m_subtitle = new QCPTextElement(m_plot, "", QFont());
    m_plot->plotLayout()->addElement(1, 0, m_subtitle);
    m_streamTicks = QSharedPointer<QCPAxisTickerText>::create();  // stream numbers only, none before data
    m_plot->yAxis->setTicker(m_streamTicks);
    m_plot->yAxis->setRangeReversed(true);  // stream 0 on top
    m_plot->yAxis->grid()->setVisible(false);
    m_plot->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    m_plot->axisRect()->setRangeDrag(Qt::Horizontal);
    m_plot->axisRect()->setRangeZoom(Qt::Horizontal);
    restyle();
  }
  void setData(const ViewData& d) override {
    begin(d);
    const HostArray* a = d.array(d.source);
    if (!a) return showNoData();
    m_spans = timelineSpans(*a);
    if (m_spans.empty()) {
      const ImplResult* impl = d.impl(d.source);
      return showMessage(impl && !impl->gpu ? "Timeline: CUDA implementations only\n(the CPU has no copies or streams)"
                                            : "Timeline: no operations recorded");
    }
    m_stats = overlapStats(m_spans);
    drawBars();
    labelStreams();
    m_subtitle->setText(overlapLine(m_stats, d.impl(d.source)));
    m_drawn = int(m_spans.size());
    m_summary = QString("%1 operations on %2 stream%3; busy: H2D %4, kernel %5, D2H %6")
                    .arg(countText(m_spans.size()))
                    .arg(m_stats.streams)
                    .arg(m_stats.streams == 1 ? "" : "s")
                    .arg(ms(m_stats.busyMs[0]), ms(m_stats.busyMs[1]), ms(m_stats.busyMs[2]));
    resetZoom();
  }
  void resetZoom() override {
    double first = 0, last = 1;
    if (!m_spans.empty()) {
      first = std::min(0.0, m_spans.front().startMs);
      last = first;
      for (const auto& s : m_spans) last = std::max(last, s.endMs);
    }
    const double pad = 0.02 * std::max(last - first, 1e-6);
    m_plot->xAxis->setRange(first - pad, last + pad);
    m_plot->yAxis->setRange(-0.6, std::max(1, m_stats.streams) - 0.4);
    replotWhenVisible(*m_plot);
  }
  void setLogY(bool) override { resetZoom(); }  // rows are streams: never logarithmic

 private:
  void drawBars() {
    clearBars();
    for (const auto& s : m_spans) {
      auto* r = new QCPItemRect(m_plot);
      r->topLeft->setCoords(s.startMs, s.stream - kBarHalfHeight);
      r->bottomRight->setCoords(s.endMs, s.stream + kBarHalfHeight);
      r->setPen(Qt::NoPen);
      r->setBrush(m_style.phaseColor(int(s.engine)));
      r->setSelectable(false);
      m_bars.push_back(r);
    }
  }
  void labelStreams() {
    m_streamTicks->clear();
    for (int s = 0; s < m_stats.streams; ++s) m_streamTicks->addTick(s, QString::number(s));
  }
  void clearBars() {
    for (auto* r : m_bars) m_plot->removeItem(r);
    m_bars.clear();
  }
  void clearData() override {
    clearBars();
    m_streamTicks->clear();
    m_subtitle->setText({});
    m_spans.clear();
    m_stats = {};
    m_drawn = 0;
  }
  void restyle() override {
    m_subtitle->setFont(m_style.font());
    m_subtitle->setTextColor(toQColor(m_style.palette->foreground));
    for (std::size_t e = 0; e < kTimelineEngines; ++e) {
      m_legend[e]->setBrush(m_style.phaseColor(int(e)));
      m_legend[e]->setPen(Qt::NoPen);
    }
    for (std::size_t k = 0; k < m_bars.size() && k < m_spans.size(); ++k)
      m_bars[k]->setBrush(m_style.phaseColor(int(m_spans[k].engine)));
  }
  /// The operation under the mouse: its stream, engine, start, end and length.
  QString readout(double x, double y) const override {
    const int row = int(std::lround(y));
    for (const auto& s : m_spans)
      if (s.stream == row && std::fabs(y - row) <= kBarHalfHeight && x >= s.startMs && x <= s.endMs)
        return QString("stream %1, %2: %3 to %4 (%5)")
            .arg(s.stream)
            .arg(engineText(s.engine))
            .arg(ms(s.startMs), ms(s.endMs), ms(s.endMs - s.startMs));
    return QString("%1 after the start event").arg(ms(x));
  }

  std::vector<TimelineSpan> m_spans;
  OverlapStats m_stats;
  std::vector<QCPItemRect*> m_bars;
  QCPTextElement* m_subtitle = nullptr;
  QSharedPointer<QCPAxisTickerText> m_streamTicks;
  QCPBars* m_legend[kTimelineEngines] = {};
};

}  // namespace

std::unique_ptr<OutputView> makeTimelineView(QWidget* parent) { return std::make_unique<TimelineView>(parent); }

}  // namespace launchlab::ui
