#include "plots/plot_interaction.h"

#include <qcustomplot.h>

#include "models/chart_data.h"

namespace launchlab::ui {

namespace {
std::string axisName(const QCPAxis* a, const char* fallback) {
  const QString l = a->label().section('(', 0, 0).trimmed();  // "kernel time (ms, …)" -> "kernel time"
  return l.isEmpty() ? fallback : l.toStdString();
}
}  // namespace

void clearItemsKeepingReadout(QCustomPlot& plot) {
  QCPLayer* readout = plot.layer("readout");
  for (int i = plot.itemCount() - 1; i >= 0; --i)
    if (plot.item(i)->layer() != readout || !readout) plot.removeItem(i);
}

PlotInteraction::PlotInteraction(QCustomPlot* plot, Readout readout)
    : QObject(plot), m_plot(plot), m_readout(std::move(readout)) {
  if (!m_readout) m_readout = [this](double x, double y) { return axisReadout(*m_plot, x, y); };
  m_plot->addLayer("readout", nullptr, QCustomPlot::limAbove);
  m_layer = m_plot->layer("readout");
  m_layer->setMode(QCPLayer::lmBuffered);
  m_label = new QCPItemText(m_plot);
  m_label->setLayer(m_layer);
  m_label->setClipToAxisRect(false);
  m_label->position->setType(QCPItemPosition::ptAbsolute);
  m_label->setPositionAlignment(Qt::AlignLeft | Qt::AlignBottom);
  m_label->setTextAlignment(Qt::AlignLeft);
  m_label->setPadding(QMargins(5, 3, 5, 3));
  m_label->setBrush(QColor(255, 255, 240, 235));
  m_label->setPen(QPen(QColor(90, 90, 90)));
  m_label->setColor(Qt::black);
  m_label->setVisible(false);
  m_plot->setMouseTracking(true);
  connect(m_plot, &QCustomPlot::mouseMove, this, [this](QMouseEvent* e) { hoverAt(e->position()); });
  connect(m_plot, &QCustomPlot::mousePress, this, [this](QMouseEvent* e) { press(e); });
  m_plot->installEventFilter(this);
}

QString PlotInteraction::axisReadout(const QCustomPlot& plot, double x, double y) {
  return QString::fromStdString(readoutText(axisName(plot.xAxis, "x"), x, axisName(plot.yAxis, "y"), y));
}

QString PlotInteraction::text() const { return m_label->visible() ? m_label->text() : QString(); }

void PlotInteraction::hoverAt(const QPointF& pixel) {
  QCPAxisRect* rect = m_plot->axisRect();
  const QString t = rect->rect().contains(pixel.toPoint())
                        ? m_readout(m_plot->xAxis->pixelToCoord(pixel.x()), m_plot->yAxis->pixelToCoord(pixel.y()))
                        : QString();
  if (t.isEmpty()) return hide();
  m_label->setText(t);
  m_label->setFont(m_plot->xAxis->tickLabelFont());
  // Right of and above the cursor, flipped near the right and top edges so it stays inside.
  const bool left = pixel.x() > rect->right() - 180, below = pixel.y() < rect->top() + 50;
  m_label->setPositionAlignment((left ? Qt::AlignRight : Qt::AlignLeft) | (below ? Qt::AlignTop : Qt::AlignBottom));
  m_label->position->setCoords(pixel.x() + (left ? -12 : 12), pixel.y() + (below ? 12 : -12));
  m_label->setVisible(true);
  m_layer->replot();
}

void PlotInteraction::hide() {
  if (!m_label->visible()) return;
  m_label->setVisible(false);
  m_layer->replot();
}

bool PlotInteraction::eventFilter(QObject* watched, QEvent* event) {
  if (event->type() == QEvent::Leave) hide();
  return QObject::eventFilter(watched, event);
}

void PlotInteraction::press(QMouseEvent* e) {
  // QCustomPlot starts its rubber band on this press when the mode says zoom; a plain drag still pans.
  const bool box = e->button() == Qt::RightButton || e->modifiers().testFlag(Qt::ShiftModifier);
  m_plot->setSelectionRectMode(box ? QCP::srmZoom : QCP::srmNone);
}

}  // namespace launchlab::ui
