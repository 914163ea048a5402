// Blocks on SMs: a Gantt chart of a traced launch (ImplResult::blockTrace, launchlab/explorer/block_trace.h), one lane
// per SM of the device (SM 0 on top), one bar per block from its start to its end in microseconds, coloured by wave
// (its rank among its SM's blocks / resident blocks per SM), and under the title one line with the lesson's numbers
// (waves, tail, imbalance). Where the lanes do not fit (132 SMs at 720p), neighbouring SMs share a lane (an SM
// group), down to one SM per lane when zoomed in; the start of each wave and the tail are marked.
#include <algorithm>
#include <cmath>

#include "launchlab/explorer/block_trace.h"
#include "models/chart_data.h"
#include "plots/qcp_view_base.h"

namespace launchlab::ui {

namespace {

constexpr int kWaveColours = 6;    // waves beyond cycle through the same colours
constexpr double kLaneFill = 0.7;  // a bar's height as a share of its lane
constexpr double kMinLanePx = 9;   // thinner lanes read as noise from the back of a room: SMs share one instead

QString us(double ns) { return QString::number(ns / 1000, 'f', ns < 10'000 ? 2 : 1) + " \xC2\xB5s"; }

class BlocksOnSmsView final : public QcpViewBase {
 public:
  explicit BlocksOnSmsView(QWidget* parent) : QcpViewBase(parent) {
    m_plot->plotLayout()->insertRow(1);
    m_subtitle = new QCPTextElement(m_plot, "", QFont());
    m_plot->plotLayout()->addElement(1, 0, m_subtitle);
    for (int c = 0; c < kWaveColours; ++c) {
      m_waves[c] = new QCPCurve(m_plot->xAxis, m_plot->yAxis);
      m_waves[c]->setLineStyle(QCPCurve::lsLine);
    }
    m_smTicks = QSharedPointer<QCPAxisTickerText>::create();
    m_plot->yAxis->setTicker(m_smTicks);
    m_plot->yAxis->setRangeReversed(true);  // SM 0 on top
    m_plot->yAxis->grid()->setVisible(false);
    m_plot->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    // Bars are lines as thick as a lane: their width follows the plot's height (set once the layout is known), and
    // so does how many SMs share a lane.
    QObject::connect(m_plot, &QCustomPlot::afterLayout, m_plot, [this] { fitLanes(); });
    QObject::connect(m_plot->yAxis, qOverload<const QCPRange&>(&QCPAxis::rangeChanged), m_plot, [this] { fitLanes(); });
    restyle();
  }
  void setData(const ViewData& d) override {
    begin(d);
    m_plot->xAxis->setLabel("time after the first block's start (\xC2\xB5s)");
    m_plot->yAxis->setLabel("SM");
    const ImplResult* impl = d.impl(d.source);
    if (!impl) return showNoData();
    if (impl->blockTrace.empty())
      return showMessage(impl->gpu ? "Blocks on SMs: this run of " + d.sourceTitle(d.source) +
                                         " was not traced\n(tick \"Trace blocks on SMs\"; instrumented: vector_add, "
                                         "histogram, reduce_sum, monte_carlo_pi)"
                                   : "Blocks on SMs: CUDA implementations only");
    m_blocks = impl->blockTrace;
    const BlockTraceSummary s = summarizeBlockTrace(*impl, d.outcome->result.device);
    m_waveOf = blockWaves(m_blocks, s.residentPerSm);
    // One lane per SM, never more than a trace may name (results are checked when read; this view takes any).
    std::uint32_t lanes = std::uint32_t(std::max(0, s.smCount));
    for (const auto& b : m_blocks) lanes = std::max(lanes, std::min(b.sm, kMaxTracedSms - 1) + 1);
    m_lanes = int(std::min(lanes, kMaxTracedSms));
    m_group = 0;  // fitLanes picks it for the plot's height
    m_yRange = {};
    m_summaryData = s;
    m_subtitle->setText(QString::fromStdString(blockTraceCaption(s)));
    m_drawn = int(m_blocks.size());
    m_summary = QString::fromStdString(blockTraceSummaryLines(s).front());
    resetZoom();
    fitLanes();
    markWavesAndTail();
  }
  void resetZoom() override {
    double last = 1;
    for (const auto& b : m_blocks) last = std::max(last, double(b.endNs) / 1000);
    m_plot->xAxis->setRange(-0.02 * last, 1.02 * last);
    m_plot->yAxis->setRange(-0.6, std::max(1, m_lanes) - 0.4);
    replotWhenVisible(*m_plot);
  }
  void setLogY(bool) override { resetZoom(); }  // lanes are SMs: never logarithmic

 private:
  /// The lane of SM `sm`: the centre of its group of m_group SMs.
  double laneOf(std::uint32_t sm) const {
    const int g = std::max(1, m_group);
    return double(int(sm) / g * g) + (g - 1) / 2.0;
  }
  /// Pixels per SM on the y axis as laid out (0 before the first layout).
  double pxPerSm() const { return m_plot->axisRect()->height() / std::max(1.0, m_plot->yAxis->range().size()); }
  /// SMs per lane so that a lane is at least kMinLanePx tall (one when zoomed in enough); on a change the bars
  /// and labels are redrawn.
  void fitLanes() {
    const double px = pxPerSm();
    const int g = px > 0 ? std::clamp(int(std::ceil(kMinLanePx / px)), 1, std::max(1, m_lanes)) : 1;
    const QCPRange y = m_plot->yAxis->range();
    if (g != m_group) {
      m_group = g;
      drawBars();
    }
    if (g != m_labelledGroup || std::abs(y.size() - m_yRange.size()) > 1e-9 || px != m_labelledPx) {
      m_yRange = y;
      m_labelledGroup = g;
      m_labelledPx = px;
      labelLanes(px);
    }
    sizeBars();
  }
  /// One curve per wave colour; each block a two-point segment, NaN between blocks.
  void drawBars() {
    std::vector<QVector<double>> xs(kWaveColours), ys(kWaveColours);
    int maxWave = 0;
    for (std::size_t k = 0; k < m_blocks.size(); ++k) {
      const int c = m_waveOf[k] % kWaveColours;
      const double y = laneOf(m_blocks[k].sm);
      xs[c] << double(m_blocks[k].startNs) / 1000 << double(m_blocks[k].endNs) / 1000 << qQNaN();
      ys[c] << y << y << qQNaN();
      maxWave = std::max(maxWave, m_waveOf[k]);
    }
    for (int c = 0; c < kWaveColours; ++c) {
      m_waves[c]->setData(xs[std::size_t(c)], ys[std::size_t(c)]);
      m_waves[c]->setName(maxWave < kWaveColours
                              ? QString("wave %1").arg(c + 1)
                              : QString("waves %1, %2, \xE2\x80\xA6").arg(c + 1).arg(c + 1 + kWaveColours));
      showInLegend(m_waves[c], c <= maxWave);
    }
  }
  /// A label per lane ("8" or "8-11" for a group) where they fit, else every k-th lane: labels never overlap.
  void labelLanes(double px) {
    m_smTicks->clear();
    const int g = std::max(1, m_group);
    const double lanePx = px * g, textPx = QFontMetrics(m_style.font()).height() * 1.5;
    const int groups = (m_lanes + g - 1) / g;
    // Before the first layout the height is unknown: at most 16 labels.
    const int every = lanePx > 0 ? std::max(1, int(std::ceil(textPx / lanePx))) : std::max(1, (groups + 15) / 16);
    for (int k = 0; k < groups; k += every) {
      const int first = k * g, last = std::min(m_lanes, first + g) - 1;
      m_smTicks->addTick(laneOf(std::uint32_t(first)),
                         first == last ? QString::number(first) : QString("%1\u2013%2").arg(first).arg(last));
    }
    m_plot->yAxis->setLabel(g > 1 ? QString("SM (groups of %1; zoom in for each SM)").arg(g) : QString("SM"));
  }
  /// Dashed lines where each wave after the first begins (its earliest start), and the tail shaded: from the moment
  /// the first SM ran out of blocks to the last end, the time some SMs sat idle.
  void markWavesAndTail() {
    for (auto* item : m_marks) m_plot->removeItem(item);
    m_marks.clear();
    std::vector<double> waveStart;
    for (std::size_t k = 0; k < m_blocks.size(); ++k) {
      const auto w = std::size_t(m_waveOf[k]);
      if (waveStart.size() <= w) waveStart.resize(w + 1, INFINITY);
      waveStart[w] = std::min(waveStart[w], double(m_blocks[k].startNs) / 1000);
    }
    for (std::size_t w = 1; w < waveStart.size(); ++w) {
      if (!std::isfinite(waveStart[w])) continue;
      auto* line = new QCPItemStraightLine(m_plot);
      line->point1->setCoords(waveStart[w], 0);
      line->point2->setCoords(waveStart[w], 1);
      line->setPen(QPen(toQColor(m_style.palette->foreground), m_style.lineWidth, Qt::DashLine));
      m_marks.push_back(line);
    }
    const BlockTraceSummary& s = m_summaryData;
    if (s.tailNs <= 0 || s.spanNs <= 0) return;
    auto* tail = new QCPItemRect(m_plot);
    tail->topLeft->setTypeY(QCPItemPosition::ptAxisRectRatio);
    tail->bottomRight->setTypeY(QCPItemPosition::ptAxisRectRatio);
    tail->topLeft->setCoords((s.spanNs - s.tailNs) / 1000, 0);
    tail->bottomRight->setCoords(s.spanNs / 1000, 1);
    QColor amber = m_style.lessonColor();
    amber.setAlpha(60);
    tail->setBrush(amber);
    tail->setPen(Qt::NoPen);
    tail->setLayer("background");
    m_marks.push_back(tail);
  }
  void sizeBars() {
    const double lanePx = pxPerSm() * std::max(1, m_group);
    for (int c = 0; c < kWaveColours; ++c) {
      QPen pen(m_style.seriesColor(c), std::max(1.0, kLaneFill * lanePx));
      pen.setCapStyle(Qt::FlatCap);
      m_waves[c]->setPen(pen);
    }
  }
  void clearData() override {
    for (auto* w : m_waves) {
      w->data()->clear();
      // The first wave stays listed (the legend is hidden with a message): an empty legend would shrink the
      // layout's column, and the message with it, to nothing.
      showInLegend(w, w == m_waves[0]);
    }
    m_smTicks->clear();
    m_subtitle->setText({});
    for (auto* item : m_marks) m_plot->removeItem(item);
    m_marks.clear();
    m_blocks.clear();
    m_waveOf.clear();
    m_lanes = 0;
    m_drawn = 0;
  }
  void restyle() override {
    m_subtitle->setFont(m_style.font());
    m_subtitle->setTextColor(toQColor(m_style.palette->foreground));
    m_labelledGroup = -1;  // the labels' font changed: fitLanes places them again
    if (m_plot->axisRect()) fitLanes();
  }
  /// The block under the mouse: its index, SM, start, end, length and wave.
  QString readout(double x, double y) const override {
    const int g = std::max(1, m_group);
    const int lane = int(std::lround(y - (g - 1) / 2.0)) / g * g;  // the lane's first SM
    for (std::size_t k = 0; k < m_blocks.size(); ++k) {
      const auto& b = m_blocks[k];
      if (int(b.sm) / g * g == lane && x >= double(b.startNs) / 1000 && x <= double(b.endNs) / 1000)
        return QString("block %1 on SM %2: %3 to %4 (%5), wave %6")
            .arg(b.block)
            .arg(b.sm)
            .arg(us(double(b.startNs)), us(double(b.endNs)), us(double(b.endNs - b.startNs)))
            .arg(m_waveOf[k] + 1);
    }
    return QString("SM %1, %2").arg(lane).arg(us(x * 1000));
  }

  std::vector<BlockRecord> m_blocks;
  std::vector<int> m_waveOf;
  BlockTraceSummary m_summaryData;
  std::vector<QCPAbstractItem*> m_marks;  ///< wave starts and the tail
  int m_lanes = 0;
  int m_group = 1;  ///< SMs per lane
  int m_labelledGroup = -1;
  double m_labelledPx = -1;
  QCPRange m_yRange;
  QCPCurve* m_waves[kWaveColours] = {};
  QCPTextElement* m_subtitle = nullptr;
  QSharedPointer<QCPAxisTickerText> m_smTicks;
};

}  // namespace

std::unique_ptr<OutputView> makeBlocksOnSmsView(QWidget* parent) { return std::make_unique<BlocksOnSmsView>(parent); }

}  // namespace launchlab::ui
