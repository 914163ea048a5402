#include "plots/qcp_view_base.h"

#include <algorithm>

namespace launchlab::ui {

// ---- SegmentGraph ----

void SegmentGraph::drawLinePlot(QCPPainter* painter, const QVector<QPointF>& lines) const {
  if (painter->pen().style() == Qt::NoPen || painter->pen().color().alpha() == 0 || lines.size() < 2) return;
  applyDefaultAntialiasingHint(painter);
  // On screen, thin pens become 1-pixel cosmetic ones: the rasterizer's fastest path. Exports (no caching
  // mode: PNG at any DPI, PDF, SVG) keep the real width.
  if (!painter->modes().testFlag(QCPPainter::pmNoCaching) && painter->pen().widthF() <= 1.5) {
    QPen thin = painter->pen();
    thin.setWidth(0);
    painter->setPen(thin);
  }
  QVector<QLineF> segs;
  segs.reserve(lines.size());
  for (int i = 1; i < lines.size(); ++i) {
    const QPointF &a = lines[i - 1], &b = lines[i];
    if (qIsNaN(a.y()) || qIsNaN(b.y()) || qIsNaN(a.x()) || qIsNaN(b.x())) continue;
    segs.push_back(QLineF(a, b));
  }
  painter->drawLines(segs);
}

QCPGraph* addSegmentGraph(QCustomPlot* plot) { return new SegmentGraph(plot->xAxis, plot->yAxis); }

// ---- QcpViewBase ----

QcpViewBase::QcpViewBase(QWidget* parent) : m_plot(new QCustomPlot(parent)) {
  m_plot->setMinimumSize(240, 160);
  m_title = addTitleRow(*m_plot);
  legendBelow(*m_plot);
  m_plot->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
  m_plot->setNoAntialiasingOnDrag(true);
  m_message = new QCPItemText(m_plot);
  m_message->position->setType(QCPItemPosition::ptAxisRectRatio);
  m_message->position->setCoords(0.5, 0.5);
  m_message->setClipToAxisRect(false);
  m_message->setVisible(false);
  m_plot->legend->setVisible(false);  // until there is data: unnamed series would read "Graph 1", "Graph 2"
  // What the user does to the axes (QCustomPlot's own wheel zoom and drag pan), told from what the views do.
  QObject::connect(m_plot, &QCustomPlot::mouseWheel, m_plot, [this] { m_userZoomed = true; });
  QObject::connect(m_plot, &QCustomPlot::mouseMove, m_plot, [this](QMouseEvent* e) {
    if (e->buttons() & Qt::LeftButton) m_userZoomed = true;
  });
  m_interaction = new PlotInteraction(
      m_plot, [this](double x, double y) { return m_message->visible() ? QString() : readout(x, y); });
  applyStyle();
}

QString QcpViewBase::readout(double x, double y) const { return PlotInteraction::axisReadout(*m_plot, x, y); }

QcpViewBase::~QcpViewBase() { delete m_plot.data(); }

void QcpViewBase::render(QCPPainter& painter, const QSize& size) {
  // Vector exports (PDF, SVG) stay vector: the view's own series draw them; raster ones get a GL frame of their size.
  const bool vector = glDraws() && !(painter.device() && painter.device()->devType() == QInternal::Image);
  if (vector) setOwnSeriesVisible(true);
  const QMargins room = m_plot->plotLayout()->margins();  // the path line's, on screen only
  m_plot->plotLayout()->setMargins({});
  m_plot->toPainter(&painter, size.width(), size.height());
  m_plot->plotLayout()->setMargins(room);
  if (vector) setOwnSeriesVisible(false);
}

void QcpViewBase::enableGl(GlLayer::RequestFn request) {
  m_gl = new GlLayer(m_plot, std::move(request));
  m_pathLabel = new QLabel(m_plot);
  m_pathLabel->setObjectName("drawPath");
  m_pathLabel->setAttribute(Qt::WA_TransparentForMouseEvents);
  QObject::connect(m_gl, &GlLayer::activeChanged, m_plot, [this] { syncGl(); });
  QObject::connect(m_plot, &QCustomPlot::afterLayout, m_pathLabel, [this] { placePathLabel(); });
  syncGl();
}

void QcpViewBase::syncGl() {
  setOwnSeriesVisible(!glDraws());
  m_pathLabel->setText(m_gl->pathLine());
  m_pathLabel->setToolTip(
      "Which path draws this plot, and why (launchlab --no-gl, or the OpenGL plots button, turns "
      "GL views off)");
  placePathLabel();
  // The path line is for the desk; on a projector it would only take the stage's room.
  m_pathLabel->setVisible(!m_style.presentation);
  m_plot->plotLayout()->setMargins(
      QMargins(0, 0, 0, m_style.presentation ? 0 : m_pathLabel->height()));  // under the legend, never over it
  replotWhenVisible(*m_plot);
}

void QcpViewBase::placePathLabel() {
  QFont f = m_style.font(0.8);
  m_pathLabel->setFont(f);
  // The whole line when it fits; else without the renderer's details; else cut with an ellipsis (the log has it all).
  const QFontMetrics fm(f);
  const int room = std::max(40, m_plot->width() - 8);
  QString text = m_gl ? m_gl->pathLine() : m_pathLabel->text();
  if (m_gl && fm.horizontalAdvance(text) > room) text = m_gl->pathLine(true);
  m_pathLabel->setText(fm.elidedText(text, Qt::ElideRight, room));
  m_pathLabel->setStyleSheet(
      QString("color: %1; background: transparent;").arg(toQColor(m_style.palette->grid).darker(160).name()));
  m_pathLabel->adjustSize();
  m_pathLabel->move(std::max(0, m_plot->width() - m_pathLabel->width() - 4),
                    m_plot->height() - m_pathLabel->height() - 1);
}

GlFrameRequest QcpViewBase::glRequestOf(GlDraw kind, const HostArray* array, QSize pixels) const {
  GlFrameRequest q;
  q.kind = kind;
  q.keep = m_data.outcome;
  q.array = array;
  q.pixels = pixels;
  const QCPRange x = m_plot->xAxis->range(), y = m_plot->yAxis->range();
  q.range = q.drawRange = {x.lower, x.upper, y.lower, y.upper};
  q.logY = m_logY;
  return q;
}

double QcpViewBase::glScale(const QSize& pixels) const {
  const int w = m_plot->axisRect()->width();
  return w > 0 && pixels.width() > 0 ? double(pixels.width()) / w : 1.0;
}

QString QcpViewBase::exportTitle() const { return m_title->text(); }

void QcpViewBase::showMessage(const QString& text) {
  clearData();
  if (m_gl) m_gl->clear();
  m_summary.clear();
  m_plot->legend->setVisible(false);
  m_interaction->hide();
  m_message->setText(text);
  m_message->setVisible(true);
  replotWhenVisible(*m_plot);
}

void QcpViewBase::setViewStyle(const ViewStyle& s) {
  m_style = s;
  applyStyle();
  restyle();
  if (m_data.outcome && !m_message->visible()) m_title->setText(titleText());
  glDataChanged();
  if (m_gl) syncGl();
  replotWhenVisible(*m_plot);
}

void QcpViewBase::projectAs(const ViewStyle* style) { setViewStyle(nextProjectedStyle(style, m_style, m_ownStyle)); }

void QcpViewBase::setLiveData(const ViewData& d) {
  const bool zoomed = m_userZoomed;
  const QCPRange x = m_plot->xAxis->range(), y = m_plot->yAxis->range();
  setData(d);  // resets the axes to the new data
  if (!zoomed || m_message->visible()) return;
  m_plot->xAxis->setRange(x);
  m_plot->yAxis->setRange(y);
  m_userZoomed = true;
  replotWhenVisible(*m_plot);
}

void QcpViewBase::setLogY(bool on) {
  m_logY = on;
  setAxisLog(*m_plot->yAxis, on);
  resetZoom();
}

void QcpViewBase::applyStyle() {
  applyPlotStyle(*m_plot, m_style);
  styleTitle(*m_title, m_style);
  m_message->setFont(m_style.font(1.2));
  m_message->setColor(toQColor(m_style.palette->foreground));
}

void QcpViewBase::begin(const ViewData& d) {
  m_data = d;
  m_userZoomed = false;
  restyle();  // the shown source's colour: the same one before, during and after presentation mode
  m_message->setVisible(false);
  m_plot->legend->setVisible(m_useLegend);
  m_plot->xAxis->setLabel(QString::fromStdString(d.spec.xLabel));
  m_plot->yAxis->setLabel(QString::fromStdString(d.spec.yLabel));
  m_title->setText(titleText());
}

QString QcpViewBase::titleText() const {
  const ViewData& d = m_data;
  const QString spec = QString::fromStdString(d.spec.title.empty() ? d.spec.name : d.spec.title);
  // On a projector the title is one line: the stage's header names the experiment and the implementation shown.
  // At a desk, long titles go on two lines rather than off both edges.
  QString t = m_style.presentation
                  ? spec
                  : spec + (spec.size() + d.sourceTitle(d.source).size() > 60 ? "\n" : "  \xE2\x80\x94  ") +
                        d.sourceTitle(d.source);
  // A timeline's unused columns are NaN by design (launchlab/explorer/timeline.h): not unwritten elements.
  if (const auto* p = d.prepared(d.source); p && p->nanCount && d.spec.plot != PlotKind::Timeline)
    t += QString("  (%1 unwritten: NaN)").arg(countText(p->nanCount));
  return t;
}

void QcpViewBase::showNoData() { showMessage("no data for " + m_data.sourceTitle(m_data.source)); }

std::vector<std::uint64_t> QcpViewBase::mismatches() const {
  const ImplResult* i = m_data.impl(m_data.source);
  if (!i || i->verification.mismatches == 0) return {};
  return i->verification.firstMismatches;
}

void QcpViewBase::labelMismatches(QCPAbstractPlottable* bad, bool any) const {
  const ImplResult* i = m_data.impl(m_data.source);
  bad->setName(
      QString("mismatch (first %1 of %2)").arg(mismatches().size()).arg(countText(i ? i->verification.mismatches : 0)));
  showInLegend(bad, any);
}

void QcpViewBase::labelReference(QCPAbstractPlottable* ref, bool shown) const {
  ref->setName(m_data.sourceTitle(m_data.reference) + " (reference)");
  showInLegend(ref, shown);
}

void QcpViewBase::showInLegend(QCPAbstractPlottable* p, bool on) {
  if (on)
    p->addToLegend();
  else
    p->removeFromLegend();
}

QPen QcpViewBase::refPen(double widthScale) const {
  const QColor c = m_style.referenceColor(), bg = toQColor(m_style.palette->background);
  const QColor light((c.red() + 2 * bg.red()) / 3, (c.green() + 2 * bg.green()) / 3, (c.blue() + 2 * bg.blue()) / 3);
  return QPen(light, m_style.lineWidth * widthScale);
}

void QcpViewBase::styleMismatchGraph(QCPGraph* g) const {
  g->setLineStyle(QCPGraph::lsNone);
  g->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, QPen(m_style.mismatchColor(), m_style.lineWidth + 0.6),
                                     Qt::NoBrush, m_style.markerSize + 4));
  g->setPen(QPen(m_style.mismatchColor(), m_style.lineWidth));
}

int QcpViewBase::columns() const {
  const int w = m_plot->axisRect()->width();
  return std::clamp(w > 10 ? w : 1200, 100, 8192);
}

void QcpViewBase::setYRange(double lo, double hi) {
  const auto r = paddedRange(lo, hi, m_logY, 0.06);
  m_plot->yAxis->setRange(r.lo, r.hi);
}

}  // namespace launchlab::ui
