// Waveform: y against index, min/max decimated per pixel column at every zoom.
#include <algorithm>
#include <cmath>

#include "plots/qcp_view_base.h"

namespace launchlab::ui {

namespace {

/// y against index, min/max decimated per pixel column at every zoom; x zoom and pan, y follows the data.
class WaveformView final : public QcpViewBase {
 public:
  explicit WaveformView(QWidget* parent) : QcpViewBase(parent) {
    m_ref = addSegmentGraph(m_plot);
    m_main = addSegmentGraph(m_plot);
    m_bad = m_plot->addGraph();
    // The envelope already has one column per pixel: QCustomPlot's own resampling would only undo it.
    m_ref->setAdaptiveSampling(false);
    m_main->setAdaptiveSampling(false);
    // Dense columns are vertical strokes that need no antialiasing, and aliased strokes rasterize several
    // times faster (a 2^24-element waveform replots in a few milliseconds instead of tens).
    m_ref->setAntialiased(false);
    m_main->setAntialiased(false);
    m_plot->axisRect()->setRangeDrag(Qt::Horizontal);
    m_plot->axisRect()->setRangeZoom(Qt::Horizontal);
    QObject::connect(m_plot->xAxis, qOverload<const QCPRange&>(&QCPAxis::rangeChanged), m_plot,
                     [this](const QCPRange& r) { onRange(r); });
    restyle();
    enableGl([this](QSize px) { return glRequest(px); });
  }
  void setData(const ViewData& d) override {
    begin(d);
    m_mainArr = d.array(d.source);
    m_mainPrep = d.prepared(d.source);
    m_refArr = showReference() ? d.array(d.reference) : nullptr;
    m_refPrep = showReference() ? d.prepared(d.reference) : nullptr;
    if (!m_mainArr) return showNoData();
    glDataChanged();
    m_n = m_mainArr->size();
    m_main->setName(d.sourceTitle(d.source));
    m_ref->setVisible(m_refArr != nullptr);
    labelReference(m_ref, m_refArr != nullptr);
    QVector<double> bx, by;
    for (auto i : mismatches()) {
      if (i >= m_n) continue;
      double y = m_mainArr->at(i);
      if (!std::isfinite(y) && m_refArr) y = m_refArr->at(i);
      bx << double(i);
      by << y;
    }
    m_bad->setData(bx, by, true);
    m_bad->setVisible(!bx.isEmpty());
    labelMismatches(m_bad, !bx.isEmpty());
    // A band of random values says nothing: start on the first elements, inputs beside the output.
    m_window = d.source != "input" && noisy() ? kFirstWindow : 0;
    setInputs(d);
    resetZoom();
  }
  void resetZoom() override {
    if (!m_mainArr) return;
    if (m_window)
      m_plot->xAxis->setRange(-0.5, double(std::min(m_window, m_n)) - 0.5);
    else
      showAll();
    refresh();
  }
  void showAll() override {
    if (m_mainArr) m_plot->xAxis->setRange(0, std::max<double>(1, double(m_n) - 1));
  }

 private:
  void setOwnSeriesVisible(bool on) override { m_main->setVisible(on); }
  /// The shown source's M4 line over the visible elements, one column per framebuffer pixel.
  std::optional<GlFrameRequest> glRequest(QSize px) const {
    if (!m_mainArr || m_message->visible()) return std::nullopt;
    const QCPRange x = m_plot->xAxis->range();
    const auto [b, e] = visibleIndices(x.lower, x.upper, m_n);
    if (e <= b) return std::nullopt;
    GlFrameRequest q = glRequestOf(GlDraw::Waveform, m_mainArr, px);
    q.begin = b;
    q.end = e;
    q.columns = std::uint32_t(px.width());
    q.color = mainPen().color();
    // Thin lines are 1-pixel cosmetic ones on screen (SegmentGraph), at any scale.
    q.lineWidth = m_style.lineWidth <= 1.5 ? 1.0f : float(m_style.lineWidth * glScale(px));
    return q;
  }
  void clearData() override {
    m_mainArr = m_refArr = nullptr;
    m_mainPrep = m_refPrep = nullptr;
    for (auto* g : {m_ref, m_main, m_bad}) g->data()->clear();
    removeInputs();
    m_drawn = 0;
  }
  /// Whether the whole array, decimated, is a solid band (random inputs through an elementwise kernel).
  bool noisy() const {
    const auto env = m_mainPrep && m_mainPrep->pyramid ? m_mainPrep->pyramid->query(*m_mainArr, 0, double(m_n), 256)
                                                       : decimateMinMax(*m_mainArr, 0, m_n, 256);
    const auto range = m_mainPrep ? m_mainPrep->range : finiteRange(*m_mainArr);
    return looksLikeNoise(env, range.first, range.second);
  }
  /// The run's inputs of the output's length, drawn beside it when few enough elements are visible to read.
  void setInputs(const ViewData& d) {
    removeInputs();
    if (d.source == "input" || !d.outcome) return;
    for (const auto& in : d.outcome->result.inputs) {
      if (in.size() != m_n || in.name() == d.spec.name) continue;
      QCPGraph* g = m_plot->addGraph();
      g->setName("input " + QString::fromStdString(in.name()));
      m_inputs.push_back({g, &in});
    }
    restyle();
  }
  void removeInputs() {
    for (auto& [g, a] : m_inputs) m_plot->removeGraph(g);
    m_inputs.clear();
  }
  /// Inputs and markers when every visible element can be told apart; nothing extra otherwise.
  void drawInputs(std::size_t b, std::size_t e, bool readable, double& lo, double& hi) {
    m_main->setScatterStyle(readable ? QCPScatterStyle(QCPScatterStyle::ssDisc, m_style.markerSize + 1)
                                     : QCPScatterStyle());
    for (auto& [g, a] : m_inputs) {
      const XY p = readable ? elementPoints(*a, b, e) : XY{};
      g->setData(qv(p.x), qv(p.y), true);
      showInLegend(g, readable);
      for (double y : p.y)
        if (std::isfinite(y)) lo = std::min(lo, y), hi = std::max(hi, y);
    }
  }
  /// The element under the cursor: its index and value (and the reference's when drawn).
  QString readout(double x, double) const override {
    const double i = std::round(x);
    if (!m_mainArr || i < 0 || i >= double(m_n)) return {};
    const auto k = std::size_t(i);
    QString t =
        QString("index %1\n%2 = %3")
            .arg(countText(k), m_data.sourceTitle(m_data.source), QString::fromStdString(numberText(m_mainArr->at(k))));
    if (m_refArr && k < m_refArr->size())
      t += QString("\nreference = %1").arg(QString::fromStdString(numberText(m_refArr->at(k))));
    return t;
  }
  void restyle() override {
    m_main->setPen(mainPen());
    m_ref->setPen(refPen(2.4));
    styleMismatchGraph(m_bad);
    int k = 0;
    for (auto& [g, a] : m_inputs) {
      const QColor c = m_style.seriesColor(m_data.colorIndex + 2 + k++);
      g->setPen(QPen(c, m_style.lineWidth * 0.8, Qt::DashLine));
      g->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, c, m_style.markerSize));
    }
  }
  void onRange(const QCPRange& r) {
    if (m_inRange || !m_mainArr) return;
    // Keep the view within the data (5% margin), so panning never loses it.
    const double n = double(m_n), margin = std::max(1.0, n * 0.05);
    QCPRange c = r;
    if (c.size() > n + 2 * margin) c = QCPRange(-margin, n + margin);
    if (c.lower < -margin) c += -margin - c.lower;
    if (c.upper > n + margin) c -= c.upper - (n + margin);
    m_inRange = true;
    if (c != r) m_plot->xAxis->setRange(c);
    m_inRange = false;
    refresh();
  }
  void refresh() {
    if (!m_mainArr) return;
    const QCPRange r = m_plot->xAxis->range();
    const int cols = columns();
    double lo = 0, hi = 0;
    bool any = false;
    const auto [b, e] = visibleIndices(r.lower, r.upper, m_n);
    auto draw = [&](QCPGraph* g, const HostArray* a, const PreparedArray* p) -> std::size_t {
      if (!a) {
        g->data()->clear();
        return 0;
      }
      const auto env =
          p && p->pyramid ? p->pyramid->query(*a, double(b), double(e), cols) : decimateMinMax(*a, b, e, cols);
      for (const auto& col : env) {
        if (std::isnan(col.yMin)) continue;
        if (m_logY && col.yMax <= 0) continue;
        const double l = m_logY && col.yMin <= 0 ? col.yMax : col.yMin;
        lo = any ? std::min(lo, l) : l;
        hi = any ? std::max(hi, col.yMax) : col.yMax;
        any = true;
      }
      const XY line = envelopeToLine(env);
      g->setData(qv(line.x), qv(line.y), true);
      return line.size();
    };
    m_drawn = int(draw(m_main, m_mainArr, m_mainPrep));
    draw(m_ref, m_refArr, m_refPrep);
    const std::uint64_t visible = e - b;
    drawInputs(b, e, visible <= kReadable, lo, hi);
    if (any) setYRange(lo, hi);
    m_summary = visible > std::uint64_t(cols)
                    ? QString("%1 of %2 elements visible, drawn as %3 min/max columns")
                          .arg(countText(visible), countText(m_n))
                          .arg(cols)
                    : QString("%1 of %2 elements visible, every element drawn").arg(countText(visible), countText(m_n));
    replotWhenVisible(*m_plot);
  }

  /// At most this many visible elements get markers and the inputs beside them.
  static constexpr std::uint64_t kReadable = 256;
  QCPGraph *m_ref = nullptr, *m_main = nullptr, *m_bad = nullptr;
  std::vector<std::pair<QCPGraph*, const HostArray*>> m_inputs;
  std::size_t m_window = 0;  ///< the first elements shown at reset (0: the whole array)
  const HostArray *m_mainArr = nullptr, *m_refArr = nullptr;
  const PreparedArray *m_mainPrep = nullptr, *m_refPrep = nullptr;
  std::size_t m_n = 0;
  bool m_inRange = false;
};

}  // namespace

std::unique_ptr<OutputView> makeWaveformView(QWidget* parent) { return std::make_unique<WaveformView>(parent); }

}  // namespace launchlab::ui
