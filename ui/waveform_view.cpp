// Waveform: y against index, min/max decimated per pixel column at every zoom.
#include <algorithm>
#include <cmath>

#include "qcp_view_base.h"

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
  }
  void setData(const ViewData& d) override {
    begin(d);
    m_mainArr = d.array(d.source);
    m_mainPrep = d.prepared(d.source);
    m_refArr = showReference() ? d.array(d.reference) : nullptr;
    m_refPrep = showReference() ? d.prepared(d.reference) : nullptr;
    if (!m_mainArr) return showNoData();
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
    resetZoom();
  }
  void resetZoom() override {
    if (!m_mainArr) return;
    m_plot->xAxis->setRange(0, std::max<double>(1, double(m_n) - 1));
    refresh();
  }

 private:
  void clearData() override {
    m_mainArr = m_refArr = nullptr;
    m_mainPrep = m_refPrep = nullptr;
    for (auto* g : {m_ref, m_main, m_bad}) g->data()->clear();
    m_drawn = 0;
  }
  void restyle() override {
    m_main->setPen(mainPen());
    m_ref->setPen(refPen(2.4));
    styleMismatchGraph(m_bad);
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
    auto draw = [&](QCPGraph* g, const HostArray* a, const PreparedArray* p) -> std::size_t {
      if (!a) {
        g->data()->clear();
        return 0;
      }
      const auto env = p && p->pyramid ? p->pyramid->query(*a, r.lower, r.upper + 1, cols)
                                       : decimateMinMax(*a, std::size_t(std::max(0.0, std::floor(r.lower))),
                                                        std::size_t(std::max(0.0, std::ceil(r.upper + 1))), cols);
      for (const auto& e : env) {
        if (std::isnan(e.yMin)) continue;
        if (m_logY && e.yMax <= 0) continue;
        const double l = m_logY && e.yMin <= 0 ? e.yMax : e.yMin;
        lo = any ? std::min(lo, l) : l;
        hi = any ? std::max(hi, e.yMax) : e.yMax;
        any = true;
      }
      const XY line = envelopeToLine(env);
      g->setData(qv(line.x), qv(line.y), true);
      return line.size();
    };
    m_drawn = int(draw(m_main, m_mainArr, m_mainPrep));
    draw(m_ref, m_refArr, m_refPrep);
    if (any) setYRange(lo, hi);
    const std::uint64_t visible = std::uint64_t(std::max(0.0, std::min(double(m_n), r.upper + 1) - std::max(0.0, r.lower)));
    m_summary = visible > std::uint64_t(cols)
                    ? QString("%1 of %2 elements visible, drawn as %3 min/max columns").arg(countText(visible), countText(m_n)).arg(cols)
                    : QString("%1 of %2 elements visible, every element drawn").arg(countText(visible), countText(m_n));
    replotWhenVisible(*m_plot);
  }

  QCPGraph *m_ref = nullptr, *m_main = nullptr, *m_bad = nullptr;
  const HostArray *m_mainArr = nullptr, *m_refArr = nullptr;
  const PreparedArray *m_mainPrep = nullptr, *m_refPrep = nullptr;
  std::size_t m_n = 0;
  bool m_inRange = false;
};

}  // namespace

std::unique_ptr<OutputView> makeWaveformView(QWidget* parent) { return std::make_unique<WaveformView>(parent); }

}  // namespace launchlab::ui
