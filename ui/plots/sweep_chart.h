#pragma once
/// The block-size sweep chart: time and GB/s against threads per block, drawn point by point as a sweep measures,
/// with theoretical occupancy curves on a right-hand axis.
#include <QPointer>
#include <QWidget>
#include <vector>

#include "models/chart_data.h"
#include "models/occupancy_curves.h"
#include "plots/export.h"
#include "plots/view_style.h"

class QCustomPlot;
class QCPTextElement;
class QCPAxis;

namespace launchlab::ui {

class SweepChart final : public Renderable {
 public:
  explicit SweepChart(QWidget* parent);
  ~SweepChart() override;
  QWidget* widget();
  /// Starts an empty sweep of `implTitle`, whose points come one by one as they are measured (addPoint).
  void begin(const QString& implTitle, const QString& setupText);
  void addPoint(const SweepPoint& p);
  /// Shows a whole sweep (a recorded one, or a live one redrawn): drawn once, each series given all its points in
  /// one call, however many there are.
  void setPoints(const QString& implTitle, const QString& setupText, std::vector<SweepPoint> points);
  void clear();
  const std::vector<SweepPoint>& points() const { return m_points; }
  /// Overlays theoretical occupancy curves (occupancy_curves.h) on their own right-hand axis titled `label`;
  /// empty curves remove them.
  void setOccupancy(const QString& label, std::vector<OccupancyCurve> curves);
  const std::vector<OccupancyCurve>& occupancy() const { return m_occupancy; }
  QString occupancyLabel() const;
  void setViewStyle(const ViewStyle& s);
  void render(QCPPainter& painter, const QSize& size) override;
  QString exportTitle() const override;

 private:
  void rebuild();
  void setupAxes();
  bool plotPoints();
  void showNothingMeasured();
  void plotOccupancy();
  QPointer<QCustomPlot> m_plot;
  QCPTextElement* m_title = nullptr;
  QCPAxis* m_occupancyAxis = nullptr;
  std::vector<SweepPoint> m_points;
  std::vector<OccupancyCurve> m_occupancy;
  QString m_implTitle, m_setup;
  ViewStyle m_style;
};

}  // namespace launchlab::ui
