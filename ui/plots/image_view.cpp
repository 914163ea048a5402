// Image: a 2-D array as a heat map with its colour scale.
#include <algorithm>
#include <cmath>
#include <iterator>
#include <limits>

#include "plots/qcp_view_base.h"

namespace launchlab::ui {

namespace {

/// Ticks only over the image (0 … its side): with square pixels one axis spans margins beyond it, where "column
/// -2000" would mean nothing.
class ImageTicker final : public QCPAxisTicker {
 public:
  double side = 0;
  void generate(const QCPRange& range, const QLocale& locale, QChar formatChar, int precision, QVector<double>& ticks,
                QVector<double>* subTicks, QVector<QString>* tickLabels) override {
    QCPAxisTicker::generate(range, locale, formatChar, precision, ticks, subTicks, tickLabels);
    QVector<double> kept;
    QVector<QString> keptLabels;
    for (int i = 0; i < ticks.size(); ++i)
      if (ticks[i] >= -1e-9 && ticks[i] <= side + 1e-9) {
        kept << ticks[i];
        if (tickLabels && i < tickLabels->size()) keptLabels << tickLabels->at(i);
      }
    ticks = kept;
    if (tickLabels) *tickLabels = keptLabels;
    if (subTicks) {
      QVector<double> keptSub;
      for (double t : *subTicks)
        if (t >= 0 && t <= side) keptSub << t;
      *subTicks = keptSub;
    }
  }
};

/// A 2-D array as a heat map (viridis, with a colour scale), down-sampled by block means when large.
class ImageView final : public QcpViewBase {
 public:
  explicit ImageView(QWidget* parent) : QcpViewBase(parent) {
    m_map = addColorMapWithScale(*m_plot, m_scale);
    m_plot->yAxis->setRangeReversed(true);  // row 0 at the top, like an image
    m_useLegend = false;
    m_bad = m_plot->addGraph();
    // Marker cells (never written, padding) over the image in colours of their own, above the GL frame too.
    m_marks = new QCPColorMap(m_plot->xAxis, m_plot->yAxis);
    m_marks->setInterpolate(false);
    m_marks->setLayer("axes");
    m_marks->removeFromLegend();
    m_plot->xAxis->setTicker(m_xTicks);
    m_plot->yAxis->setTicker(m_yTicks);
    // Square pixels: a square matrix drawn as a wide band misleads (the memory chapter's lessons are about rows and
    // columns). The axis rect's size is known only once laid out, so the ranges are fitted then, on every replot.
    QObject::connect(m_plot, &QCustomPlot::afterLayout, m_plot, [this] { keepSquarePixels(); });
    restyle();
    enableGl([this](QSize) { return glRequest(); });
    m_gl->setSmooth(false);  // texels stay sharp when zoomed in
  }
  void setData(const ViewData& d) override {
    m_useLegend = false;  // until marker cells are found
    begin(d);
    const HostArray* a = d.array(d.source);
    if (!a) return showNoData();
    glDataChanged();
    m_array = a;
    const PreparedArray* p = d.prepared(d.source);
    const ImageGrid g = p && p->image ? *p->image : downsampleImage(*a, 512);
    m_rows = g.rows;
    m_cols = g.cols;
    m_xTicks->side = double(g.cols);
    m_yTicks->side = double(g.rows);
    // Square pixels unless the array is so elongated (a 1 x 4096 row) that it would shrink to a line.
    m_square = g.rows && g.cols && std::max(g.rows, g.cols) <= 8 * std::min(g.rows, g.cols);
    auto* data = m_map->data();
    data->setSize(int(g.cellCols), int(g.cellRows));
    data->setRange(QCPRange(0.5 * double(g.blockCols), double(g.cols) - 0.5 * double(g.blockCols)),
                   QCPRange(0.5 * double(g.blockRows), double(g.rows) - 0.5 * double(g.blockRows)));
    for (std::size_t r = 0; r < g.cellRows; ++r)
      for (std::size_t c = 0; c < g.cellCols; ++c) data->setCell(int(c), int(r), g.values[r * g.cellCols + c]);
    const ImageMarkers marks = findImageMarkers(g, d.spec.markers);
    showMarkers(g, marks);
    const double lo = marks.vMin, hi = marks.vMax > marks.vMin ? marks.vMax : marks.vMin + 1;
    // Whole counts (block ids, lanes on a bank) get a stepped key with whole ticks, not a 0-1 gradient at 2.5, 7.5.
    const bool counts = !isFloating(a->dtype()) && g.blockRows * g.blockCols == 1 &&
                        setCountKey(*m_map, *m_scale, int(marks.vMin), int(marks.vMax));
    if (!counts) {
      m_map->setGradient(viridisGradient());
      m_scale->axis()->setTicker(QSharedPointer<QCPAxisTicker>::create());
      m_map->setDataRange(QCPRange(lo, hi));
    }
    m_scale->axis()->setLabel(QString::fromStdString(d.spec.yLabel));
    m_plot->xAxis->setLabel(d.spec.xLabel == "index" ? "column" : QString::fromStdString(d.spec.xLabel));
    m_plot->yAxis->setLabel("row");
    QVector<double> bx, by;
    // An expected outcome's differences are the lesson, drawn by the markers' colours: no red crosses on them.
    const ImplResult* shown = d.impl(d.source);
    const bool lesson = shown && shown->showsLesson();
    for (auto i : lesson ? std::vector<std::uint64_t>{} : mismatches())
      if (g.cols) {
        bx << double(i % g.cols) + 0.5;
        by << double(i / g.cols) + 0.5;
      }
    m_bad->setData(bx, by);
    m_drawn = int(g.cellRows * g.cellCols);
    m_summary = g.blockRows * g.blockCols > 1 ? QString("%1 x %2 image shown as %3 x %4 block means")
                                                    .arg(g.rows)
                                                    .arg(g.cols)
                                                    .arg(g.cellRows)
                                                    .arg(g.cellCols)
                                              : QString("%1 x %2 image, every pixel drawn").arg(g.rows).arg(g.cols);
    resetZoom();
  }
  void resetZoom() override {
    m_plot->xAxis->setRange(0, double(std::max<std::size_t>(1, m_cols)));
    m_plot->yAxis->setRange(0, double(std::max<std::size_t>(1, m_rows)));
    m_lastFit = {m_plot->xAxis->range(), m_plot->yAxis->range()};  // unzoomed: the next layout fits the whole image
    replotWhenVisible(*m_plot);
  }
  void setLogY(bool) override {}  // rows are rows
  std::optional<ImageWindow> imageWindow() const override {
    if (!m_rows || !m_cols) return std::nullopt;
    const QCPRange x = m_plot->xAxis->range(), y = m_plot->yAxis->range();
    return ImageWindow{x.lower, y.lower, x.upper, y.upper, m_rows, m_cols};
  }

 private:
  /// A marker's own colour: light grey for the first (never written), white for the second (padding), outside
  /// viridis' dark-purple-to-yellow so neither reads as a measured value.
  static QColor markerColor(std::size_t k) {
    static const QColor colors[] = {QColor(200, 200, 200), QColor(255, 255, 255), QColor(255, 128, 0)};
    return colors[std::min<std::size_t>(k, std::size(colors) - 1)];
  }
  /// Draws the marker cells over the image and names each present marker in the legend with its colour.
  void showMarkers(const ImageGrid& g, const ImageMarkers& marks) {
    auto* data = m_marks->data();
    for (auto* key : m_markKeys) m_plot->removePlottable(key);
    m_markKeys.clear();
    // The legend (shown only with markers) lists the markers alone; without them it keeps the map's entry, as an
    // empty legend would shrink the layout's column to nothing even while hidden.
    if (marks.cellMarker.empty()) {
      data->clear();
      if (!m_plot->legend->hasItemWithPlottable(m_map)) m_map->addToLegend();
      return;
    }
    m_map->removeFromLegend();
    m_bad->removeFromLegend();
    const std::size_t k = marks.present.size();
    QCPColorGradient grad;
    grad.clearColorStops();
    for (std::size_t i = 0; i < k; ++i) grad.setColorStopAt(k > 1 ? double(i) / double(k - 1) : 0, markerColor(i));
    if (k == 1) grad.setColorStopAt(1, markerColor(0));
    grad.setLevelCount(int(std::max<std::size_t>(2, k)));
    grad.setNanHandling(QCPColorGradient::nhTransparent);
    m_marks->setGradient(grad);
    m_marks->setDataRange(QCPRange(0, double(std::max<std::size_t>(1, k - 1))));
    data->setSize(int(g.cellCols), int(g.cellRows));
    data->setRange(m_map->data()->keyRange(), m_map->data()->valueRange());
    for (std::size_t r = 0; r < g.cellRows; ++r)
      for (std::size_t c = 0; c < g.cellCols; ++c) {
        const int m = marks.cellMarker[r * g.cellCols + c];
        data->setCell(int(c), int(r), m < 0 ? std::numeric_limits<double>::quiet_NaN() : double(m));
      }
    for (std::size_t i = 0; i < k; ++i) {
      if (!marks.present[i]) continue;
      auto* key = m_plot->addGraph();
      key->setLineStyle(QCPGraph::lsNone);
      key->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssSquare, toQColor(m_style.palette->foreground),
                                           markerColor(i), m_style.markerSize + 6));
      key->setName(QString("%1 (%2)")
                       .arg(QString::fromStdString(m_data.spec.markers[i].label))
                       .arg(m_data.spec.markers[i].value));
      m_markKeys.push_back(key);
    }
    m_useLegend = true;
    m_plot->legend->setVisible(true);
  }
  /// Widens the axis whose units are smaller on screen, so one cell is as wide as it is tall and the whole image
  /// stays in view (centred, with empty margins on the long side of the plot).
  /// Until the user zooms, every layout fits the whole image again from its own extent: widening the current ranges
  /// instead would keep the margins of a transient size (a plot laid out narrow, then tall, zoomed out both ways
  /// and drew the image as a strip). A zoomed view keeps its centre and gets square pixels.
  void keepSquarePixels() {
    const QRect r = m_plot->axisRect()->rect();
    if (!m_square || r.width() <= 0 || r.height() <= 0) return;
    QCPAxis* x = m_plot->xAxis;
    QCPAxis* y = m_plot->yAxis;
    const bool fitted = m_lastFit && x->range() == m_lastFit->first && y->range() == m_lastFit->second;
    if (fitted) {
      const double cols = double(std::max<std::size_t>(1, m_cols)), rows = double(std::max<std::size_t>(1, m_rows));
      const double unit = std::max(cols / r.width(), rows / r.height());  // data units per pixel, both ways
      const double w = unit * r.width(), h = unit * r.height();
      x->setRange((cols - w) / 2, (cols + w) / 2);
      y->setRange((rows - h) / 2, (rows + h) / 2);
      m_lastFit = {x->range(), y->range()};
      return;
    }
    const double ux = x->range().size() / r.width(), uy = y->range().size() / r.height();
    if (std::abs(ux / uy - 1) < 1e-3) return;
    if (ux > uy)
      y->setScaleRatio(x, 1.0);
    else
      x->setScaleRatio(y, 1.0);
  }
  /// The pixel under the cursor: its row, column and full-resolution value.
  QString readout(double x, double y) const override {
    const HostArray* a = m_data.array(m_data.source);
    if (!a || x < 0 || y < 0 || x >= double(m_cols) || y >= double(m_rows)) return {};
    const auto r = std::size_t(y), c = std::size_t(x);
    return QString("row %1, column %2\n%3 = %4")
        .arg(r)
        .arg(c)
        .arg(m_scale->axis()->label().isEmpty() ? QString("value") : m_scale->axis()->label())
        .arg(QString::fromStdString(numberText(a->at(r * m_cols + c))));
  }
  void setOwnSeriesVisible(bool on) override { m_map->setVisible(on); }
  /// The whole image at full resolution (at most kMaxSide texels a side in the frame), coloured through the same
  /// map and range as the colour scale; zoom and pan scale the frame, they need no new one.
  std::optional<GlFrameRequest> glRequest() const {
    if (!m_array || !m_rows || !m_cols || m_array->size() != m_rows * m_cols || m_message->visible())
      return std::nullopt;
    constexpr double kMaxSide = 4096;
    const double shrink = std::min(1.0, kMaxSide / double(std::max(m_rows, m_cols)));
    GlFrameRequest q = glRequestOf(GlDraw::Image, m_array, {});
    q.logY = false;
    q.cols = int(m_cols);
    q.rows = int(m_rows);
    q.pixels = QSize(std::max(1, int(double(m_cols) * shrink)), std::max(1, int(double(m_rows) * shrink)));
    q.range = q.drawRange = {0, double(m_cols), double(m_rows), 0};  // row 0 at the top
    q.lo = m_map->dataRange().lower;
    q.hi = m_map->dataRange().upper;
    return q;
  }
  void clearData() override {
    m_array = nullptr;
    m_map->data()->clear();
    m_marks->data()->clear();
    m_bad->data()->clear();
    m_drawn = 0;
  }
  void restyle() override {
    styleMismatchGraph(m_bad);
    m_bad->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCross,
                                           QPen(m_style.mismatchColor(), m_style.lineWidth + 1), Qt::NoBrush,
                                           m_style.markerSize + 6));
    m_scale->axis()->setTickLabelFont(m_style.font());
    m_scale->axis()->setLabelFont(m_style.font(1.05));
  }
  QCPColorMap* m_map = nullptr;
  QCPColorScale* m_scale = nullptr;
  QCPGraph* m_bad = nullptr;
  QCPColorMap* m_marks = nullptr;
  std::vector<QCPGraph*> m_markKeys;  ///< legend entries of the markers shown
  std::size_t m_rows = 0, m_cols = 0;
  const HostArray* m_array = nullptr;
  bool m_square = false;
  std::optional<std::pair<QCPRange, QCPRange>> m_lastFit;  ///< the ranges the last fit set (x, y), until a zoom
  QSharedPointer<ImageTicker> m_xTicks{new ImageTicker}, m_yTicks{new ImageTicker};
};

}  // namespace

std::unique_ptr<OutputView> makeImageView(QWidget* parent) { return std::make_unique<ImageView>(parent); }

}  // namespace launchlab::ui
