#pragma once
/// Export of plots (PNG, PDF, SVG when Qt's SVG module is built in) and data (CSV, JSON, .npy).
/// Every write is atomic: a temporary in the same folder, then rename (QSaveFile); a failed export leaves
/// no file behind and returns the reason.
#include <QByteArray>
#include <QPainter>
#include <QSize>
#include <QString>
#include <optional>

#include "launchlab/engine/result.h"
#include "launchlab/engine/workload.h"
#include "plots/view_style.h"

class QCPPainter;

namespace launchlab::ui {

/// Something that can draw itself at a logical size (1 unit = 1/96 inch): every plot and chart.
class Renderable {
 public:
  virtual ~Renderable() = default;
  /// Draws into `painter` over (0, 0, size). QCPPainter is a QPainter that QCustomPlot needs; other views
  /// (e.g. a GL view drawing its framebuffer image) use it as a plain QPainter.
  virtual void render(QCPPainter& painter, const QSize& size) = 0;
  /// Title for file names and captions, e.g. "out = x + y".
  virtual QString exportTitle() const = 0;
  /// Draws in `style` from now on (an export "as projected"), or in its own style again for nullptr. Plots that
  /// have no style of their own ignore it.
  virtual void projectAs(const ViewStyle* style) { (void)style; }
};

/// The one rule of projectAs for plots with a style: the style to draw in next, `style` while projected or the
/// plot's own again; `own` keeps the plot's own style while it is projected.
inline ViewStyle nextProjectedStyle(const ViewStyle* style, const ViewStyle& current, std::optional<ViewStyle>& own) {
  if (style && !own) own = current;
  const ViewStyle next = style ? *style : own.value_or(current);
  if (!style) own.reset();
  return next;
}

enum class ImageFormat { Png, Pdf, Svg };

struct ExportOptions {
  ImageFormat format = ImageFormat::Png;
  int width = 1200;  ///< logical width (1/96 inch units), caption included
  int height = 700;  ///< logical height, caption included
  int dpi = 192;     ///< raster resolution: a PNG is width * dpi / 96 pixels wide; PDF and SVG are vector
  QString caption;   ///< stamped under the plot; empty: none
  /// As projected: the plot drawn in the presentation style (fonts, lines and colours for the back of a room), as
  /// on a projector whatever the window's mode; the plot keeps its own style on screen.
  bool asProjected = false;
};

struct ExportResult {
  bool ok = false;
  QString message;  ///< what was written, or why nothing was
};

/// true when this build can write SVG (Qt6::Svg was found).
bool svgAvailable();
QString formatSuffix(ImageFormat f);
/// From a file name's suffix (png, pdf, svg); nullopt for anything else.
std::optional<ImageFormat> formatForPath(const QString& path);
/// Pixel size of a PNG export.
QSize rasterSize(const ExportOptions& o);

ExportResult exportPlot(Renderable& plot, const QString& path, const ExportOptions& o);
/// Writes bytes atomically (CSV, JSON).
ExportResult exportBytes(const QString& path, const QByteArray& bytes);
/// CSV and JSON forms of a run (launchlab::csv / launchlab::json).
ExportResult exportRunCsv(const RunResult& r, const QString& path);
ExportResult exportRunJson(const RunResult& r, const QString& path);
/// Kept inputs and outputs as .npy under `folder` (files::saveRunArrays; with `workload`, histogram outputs come
/// with their <output>_bin_edges.npy).
ExportResult exportRunNpy(const RunResult& r, const QString& folder, const WorkloadInfo* workload = nullptr);

}  // namespace launchlab::ui
