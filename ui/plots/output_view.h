#pragma once
/// The plot area's building block: one view per output (or input) array, chosen by plot kind through a
/// factory. The default views draw with QCustomPlot; a GPU-rendered view (CUDA-OpenGL interop) can take a
/// kind's place by installing its own factory, without the main window changing.
#include <QString>
#include <QWidget>
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "plots/export.h"
#include "plots/region_zoom.h"
#include "plots/view_style.h"
#include "runs/controller.h"

namespace launchlab::ui {

/// What a view shows: one array of a finished run, for one source, with the reference beside it.
struct ViewData {
  ArraySpec spec;
  std::shared_ptr<const RunOutcome> outcome;  ///< keeps the arrays alive while shown
  std::string source;                         ///< "input" or the implementation shown
  std::string reference;                      ///< implementation drawn as reference ("" for none)
  int colorIndex = 0;                         ///< palette index of the shown source

  const HostArray* array(const std::string& src) const;  ///< src's array named spec.name, or nullptr
  const PreparedArray* prepared(const std::string& src) const;
  const ImplResult* impl(const std::string& src) const;
  const HostArray* input(const std::string& name) const;
  /// Title of a source for legends ("CPU serial", "input").
  QString sourceTitle(const std::string& src) const;
};

class OutputView : public Renderable {
 public:
  ~OutputView() override = default;
  virtual QWidget* widget() = 0;
  virtual void setData(const ViewData& d) = 0;
  /// A live frame's data: where the user zoomed or panned since the view's data last came in (or since
  /// forgetUserZoom), the axes stay there rather than resetting with every frame.
  virtual void setLiveData(const ViewData& d) { setData(d); }
  /// Forgets the user's zoom (Reset zoom, Show all): the next live frame shows its whole data again.
  virtual void forgetUserZoom() {}
  /// Shows a message instead of data (e.g. "outputs not kept").
  virtual void showMessage(const QString& text) = 0;
  virtual void setViewStyle(const ViewStyle& s) = 0;
  virtual void resetZoom() = 0;
  /// The whole array (a view that starts on a readable window of it shows the rest; others: resetZoom).
  virtual void showAll() { resetZoom(); }
  virtual void setLogY(bool on) = 0;
  /// The part of an image in view (image views only; nullopt otherwise or before data).
  virtual std::optional<ImageWindow> imageWindow() const { return std::nullopt; }
  /// One line about what is drawn ("16,777,216 points drawn as 1,412 min/max columns").
  virtual QString summary() const = 0;
  /// Number of points currently drawn by the main series (tests).
  virtual int drawnPoints() const = 0;
  /// Which path draws the view and why, as its one line on screen ("host upload: GL runs on Mesa llvmpipe (no CUDA
  /// device behind it)", "QCustomPlot: GL views turned off (--no-gl)"); "" for views that only QCustomPlot draws.
  virtual QString drawPath() const { return {}; }
};

using OutputViewFactory = std::function<std::unique_ptr<OutputView>(PlotKind kind, QWidget* parent)>;
/// The QCustomPlot view for a kind.
std::unique_ptr<OutputView> createQcpOutputView(PlotKind kind, QWidget* parent);
/// Blocks on SMs: the Gantt chart of the shown implementation's block trace (ImplResult::blockTrace, not an array),
/// the outputs pane's extra tab when a run has one.
std::unique_ptr<OutputView> makeBlocksOnSmsView(QWidget* parent);
/// First call: the run's first call (with its compile) against the median later call (lesson_data.h's
/// firstCallBars, from metrics, not an array), the outputs pane's first tab for workloads that time it.
std::unique_ptr<OutputView> makeFirstCallView(QWidget* parent);
/// The coalescing lesson's sector picture as two panels, coalesced and strided, each with its sectors per request
/// (lesson_data.h's sectorPanels).
std::unique_ptr<OutputView> makeSectorMapView(QWidget* parent);
/// Creates a view through the installed factory (default: createQcpOutputView).
std::unique_ptr<OutputView> createOutputView(PlotKind kind, QWidget* parent);
/// Installs a factory (e.g. a GL view for Image outputs that falls back to createQcpOutputView otherwise).
void setOutputViewFactory(OutputViewFactory f);

}  // namespace launchlab::ui
