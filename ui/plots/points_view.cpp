// Points: sample points of the unit square (3 x k: x row, y row, inside flag row), inside blue, outside orange,
// the unit quarter circle drawn, equal aspect; the summary counts distinct points (repeated streams show as few).
// Points of a larger box (monte_carlo_area's (-1, 1)^2 or (-2, 1) x (-1.5, 1.5)) widen the view to their box and
// hide the quarter circle.
#include <algorithm>
#include <array>
#include <cmath>
#include <set>
#include <utility>

#include "plots/qcp_view_base.h"

namespace launchlab::ui {

namespace {

class PointsView final : public QcpViewBase {
 public:
  explicit PointsView(QWidget* parent) : QcpViewBase(parent) {
    m_circle = new QCPCurve(m_plot->xAxis, m_plot->yAxis);
    constexpr int kSteps = 90;
    for (int i = 0; i <= kSteps; ++i) {
      const double a = (M_PI / 2) * i / kSteps;
      m_circle->addData(i, std::cos(a), std::sin(a));
    }
    m_circle->setName("x² + y² = 1");
    // A resized plot shows the whole square again with equal aspect (a zoom survives replots of the same size).
    QObject::connect(m_plot, &QCustomPlot::afterLayout, m_plot, [this] {
      if (m_plot->axisRect()->size() != m_fitted) fitSquare();
    });
    m_inside = m_plot->addGraph();
    m_outside = m_plot->addGraph();
    for (auto* g : {m_inside, m_outside}) g->setLineStyle(QCPGraph::lsNone);
    restyle();
    enableGl([this](QSize px) { return glRequest(px); });
  }
  void setData(const ViewData& d) override {
    begin(d);
    const HostArray* a = d.array(d.source);
    if (!a || a->shape().size() != 2 || a->shape()[0] != 3) return showNoData();
    glDataChanged();
    m_array = a;
    const std::size_t k = a->shape()[1];
    QVector<double> xi, yi, xo, yo;
    std::set<std::pair<double, double>> distinct;
    m_box = {0, 0, 1, 1};
    for (std::size_t j = 0; j < k; ++j) {
      const double x = a->at(j), y = a->at(k + j);
      m_box = {std::min(m_box[0], x), std::min(m_box[1], y), std::max(m_box[2], x), std::max(m_box[3], y)};
      distinct.emplace(x, y);
      if (a->at(2 * k + j) != 0) {
        xi.push_back(x);
        yi.push_back(y);
      } else {
        xo.push_back(x);
        yo.push_back(y);
      }
    }
    m_inside->setData(xi, yi);
    m_outside->setData(xo, yo);
    m_circle->setVisible(m_box[0] >= 0 && m_box[1] >= 0);
    m_inside->setName(QString("inside (%1)").arg(countText(std::size_t(xi.size()))));
    m_outside->setName(QString("outside (%1)").arg(countText(std::size_t(xo.size()))));
    m_drawn = int(k);
    m_summary = QString("%1 points, %2 distinct").arg(countText(k), countText(distinct.size()));
    resetZoom();
  }
  void resetZoom() override {
    fitSquare();
    replotWhenVisible(*m_plot);
  }

 private:
  /// The unit square (or the points' larger box) with a margin, widened along the longer side so that x and y
  /// have the same scale.
  void fitSquare() {
    const QSize px = m_plot->axisRect()->size();
    const double side = std::max(m_box[2] - m_box[0], m_box[3] - m_box[1]) * 1.04;
    const double cx = (m_box[0] + m_box[2]) / 2, cy = (m_box[1] + m_box[3]) / 2;
    double xs = side, ys = side;
    if (px.width() > 0 && px.height() > 0) {
      if (px.width() > px.height())
        xs *= double(px.width()) / px.height();
      else
        ys *= double(px.height()) / px.width();
    }
    m_plot->xAxis->setRange(cx - xs / 2, cx + xs / 2);
    m_plot->yAxis->setRange(cy - ys / 2, cy + ys / 2);
    m_fitted = px;
  }
  void setOwnSeriesVisible(bool on) override {
    for (auto* g : {m_inside, m_outside}) g->setVisible(on);
  }
  /// Every point (up to GlFrameRequest::maxPoints) over the visible square, inside and outside in their colours.
  std::optional<GlFrameRequest> glRequest(QSize px) const {
    if (!m_array || m_message->visible()) return std::nullopt;
    GlFrameRequest q = glRequestOf(GlDraw::Points, m_array, px);
    q.logY = false;
    q.color = m_style.seriesColor(0);
    q.color2 = m_style.seriesColor(1);
    q.pointSize = float(std::max(3.0, m_style.markerSize * 0.5) * glScale(px));
    return q;
  }
  void clearData() override {
    m_array = nullptr;
    for (auto* g : {m_inside, m_outside}) g->data()->clear();
    m_drawn = 0;
  }
  void restyle() override {
    const double size = std::max(3.0, m_style.markerSize * 0.5);
    const QColor in = m_style.seriesColor(0), out = m_style.seriesColor(1);  // blue, orange
    m_inside->setPen(QPen(in));
    m_inside->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, in, size));
    m_outside->setPen(QPen(out));
    m_outside->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, out, size));
    m_circle->setPen(refPen());
  }
  QCPCurve* m_circle = nullptr;
  QSize m_fitted;
  std::array<double, 4> m_box{0, 0, 1, 1};  ///< x min, y min, x max, y max: the unit square and every point
  QCPGraph *m_inside = nullptr, *m_outside = nullptr;
  const HostArray* m_array = nullptr;
};

}  // namespace

std::unique_ptr<OutputView> makePointsView(QWidget* parent) { return std::make_unique<PointsView>(parent); }

}  // namespace launchlab::ui
