// Blocks on SMs: a Gantt chart of a traced launch (ImplResult::blockTrace, launchlab/block_trace.h), one lane per SM
// of the device (SM 0 on top), one bar per block from its start to its end in microseconds, coloured by wave (its
// rank among its SM's blocks / resident blocks per SM), and under the title the summary: blocks per SM, waves
// observed against the occupancy's prediction, the tail.
#include <algorithm>
#include <cmath>

#include "launchlab/block_trace.h"
#include "qcp_view_base.h"

namespace launchlab::ui {

namespace {

constexpr int kWaveColours = 6;    // waves beyond cycle through the same colours
constexpr double kLaneFill = 0.7;  // a bar's height as a share of its lane

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
    // Bars are lines as thick as a lane: their width follows the plot's height (set once the layout is known).
    QObject::connect(m_plot, &QCustomPlot::afterLayout, m_plot, [this] { sizeBars(); });
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
    drawBars();
    labelLanes();
    const auto lines = blockTraceSummaryLines(s);
    QStringList text;
    for (const auto& l : lines) text << QString::fromStdString(l);
    m_subtitle->setText(text.join('\n'));
    m_drawn = int(m_blocks.size());
    m_summary = QString::fromStdString(lines.front());
    resetZoom();
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
  /// One curve per wave colour; each block a two-point segment, NaN between blocks.
  void drawBars() {
    std::vector<QVector<double>> xs(kWaveColours), ys(kWaveColours);
    int maxWave = 0;
    for (std::size_t k = 0; k < m_blocks.size(); ++k) {
      const int c = m_waveOf[k] % kWaveColours;
      const double y = m_blocks[k].sm;
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
  void labelLanes() {
    m_smTicks->clear();
    const int step = std::max(1, (m_lanes + 15) / 16);
    for (int sm = 0; sm < m_lanes; sm += step) m_smTicks->addTick(sm, QString::number(sm));
  }
  void sizeBars() {
    const double lanePx = m_plot->axisRect()->height() / std::max(1.0, m_plot->yAxis->range().size());
    for (int c = 0; c < kWaveColours; ++c) {
      QPen pen(m_style.seriesColor(c), std::max(1.0, kLaneFill * lanePx));
      pen.setCapStyle(Qt::FlatCap);
      m_waves[c]->setPen(pen);
    }
  }
  void clearData() override {
    for (auto* w : m_waves) {
      w->data()->clear();
      showInLegend(w, false);
    }
    m_smTicks->clear();
    m_subtitle->setText({});
    m_blocks.clear();
    m_waveOf.clear();
    m_lanes = 0;
    m_drawn = 0;
  }
  void restyle() override {
    m_subtitle->setFont(m_style.font());
    m_subtitle->setTextColor(toQColor(m_style.palette->foreground));
    sizeBars();
  }
  /// The block under the mouse: its index, SM, start, end, length and wave.
  QString readout(double x, double y) const override {
    const int lane = int(std::lround(y));
    for (std::size_t k = 0; k < m_blocks.size(); ++k) {
      const auto& b = m_blocks[k];
      if (int(b.sm) == lane && x >= double(b.startNs) / 1000 && x <= double(b.endNs) / 1000)
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
  int m_lanes = 0;
  QCPCurve* m_waves[kWaveColours] = {};
  QCPTextElement* m_subtitle = nullptr;
  QSharedPointer<QCPAxisTickerText> m_smTicks;
};

}  // namespace

std::unique_ptr<OutputView> makeBlocksOnSmsView(QWidget* parent) { return std::make_unique<BlocksOnSmsView>(parent); }

}  // namespace launchlab::ui
