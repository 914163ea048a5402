#include "plots/export.h"

#include <qcustomplot.h>

#include <QDir>
#include <QFileInfo>
#include <QImage>
#include <QPageSize>
#include <QPdfWriter>
#include <QSaveFile>
#include <cmath>
#include <exception>

#include "launchlab/files/csv.h"
#include "launchlab/files/files.h"
#include "launchlab/files/json.h"

#if LAUNCHLAB_HAVE_QTSVG
#include <QSvgGenerator>
#endif

namespace launchlab::ui {

bool svgAvailable() { return LAUNCHLAB_HAVE_QTSVG != 0; }

QString formatSuffix(ImageFormat f) {
  switch (f) {
    case ImageFormat::Png:
      return "png";
    case ImageFormat::Pdf:
      return "pdf";
    case ImageFormat::Svg:
      return "svg";
  }
  return "png";
}

std::optional<ImageFormat> formatForPath(const QString& path) {
  const QString s = QFileInfo(path).suffix().toLower();
  if (s == "png") return ImageFormat::Png;
  if (s == "pdf") return ImageFormat::Pdf;
  if (s == "svg") return ImageFormat::Svg;
  return std::nullopt;
}

QSize rasterSize(const ExportOptions& o) {
  const double s = o.dpi / 96.0;
  return {int(std::lround(o.width * s)), int(std::lround(o.height * s))};
}

namespace {

ExportResult failure(const QString& path, const QString& why) {
  return {false, "could not export " + path + ": " + why};
}

/// Caption strip height for `caption` at `width` with the painter's current font.
int captionHeight(QPainter& p, const QString& caption, int width) {
  if (caption.isEmpty()) return 0;
  const QRect r = p.fontMetrics().boundingRect(QRect(0, 0, width - 16, 10000), Qt::TextWordWrap, caption);
  return r.height() + 12;
}

/// Draws the plot over the top and the caption in a strip under it.
void drawPage(QCPPainter& p, Renderable& plot, const ExportOptions& o) {
  QFont f = p.font();
  f.setPointSizeF(o.asProjected ? 13 : 8);  // as projected, the caption reads from the back of a room too
  p.setFont(f);
  const int capH = std::min(captionHeight(p, o.caption, o.width), o.height / 3);
  p.save();
  plot.render(p, QSize(o.width, o.height - capH));
  p.restore();
  if (capH > 0) {
    p.setFont(f);
    p.setPen(QColor(60, 60, 60));
    p.drawText(QRect(8, o.height - capH + 6, o.width - 16, capH - 6), Qt::TextWordWrap | Qt::AlignLeft | Qt::AlignTop,
               o.caption);
  }
}

/// Draws a page on a vector device (PDF, SVG) with QCustomPlot's vector mode.
void paintVector(QPaintDevice& device, Renderable& plot, const ExportOptions& o, const char* what) {
  QCPPainter p;
  if (!p.begin(&device)) throw std::runtime_error(std::string("cannot start the ") + what);
  p.setMode(QCPPainter::pmVectorized);
  p.setMode(QCPPainter::pmNoCaching);
  drawPage(p, plot, o);
  p.end();
}

bool openSave(QSaveFile& f, QString& why) {
  if (!QFileInfo(QFileInfo(f.fileName()).absolutePath()).isDir()) {
    why = "folder " + QFileInfo(f.fileName()).absolutePath() + " does not exist";
    return false;
  }
  if (!f.open(QIODevice::WriteOnly)) {
    why = f.errorString();
    return false;
  }
  return true;
}

/// Why the options cannot be exported ("" when they can).
QString optionsProblem(const ExportOptions& o) {
  if (o.width < 50 || o.height < 50 || o.width > 20000 || o.height > 20000)
    return "size must be between 50 and 20000 on each side";
  if (o.dpi < 36 || o.dpi > 1200) return "DPI must be between 36 and 1200";
  if (o.format == ImageFormat::Svg && !svgAvailable())
    return "this build has no SVG support (Qt6 Svg module not found); use PNG or PDF";
  const QSize px = rasterSize(o);
  if (o.format == ImageFormat::Png && double(px.width()) * px.height() > 400e6)
    return "the image would have more than 400 megapixels: lower the size or DPI";
  return {};
}

void writePng(QSaveFile& file, Renderable& plot, const ExportOptions& o) {
  QImage img(rasterSize(o), QImage::Format_ARGB32_Premultiplied);
  if (img.isNull()) throw std::runtime_error("not enough memory for the image");
  img.fill(Qt::white);
  {
    QCPPainter p(&img);
    p.setRenderHint(QPainter::Antialiasing);
    p.setRenderHint(QPainter::TextAntialiasing);
    p.scale(o.dpi / 96.0, o.dpi / 96.0);
    drawPage(p, plot, o);
  }
  // Resolution metadata only: drawing used 96 logical units per inch.
  const int dpm = int(std::lround(o.dpi / 0.0254));
  img.setDotsPerMeterX(dpm);
  img.setDotsPerMeterY(dpm);
  if (!img.save(&file, "PNG")) throw std::runtime_error("PNG encoding failed: " + file.errorString().toStdString());
}

void writePdf(QSaveFile& file, Renderable& plot, const ExportOptions& o) {
  QPdfWriter writer(&file);
  writer.setResolution(96);
  writer.setPageSize(QPageSize(QSizeF(o.width * 72.0 / 96.0, o.height * 72.0 / 96.0), QPageSize::Point));
  writer.setPageMargins(QMarginsF(0, 0, 0, 0));
  writer.setCreator("LaunchLab");
  writer.setTitle(plot.exportTitle());
  paintVector(writer, plot, o, "PDF");
}

void writeSvg(QSaveFile& file, Renderable& plot, const ExportOptions& o) {
#if LAUNCHLAB_HAVE_QTSVG
  QSvgGenerator gen;
  gen.setOutputDevice(&file);
  gen.setSize(QSize(o.width, o.height));
  gen.setViewBox(QRect(0, 0, o.width, o.height));
  gen.setResolution(96);
  gen.setTitle(plot.exportTitle());
  gen.setDescription(o.caption);
  paintVector(gen, plot, o, "SVG");
#else
  (void)file, (void)plot, (void)o;
#endif
}

}  // namespace

ExportResult exportPlot(Renderable& plot, const QString& path, const ExportOptions& o) {
  if (const QString why = optionsProblem(o); !why.isEmpty()) return failure(path, why);
  // As projected: the style of a 1080-line projector for the export, the plot's own style back afterwards.
  struct Projected {
    Renderable& plot;
    bool on;
    ~Projected() {
      if (on) plot.projectAs(nullptr);
    }
  } projected{plot, o.asProjected};
  const ViewStyle slide = ViewStyle::presentationStyle(1080);
  if (o.asProjected) plot.projectAs(&slide);
  QSaveFile file(path);
  QString why;
  if (!openSave(file, why)) return failure(path, why);
  try {
    switch (o.format) {
      case ImageFormat::Png:
        writePng(file, plot, o);
        break;
      case ImageFormat::Pdf:
        writePdf(file, plot, o);
        break;
      case ImageFormat::Svg:
        writeSvg(file, plot, o);
        break;
    }
  } catch (const std::exception& e) {
    file.cancelWriting();
    return failure(path, QString::fromUtf8(e.what()));
  }
  if (!file.commit()) return failure(path, file.errorString());
  const QSize px = rasterSize(o);
  return {true, QString("wrote %1 (%2)")
                    .arg(path, o.format == ImageFormat::Png
                                   ? QString("%1 x %2 px, %3 DPI").arg(px.width()).arg(px.height()).arg(o.dpi)
                                   : QString("%1 x %2, vector").arg(o.width).arg(o.height))};
}

ExportResult exportBytes(const QString& path, const QByteArray& bytes) {
  QSaveFile file(path);
  QString why;
  if (!openSave(file, why)) return failure(path, why);
  if (file.write(bytes) != bytes.size()) {
    why = file.errorString();
    file.cancelWriting();
    return failure(path, why);
  }
  if (!file.commit()) return failure(path, file.errorString());
  return {true, QString("wrote %1 (%2 bytes)").arg(path).arg(bytes.size())};
}

ExportResult exportRunCsv(const RunResult& r, const QString& path) {
  return exportBytes(path, QByteArray::fromStdString(csv::runResult(r)));
}

ExportResult exportRunJson(const RunResult& r, const QString& path) {
  return exportBytes(path, QByteArray::fromStdString(json::runResult(r) + "\n"));
}

ExportResult exportRunNpy(const RunResult& r, const QString& folder, const WorkloadInfo* workload) {
  bool any = !r.inputs.empty();
  for (const auto& i : r.impls) any = any || !i.outputs.empty();
  if (!any) return failure(folder, "this run kept no arrays (see the log: outputs are not kept for very large runs)");
  if (!QDir().mkpath(folder)) return failure(folder, "cannot create the folder");
  try {
    const int n = files::saveRunArrays(r, folder.toStdString(), workload);
    return {true, QString("wrote %1 .npy files under %2").arg(n).arg(folder)};
  } catch (const std::exception& e) {
    return failure(folder, QString::fromUtf8(e.what()));
  }
}

}  // namespace launchlab::ui
