#pragma once
/// The block x grid heatmap of a sweep (sweep_map.h): a QCustomPlot colour map with its colour bar, block sizes
/// across and grid sizes up, a hover readout of the cell under the mouse, and a click that picks a cell (the pane
/// shows its report). Cells with nothing measured are grey with a cross; small maps print each value in its cell.
#include <QObject>
#include <QPointer>
#include <optional>
#include <utility>

#include "launchlab/explorer/sweep_map.h"
#include "plots/export.h"
#include "plots/view_style.h"

class QCustomPlot;
class QCPColorMap;
class QCPColorScale;
class QCPTextElement;
class QMouseEvent;

namespace launchlab::ui {

class PlotInteraction;

class SweepHeatmap final : public QObject, public Renderable {
  Q_OBJECT
 public:
  explicit SweepHeatmap(QWidget* parent);
  ~SweepHeatmap() override;
  QWidget* widget();
  /// Shows `map` coloured by `metric`, titled `title`; a map with a problem shows the problem instead.
  void setMap(SweepMap map, SweepMetric metric, const QString& title);
  const SweepMap& map() const { return m_map; }
  /// (block index, grid index) of the cell at plot coordinates, if any.
  std::optional<std::pair<std::size_t, std::size_t>> cellAt(double x, double y) const;
  /// The readout for plot coordinates: "block 256 x grid 528: 0.412 ms" ("" off the map).
  QString readoutAt(double x, double y) const;
  /// Picks the cell as a click on it does.
  void clickCell(std::size_t block, std::size_t grid);
  /// Picks the best measured cell (the shortest time, the most GB/s or % of cudaMemcpy), if any.
  void pickBest();
  PlotInteraction* interaction() const { return m_interaction; }
  QString titleText() const;
  void setViewStyle(const ViewStyle& s);
  void render(QCPPainter& painter, const QSize& size) override;
  QString exportTitle() const override;

 signals:
  /// A cell was clicked: the index of its point (in the points the map was made from), -1 for an empty cell.
  void cellClicked(int point);

 private:
  void rebuild();
  void markCells();
  void released(QMouseEvent* e);
  QString valueText(double v) const;
  QPointer<QCustomPlot> m_plot;
  QCPColorMap* m_colors = nullptr;
  QCPColorScale* m_scale = nullptr;
  QCPTextElement* m_title = nullptr;
  PlotInteraction* m_interaction = nullptr;
  SweepMap m_map;
  SweepMetric m_metric = SweepMetric::TimeMs;
  QString m_titleText;
  ViewStyle m_style;
  std::optional<std::pair<std::size_t, std::size_t>> m_picked;
};

}  // namespace launchlab::ui
