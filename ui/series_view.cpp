// Series: y against x pairs, log x when x spans decades.
#include <algorithm>
#include <cmath>

#include "qcp_view_base.h"

namespace launchlab::ui {

namespace {

/// y against x pairs (2 x k array), lines with markers; log x when x spans more than three decades.
class SeriesView final : public QcpViewBase {
 public:
  explicit SeriesView(QWidget* parent) : QcpViewBase(parent) {
    m_ref = addSegmentGraph(m_plot);
    m_main = addSegmentGraph(m_plot);
    restyle();
  }
  void setData(const ViewData& d) override {
    begin(d);
    const HostArray* a = d.array(d.source);
    if (!a) return showNoData();
    const XY main = seriesPoints(*a, kMaxPoints);
    m_main->setData(qv(main.x), qv(main.y));
    m_main->setName(d.sourceTitle(d.source));
    m_drawn = int(main.size());
    const HostArray* r = showReference() ? d.array(d.reference) : nullptr;
    if (r) {
      const XY rp = seriesPoints(*r, kMaxPoints);
      m_ref->setData(qv(rp.x), qv(rp.y));
    } else {
      m_ref->data()->clear();
    }
    labelReference(m_ref, r != nullptr);
    const auto [mn, mx] = std::minmax_element(main.x.begin(), main.x.end());
    setAxisLog(*m_plot->xAxis, !main.x.empty() && *mn > 0 && *mx / *mn > 1000);
    m_summary = QString("%1 points").arg(countText(main.size()));
    resetZoom();
  }
  void resetZoom() override {
    m_plot->rescaleAxes();
    const QCPRange y = m_plot->yAxis->range();
    setYRange(y.lower, y.upper);
    replotWhenVisible(*m_plot);
  }

 private:
  void clearData() override {
    m_ref->data()->clear();
    m_main->data()->clear();
    m_drawn = 0;
  }
  void restyle() override {
    const QColor c = m_style.seriesColor(m_data.colorIndex);
    m_main->setPen(mainPen());
    m_main->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, c, m_style.markerSize));
    m_ref->setPen(refPen(2.4));
  }
  QCPGraph *m_ref = nullptr, *m_main = nullptr;
};

}  // namespace

std::unique_ptr<OutputView> makeSeriesView(QWidget* parent) { return std::make_unique<SeriesView>(parent); }

}  // namespace launchlab::ui
