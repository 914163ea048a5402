// Scatter: y against the input named by the spec's xFrom, an even sample of points.
#include <algorithm>
#include <cmath>

#include "plots/qcp_view_base.h"

namespace launchlab::ui {

namespace {

/// y against the input named by xFrom (e.g. a pdf against x): an even sample of points plus every
/// highlighted mismatch.
class ScatterView final : public QcpViewBase {
 public:
  explicit ScatterView(QWidget* parent) : QcpViewBase(parent) {
    m_ref = m_plot->addGraph();
    m_main = m_plot->addGraph();
    m_bad = m_plot->addGraph();
    for (auto* g : {m_ref, m_main}) g->setLineStyle(QCPGraph::lsNone);
    restyle();
  }
  void setData(const ViewData& d) override {
    begin(d);
    const HostArray* y = d.array(d.source);
    if (!y) return showNoData();
    const HostArray* x = d.input(d.spec.xFrom);
    const auto mism = mismatches();
    const auto idx = sampleIndices(y->size(), kMaxPoints, mism);
    auto points = [&](const HostArray* a, const std::vector<std::size_t>& ids) {
      if (x) return scatterPoints(*x, *a, ids);
      XY xy;
      for (auto i : ids) {
        xy.x.push_back(double(i));
        xy.y.push_back(a->at(i));
      }
      return xy;
    };
    const XY main = points(y, idx);
    m_main->setData(qv(main.x), qv(main.y), true);
    m_main->setName(d.sourceTitle(d.source));
    m_drawn = int(main.size());
    const HostArray* ref = showReference() ? d.array(d.reference) : nullptr;
    if (ref) {
      const XY r = points(ref, idx);
      m_ref->setData(qv(r.x), qv(r.y), true);
    } else {
      m_ref->data()->clear();
    }
    labelReference(m_ref, ref != nullptr);
    std::vector<std::size_t> badIdx(mism.begin(), mism.end());
    const XY bad = points(y, badIdx);
    m_bad->setData(qv(bad.x), qv(bad.y), true);
    labelMismatches(m_bad, bad.size() > 0);
    if (!x) m_plot->xAxis->setLabel("index");
    m_summary = y->size() > kMaxPoints
                    ? QString("%1 of %2 points drawn (even sample)").arg(countText(main.size()), countText(y->size()))
                    : QString("all %1 points drawn").arg(countText(y->size()));
    resetZoom();
  }
  void resetZoom() override {
    m_plot->rescaleAxes();
    const QCPRange x = m_plot->xAxis->range(), y = m_plot->yAxis->range();
    const auto rx = paddedRange(x.lower, x.upper, false, 0.03);
    m_plot->xAxis->setRange(rx.lo, rx.hi);
    setYRange(y.lower, y.upper);
    replotWhenVisible(*m_plot);
  }

 private:
  void clearData() override {
    for (auto* g : {m_ref, m_main, m_bad}) g->data()->clear();
    m_drawn = 0;
  }
  void restyle() override {
    const QColor c = m_style.seriesColor(m_data.colorIndex);
    m_main->setPen(QPen(c));
    m_main->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, c, std::max(3.0, m_style.markerSize * 0.55)));
    m_ref->setPen(refPen());
    m_ref->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, refPen().color(), m_style.markerSize + 1));
    styleMismatchGraph(m_bad);
  }
  QCPGraph *m_ref = nullptr, *m_main = nullptr, *m_bad = nullptr;
};

}  // namespace

std::unique_ptr<OutputView> makeScatterView(QWidget* parent) { return std::make_unique<ScatterView>(parent); }

}  // namespace launchlab::ui
