#pragma once
/// What every QCustomPlot output view shares: the plot with its title row, a centred message, style
/// handling, the reference and mismatch conventions, and the graph that draws dense lines segment by segment.
/// Each view lives in its own file (waveform_view.cpp, scatter_view.cpp, …) behind a make function, and
/// qcp_view_factory.cpp picks one per PlotKind.
#include <qcustomplot.h>

#include <QLabel>
#include <QLocale>
#include <QPointer>
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "gl/gl_views.h"
#include "models/text.h"
#include "plots/output_view.h"
#include "plots/plot_interaction.h"

namespace launchlab::ui {

inline QVector<double> qv(const std::vector<double>& v) { return QVector<double>(v.begin(), v.end()); }

/// A graph whose line is drawn segment by segment. QPainter strokes a polyline as one outline, and a wide
/// pen over a jagged polyline (dense data, min/max edges) makes that outline self-overlap everywhere, which
/// takes seconds to fill; separate segments stay linear in their count at any width and DPI.
class SegmentGraph final : public QCPGraph {
 public:
  SegmentGraph(QCPAxis* key, QCPAxis* value) : QCPGraph(key, value) {}

 protected:
  void drawLinePlot(QCPPainter* painter, const QVector<QPointF>& lines) const override;
};

/// A SegmentGraph on the plot's x and y axes (the plot owns it).
QCPGraph* addSegmentGraph(QCustomPlot* plot);

/// Shared by every QCustomPlot view: the plot, its title row, a centred message and style handling.
class QcpViewBase : public OutputView {
 public:
  explicit QcpViewBase(QWidget* parent);
  ~QcpViewBase() override;

  QWidget* widget() override { return m_plot; }
  void render(QCPPainter& painter, const QSize& size) override;
  QString exportTitle() const override;
  void showMessage(const QString& text) override;
  void setViewStyle(const ViewStyle& s) override;
  void projectAs(const ViewStyle* style) override;
  void setLogY(bool on) override;
  void setLiveData(const ViewData& d) override;
  void forgetUserZoom() override { m_userZoomed = false; }
  QString summary() const override { return m_summary; }
  int drawnPoints() const override { return m_drawn; }
  QString drawPath() const override { return m_gl ? m_gl->pathLine() : QString(); }
  /// The GL frame of the views that have one (gl_views.h), else null.
  GlLayer* glLayer() const { return m_gl; }
  /// The path line under the plot (null for views only QCustomPlot draws).
  QLabel* pathLabel() const { return m_pathLabel; }

 protected:
  /// The most points a scatter or series draws per source (an even sample beyond that).
  static constexpr std::size_t kMaxPoints = 20000;

  virtual void restyle() = 0;
  virtual void clearData() = 0;
  /// The hover readout at plot coordinates (x, y); default: both axes' labels and values.
  virtual QString readout(double x, double y) const;
  /// Shows or hides the series the GL frame draws instead (GL views only).
  virtual void setOwnSeriesVisible(bool) {}

  /// Gives the view a GL frame (gl_views.h) and its path line; `request` describes a frame of the current data.
  void enableGl(GlLayer::RequestFn request);
  /// GL draws the data now.
  bool glDraws() const { return m_gl && m_gl->active(); }
  /// The data changed (GL views ask for a new frame).
  void glDataChanged() {
    if (m_gl) m_gl->dataChanged();
  }
  /// A frame request of `kind` for `array` of the shown run at `pixels`, over the axes' current ranges.
  GlFrameRequest glRequestOf(GlDraw kind, const HostArray* array, QSize pixels) const;
  /// The ratio of framebuffer pixels to the axis rect's logical pixels of a request of `pixels`.
  double glScale(const QSize& pixels) const;

  void applyStyle();
  /// Prepares for new data: hides the message, sets title and axis labels.
  void begin(const ViewData& d);
  /// The plot's title for the data shown: one line in presentation mode, the source named at a desk.
  QString titleText() const;
  /// The message for a source without this array.
  void showNoData();
  /// The shown implementation's mismatching indices (first ones the engine kept).
  std::vector<std::uint64_t> mismatches() const;
  /// Names the mismatch series ("mismatch (first 3 of 1,024)") and lists it in the legend when it has points.
  void labelMismatches(QCPAbstractPlottable* bad, bool any) const;
  bool showReference() const { return !m_data.reference.empty() && m_data.reference != m_data.source; }
  /// Names the reference series and lists it in the legend when it is drawn.
  void labelReference(QCPAbstractPlottable* ref, bool shown) const;
  static void showInLegend(QCPAbstractPlottable* p, bool on);
  QPen mainPen() const { return QPen(m_style.seriesColor(m_data.colorIndex), m_style.lineWidth); }
  /// The reference, lighter and wider, under the shown series. Opaque on purpose: a wide translucent polyline
  /// must be stroked as one self-overlapping path, which is orders of magnitude slower to rasterize.
  QPen refPen(double widthScale = 1.0) const;
  void styleMismatchGraph(QCPGraph* g) const;
  /// Pixel columns of the plot area (for decimation).
  int columns() const;
  void setYRange(double lo, double hi);

  QPointer<QCustomPlot> m_plot;
  QCPTextElement* m_title = nullptr;
  QCPItemText* m_message = nullptr;
  ViewStyle m_style;
  ViewData m_data;
  bool m_logY = false;
  bool m_useLegend = true;  ///< the legend shows with data (never over a message: it would list unnamed series)
  PlotInteraction* m_interaction = nullptr;
  QString m_summary;
  int m_drawn = 0;
  GlLayer* m_gl = nullptr;
  QLabel* m_pathLabel = nullptr;
  bool m_userZoomed = false;            ///< the wheel or a drag moved the axes since the data came in
  std::optional<ViewStyle> m_ownStyle;  ///< while projected (projectAs): the style to return to

 private:
  void syncGl();
  void placePathLabel();
};

/// The views, one per PlotKind (each in its own file).
std::unique_ptr<OutputView> makeWaveformView(QWidget* parent);
std::unique_ptr<OutputView> makeScatterView(QWidget* parent);
std::unique_ptr<OutputView> makeHistogramView(QWidget* parent);
std::unique_ptr<OutputView> makeImageView(QWidget* parent);
std::unique_ptr<OutputView> makeScalarView(QWidget* parent);
std::unique_ptr<OutputView> makeSeriesView(QWidget* parent);
std::unique_ptr<OutputView> makePointsView(QWidget* parent);
std::unique_ptr<OutputView> makeTimelineView(QWidget* parent);

}  // namespace launchlab::ui
