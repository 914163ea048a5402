#pragma once
/// What a GL view asks the render thread for, and what comes back: plain data (no GL, no EGL types), so the views
/// build in every configuration. The render thread (gl_render_service.h) turns a request into pixels with
/// launchlab_gl's PlotRenderer, the geometry coming from a frame source (the host feeder here; the device-memory
/// path plugs in there later).
#include <QColor>
#include <QImage>
#include <QSize>
#include <QString>
#include <cstdint>
#include <memory>

#include "runs/controller.h"

namespace launchlab::ui {

enum class GlDraw { Waveform, Histogram, Image, Points };

/// Axis coordinates the frame covers: x0..x1 left to right, y0..y1 bottom to top (image: columns and rows).
struct GlRange {
  double x0 = 0, x1 = 1, y0 = 0, y1 = 1;
  bool operator==(const GlRange&) const = default;
};

struct GlFrameRequest {
  GlDraw kind = GlDraw::Waveform;
  std::shared_ptr<const RunOutcome> keep;  ///< keeps `array` alive while the render thread reads it
  const HostArray* array = nullptr;
  QSize pixels;   ///< framebuffer size in device pixels
  GlRange range;  ///< axis coordinates mapped onto the framebuffer
  /// Renderer coordinates when they differ from the axis ones (histogram: bars; waveform: element indices, the
  /// axis ones); the same as `range` otherwise.
  GlRange drawRange;
  bool logY = false;
  std::uint64_t begin = 0, end = 0;    ///< waveform: the visible elements
  std::uint32_t columns = 0;           ///< waveform: pixel columns (M4)
  std::uint32_t maxBars = 512;         ///< histogram
  int cols = 0, rows = 0;              ///< image
  double lo = 0, hi = 1;               ///< image: the colour scale's range
  std::uint64_t maxPoints = 1u << 21;  ///< points
  QColor color, color2;                ///< series (points: inside, outside); opaque
  float lineWidth = 1, pointSize = 3;  ///< device pixels
};

/// A rendered frame: the image (premultiplied-free RGBA, transparent where nothing was drawn) and the axis range it
/// covers, or why there is none.
struct GlFrame {
  quint64 generation = 0;
  QImage image;
  GlRange range;
  QString error;     ///< "" when the image is good
  QString dataNote;  ///< where the frame's data came from (GlFrameSource::dataNote), or ""
  QString path;      ///< the frame source that fed it ("host upload", "GPU-rendered: CUDA\u2013OpenGL interop")
  QString pathWhy;   ///< why that path, when the render thread chose between two (gl_path.h), or ""
  /// The last GL check (canary) the render thread had made when it drew this frame: a frame older than the check
  /// the window asked for last (GlRenderService::canaryWanted) may be wrong and is never shown.
  quint64 checkedEpoch = 0;
  double renderMs = 0;  ///< feed + draw + read back on the render thread
  /// Where renderMs went: the framebuffer (resize + clear), the feed, the draw, the read back.
  double stageMs[4] = {0, 0, 0, 0};
};

}  // namespace launchlab::ui
