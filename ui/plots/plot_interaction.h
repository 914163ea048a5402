#pragma once
/// What every plot does under the mouse: a readout of x and y at the cursor (drawn on a layer of its own, so
/// moving the mouse never replots the data) and box zoom (right-drag, or Shift+drag, draws a rubber band).
#include <QObject>
#include <QString>
#include <functional>

class QCustomPlot;
class QCPItemText;
class QCPLayer;
class QMouseEvent;

namespace launchlab::ui {

/// Removes (and deletes) every item of `plot` but the readout's: QCustomPlot::clearItems would delete the readout
/// label under its PlotInteraction, and the next mouse move would use it.
void clearItemsKeepingReadout(QCustomPlot& plot);

class PlotInteraction final : public QObject {
  Q_OBJECT
 public:
  /// The text for plot coordinates (x, y); empty hides the readout. Default: readoutText with the axis labels.
  using Readout = std::function<QString(double x, double y)>;
  /// Installs itself on `plot` (which owns it).
  explicit PlotInteraction(QCustomPlot* plot, Readout readout = {});
  /// readoutText with the plot's axis labels (their part before any parenthesis) as names.
  static QString axisReadout(const QCustomPlot& plot, double x, double y);
  /// The readout shown now ("" when hidden).
  QString text() const;
  /// Shows the readout for a mouse at `pixel` (widget coordinates), as a mouse move there does.
  void hoverAt(const QPointF& pixel);
  void hide();
  bool eventFilter(QObject* watched, QEvent* event) override;

 private:
  void press(QMouseEvent* e);
  QCustomPlot* m_plot;
  Readout m_readout;
  QCPLayer* m_layer = nullptr;
  QCPItemText* m_label = nullptr;
};

}  // namespace launchlab::ui
