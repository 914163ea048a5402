#include "plots/view_style.h"

#include <qcustomplot.h>

#include <QApplication>
#include <algorithm>

namespace launchlab::ui {

ViewStyle ViewStyle::normal() { return {}; }

double presentationScale(int screenHeight) {
  // x1.6 on a 720-pixel projector (read from the back of a room; the stage leaves the plots their room), x1.8 from
  // 1080 pixels up.
  if (screenHeight >= 1080) return 1.8;
  if (screenHeight <= 720) return 1.6;
  return 1.6 + (screenHeight - 720) * (0.2 / 360.0);
}

ViewStyle ViewStyle::presentationStyle(int screenHeight) {
  ViewStyle s;
  s.presentation = true;
  s.fontScale = presentationScale(screenHeight);
  s.palette = &highContrastPalette();
  s.lineWidth = 1.7 * s.fontScale;
  s.fontPointSize = 9 * s.fontScale;
  s.markerSize = 6 * s.fontScale;
  return s;
}

QColor toQColor(const Rgb& c, int alpha) { return QColor(c.r, c.g, c.b, alpha); }

QColor ViewStyle::seriesColor(int i) const {
  const auto& v = palette->series;
  return toQColor(v[std::size_t(i) % v.size()]);
}
QColor ViewStyle::referenceColor() const { return toQColor(palette->reference); }
QColor ViewStyle::mismatchColor() const { return toQColor(palette->mismatch); }
QColor ViewStyle::lessonColor() const { return toQColor(palette->lesson); }
QColor ViewStyle::phaseColor(int i) const { return toQColor(palette->phases[std::size_t(i) % 4]); }

QFont ViewStyle::font(double scale, bool bold) const {
  QFont f = QApplication::font();
  f.setPointSizeF(fontPointSize * scale);
  f.setBold(bold);
  return f;
}

void applyPlotStyle(QCustomPlot& plot, const ViewStyle& s) {
  const QColor fg = toQColor(s.palette->foreground);
  const QColor grid = toQColor(s.palette->grid);
  plot.setBackground(toQColor(s.palette->background));
  for (QCPAxis* a : {plot.xAxis, plot.yAxis, plot.xAxis2, plot.yAxis2}) {
    if (!a) continue;
    a->setTickLabelFont(s.font());
    a->setLabelFont(s.font(1.05));
    a->setTickLabelColor(fg);
    a->setLabelColor(fg);
    const QPen axisPen(fg, s.presentation ? 2.0 : 1.0);
    a->setBasePen(axisPen);
    a->setTickPen(axisPen);
    a->setSubTickPen(axisPen);
    a->grid()->setPen(QPen(grid, s.presentation ? 1.5 : 1.0, Qt::DotLine));
    a->grid()->setSubGridVisible(false);
  }
  // The last tick label is centred on the axis's end: half of it lies right of the axis rect. Keep room for half
  // of a long one ("-2.5e-12") so it is never cut by the plot's edge.
  if (plot.axisRect())
    plot.axisRect()->setMinimumMargins(QMargins(0, 0, QFontMetrics(s.font()).horizontalAdvance("-8.8e-88") / 2 + 2, 0));
  plot.legend->setFont(s.font(0.95));
  plot.legend->setTextColor(fg);
  plot.legend->setBrush(QBrush(QColor(255, 255, 255, 215)));
  plot.legend->setBorderPen(QPen(grid));
}

QCPTextElement* addTitleRow(QCustomPlot& plot) {
  plot.plotLayout()->insertRow(0);
  auto* t = new QCPTextElement(&plot, "", QFont());
  plot.plotLayout()->addElement(0, 0, t);
  return t;
}

void legendBelow(QCustomPlot& plot) {
  plot.legend->setVisible(true);
  auto* legendRow = new QCPLayoutGrid;
  plot.plotLayout()->addElement(plot.plotLayout()->rowCount(), 0, legendRow);
  plot.axisRect()->insetLayout()->take(plot.legend);
  legendRow->addElement(0, 0, plot.legend);
  legendRow->setMargins(QMargins(0, 0, 0, 4));
  plot.legend->setFillOrder(QCPLegend::foColumnsFirst);
  plot.plotLayout()->setRowStretchFactor(plot.plotLayout()->rowCount() - 1, 0.001);
}

void styleTitle(QCPTextElement& title, const ViewStyle& s) {
  title.setFont(s.font(1.15, true));
  title.setTextColor(toQColor(s.palette->foreground));
}

void setAxisLog(QCPAxis& axis, bool on) {
  axis.setScaleType(on ? QCPAxis::stLogarithmic : QCPAxis::stLinear);
  if (on)
    axis.setTicker(QSharedPointer<QCPAxisTickerLog>(new QCPAxisTickerLog));
  else
    axis.setTicker(QSharedPointer<QCPAxisTicker>(new QCPAxisTicker));
}

QCPColorMap* addColorMapWithScale(QCustomPlot& plot, QCPColorScale*& scale) {
  auto* map = new QCPColorMap(plot.xAxis, plot.yAxis);
  scale = new QCPColorScale(&plot);
  plot.plotLayout()->addElement(1, 1, scale);
  scale->setType(QCPAxis::atRight);
  map->setColorScale(scale);
  map->setGradient(viridisGradient());
  map->setInterpolate(false);
  auto* group = new QCPMarginGroup(&plot);
  plot.axisRect()->setMarginGroup(QCP::msBottom | QCP::msTop, group);
  scale->setMarginGroup(QCP::msBottom | QCP::msTop, group);
  return map;
}

bool setCountKey(QCPColorMap& map, QCPColorScale& scale, int lo, int hi) {
  if (hi < lo || hi - lo >= 64) return false;
  // One flat band of viridis per count, each 1/n of the key: a count's cells take its band's colour whichever way
  // QCustomPlot rounds a value to its levels, and the bar shows n equal steps.
  const int n = hi - lo + 1;
  QCPColorGradient v = viridisGradient();  // color() fills its buffer: not const
  QCPColorGradient g = v;
  g.clearColorStops();
  for (int k = 0; k < n; ++k) {
    const QColor c = v.color(n > 1 ? double(k) / (n - 1) : 0.5, QCPRange(0, 1));
    g.setColorStopAt(double(k) / n, c);
    g.setColorStopAt(double(k + 1) / n - 1e-6, c);
  }
  g.setLevelCount(1000);
  map.setGradient(g);
  map.setDataRange(QCPRange(lo - 0.5, hi + 0.5));
  // About eight labels: every count up to 8, else a round step, always with both ends (the diagonal's 1 is read).
  const int span = hi - lo, step = span < 8 ? 1 : span < 16 ? 2 : span < 40 ? 5 : 10;
  auto ticks = QSharedPointer<QCPAxisTickerText>::create();
  ticks->addTick(lo, QString::number(lo));
  for (int t = (lo / step + 1) * step; t < hi; t += step)
    if (t - lo > step / 2 && hi - t > step / 2) ticks->addTick(t, QString::number(t));  // not crowding an end
  if (hi > lo) ticks->addTick(hi, QString::number(hi));
  scale.axis()->setTicker(ticks);
  return true;
}

QCPColorGradient viridisGradient() {
  QCPColorGradient g;
  g.clearColorStops();
  for (const auto& [pos, c] : viridis().stops) g.setColorStopAt(pos, toQColor(c));
  g.setColorInterpolation(QCPColorGradient::ciRGB);
  g.setNanHandling(QCPColorGradient::nhNanColor);
  g.setNanColor(QColor(200, 200, 200));
  return g;
}

namespace {
constexpr char kDirty[] = "launchlabReplotPending";

/// Replots a plot marked dirty when it is shown.
class ReplotOnShow final : public QObject {
 public:
  bool eventFilter(QObject* o, QEvent* e) override {
    if (e->type() == QEvent::Show && o->property(kDirty).toBool()) {
      o->setProperty(kDirty, false);
      static_cast<QCustomPlot*>(o)->replot(QCustomPlot::rpQueuedReplot);
    }
    return false;
  }
};
}  // namespace

void replotWhenVisible(QCustomPlot& plot) {
  if (plot.isVisible()) {
    plot.replot(QCustomPlot::rpQueuedReplot);
    return;
  }
  static ReplotOnShow filter;
  if (!plot.property("launchlabReplotFilter").toBool()) {
    plot.installEventFilter(&filter);
    plot.setProperty("launchlabReplotFilter", true);
  }
  plot.setProperty(kDirty, true);
}

void applyApplicationStyle(QApplication& app, const ViewStyle& s, const QFont& baseFont, const QPalette& basePalette) {
  if (!s.presentation) {
    app.setFont(baseFont);
    app.setPalette(basePalette);
    return;
  }
  QFont f = baseFont;
  f.setPointSizeF((baseFont.pointSizeF() > 0 ? baseFont.pointSizeF() : 10.0) * s.fontScale);
  app.setFont(f);
  QPalette p;
  const QColor white(255, 255, 255), black(0, 0, 0);
  p.setColor(QPalette::Window, white);
  p.setColor(QPalette::WindowText, black);
  p.setColor(QPalette::Base, white);
  p.setColor(QPalette::AlternateBase, QColor(235, 235, 235));
  p.setColor(QPalette::Text, black);
  p.setColor(QPalette::Button, QColor(230, 230, 230));
  p.setColor(QPalette::ButtonText, black);
  p.setColor(QPalette::ToolTipBase, QColor(255, 255, 220));
  p.setColor(QPalette::ToolTipText, black);
  p.setColor(QPalette::Highlight, QColor(0, 0, 170));
  p.setColor(QPalette::HighlightedText, white);
  p.setColor(QPalette::PlaceholderText, QColor(80, 80, 80));
  p.setColor(QPalette::Disabled, QPalette::Text, QColor(110, 110, 110));
  p.setColor(QPalette::Disabled, QPalette::WindowText, QColor(110, 110, 110));
  p.setColor(QPalette::Disabled, QPalette::ButtonText, QColor(110, 110, 110));
  app.setPalette(p);
}

}  // namespace launchlab::ui
