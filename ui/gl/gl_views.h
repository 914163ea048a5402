#pragma once
/// GL views in the window (docs/ARCHITECTURE.md, "GPU-rendered plots"): the waveform, histogram,
/// image and points views draw their data with launchlab_gl on a render thread (EGL context + FBO, no
/// QOpenGLWidget) and paint the frame read back into the QCustomPlot axis rect, while QCustomPlot keeps axes,
/// legend, titles and the overlays (reference, mismatches). When GL is off (--no-gl, the setting) or cannot start,
/// QCustomPlot draws everything, and each view says which path draws it in one line.
#include <qcustomplot.h>

#include <QImage>
#include <QObject>
#include <QPointer>
#include <QString>
#include <functional>
#include <memory>
#include <optional>
#include <vector>

#include "gl/gl_frame.h"
#include "gl/gl_render_service.h"

namespace launchlab::ui {

/// Process-wide: whether GL views are on, the render thread, and the path line every GL view shows.
class GlViews : public QObject {
  Q_OBJECT
 public:
  enum class State { Off, Starting, Failed, Ready };
  static GlViews& instance();

  /// On: starts the render thread, whose context is made there (changed() follows). Off: QCustomPlot draws, and the
  /// path line says `offReason` ("--no-gl", "setting: Draw plots with OpenGL is off").
  void configure(bool on, const QString& offReason);
  State state() const { return m_state; }
  /// Ready, with frames built from CUDA device memory through interop on CUDA device `*cudaOrdinal`.
  bool interop(int* cudaOrdinal = nullptr) const {
    if (cudaOrdinal) *cudaOrdinal = m_probe.cudaOrdinal;
    return m_state == State::Ready && m_probe.interop;
  }
  /// "host upload: GL runs on Mesa llvmpipe (no CUDA device behind it)", "QCustomPlot: GL views turned off
  /// (--no-gl)", "QCustomPlot: no usable OpenGL (<why>)", "QCustomPlot: starting OpenGL…", "QCustomPlot: OpenGL
  /// gave a wrong test frame after a CUDA fault; plots are drawn by QCustomPlot until LaunchLab restarts".
  QString pathLine() const;
  /// Where GL runs ("GL runs on NVIDIA H200 (EGL device of CUDA device 0)"), or "" before it started.
  QString contextLine() const { return m_probe.ok ? m_probe.line : QString(); }
  /// Ready: the path's name alone ("GPU-rendered: CUDA\u2013OpenGL interop", "host upload"); else pathLine().
  QString pathName() const;
  /// The render thread while Starting or Ready, else null.
  GlRenderService* service() {
    return m_state == State::Starting || m_state == State::Ready ? m_service.get() : nullptr;
  }
  /// Blocks until the state is no longer Starting (tests, screenshots); false on timeout.
  bool waitReady(int timeoutMs = 10000);
  /// "GL frame 0.84 ms (framebuffer 0.01, feed 0.40, draw 0.12, read back 0.31)": the last frame any view showed,
  /// on the render thread; "" before the first (GUI thread).
  QString lastFrameTimes() const { return m_lastFrameTimes; }
  void noteFrameShown(const GlFrame& f);

  /// The one owner of "GL is unhealthy". The render thread checks GL with a known frame (the canary,
  /// GlRenderService) when it starts, before the next frame after a run that ended in a CUDA fault
  /// (checkAfterCudaFault), and after any frame slower than a second (a stalled GL, as after a fault nobody reported);
  /// a wrong or late check puts every view on QCustomPlot, their path line says why, until LaunchLab restarts
  /// (turning OpenGL plots off and on does not bring GL back: the driver stays broken for this process).
  void checkAfterCudaFault();
  /// Runs that end in a CUDA fault (RunController::cudaFault) ask for the check.
  void watch(RunController& controller);
  /// The failed check's line ("OpenGL gave a wrong test frame after a CUDA fault; …"), or "" while GL is trusted.
  QString unhealthy() const { return m_unhealthy; }
  /// The checks seen so far and the last one's line (tests, the log).
  int canariesChecked() const { return m_canaries; }
  QString lastCanary() const { return m_lastCanary; }
  /// The check the window asked for last (frames drawn before it are dropped: GlFrame::checkedEpoch).
  quint64 canaryWanted() const { return m_service ? m_service->canaryWanted() : 0; }

 signals:
  void changed();
  /// A GL check's verdict (passed or not), after `changed` when it turned GL views off.
  void canaryChecked(const QString& line, bool passed);

 private:
  GlViews() = default;
  void onReady(const GlRenderService::Probe& p);
  void onCanary(const GlRenderService::CanaryVerdict& v);
  std::unique_ptr<GlRenderService> m_service;
  std::vector<std::unique_ptr<GlRenderService>> m_retired;  ///< unhealthy render threads, ended at exit
  QString m_unhealthy;
  int m_canaries = 0;
  QString m_lastCanary;
  State m_state = State::Off;
  QString m_offReason = "not turned on";
  GlRenderService::Probe m_probe;
  QString m_lastFrameTimes;
};

/// Whether a plot kind has a GL view.
bool hasGlView(PlotKind kind);

/// The GL frame of one QCustomPlot view, on a layer "gl" right above "main": paints the last frame into the axis
/// rect, mapped from the axis range it was rendered for to the current one (zoom and pan show the old frame scaled
/// until the new one arrives; frames older than the one shown are dropped). Asks for a new frame when the range,
/// the size or the data changed. Raster exports render a frame at the export size; vector exports draw nothing
/// here (the view's own series draw).
class GlLayer : public QCPLayerable {
  Q_OBJECT
 public:
  /// The view's frame request for a framebuffer of `pixels`, from its data and current axis ranges (nullopt: no
  /// data to draw).
  using RequestFn = std::function<std::optional<GlFrameRequest>(QSize pixels)>;
  GlLayer(QCustomPlot* plot, RequestFn request);

  /// GL draws this view's data: GL views are ready and no frame of this view failed.
  bool active() const;
  /// The view's path line: the process's, or this view's failure. `brief`: without the renderer's details ("GL runs
  /// on ..."), for a plot too narrow for the whole line.
  QString pathLine(bool brief = false) const;
  /// The data or its style changed: a new frame is asked for at the next replot (the old one stays until then).
  void dataChanged();
  /// No data: the frame goes.
  void clear();
  const QImage& image() const { return m_image; }
  int framesShown() const { return m_framesShown; }
  double lastRenderMs() const { return m_renderMs; }
  /// Smooth scaling of the frame (off for images: texels stay sharp).
  void setSmooth(bool on) { m_smooth = on; }

 signals:
  /// A frame arrived and is on screen (after the replot it asked for).
  void frameShown();
  /// active() changed (a frame failed, or GL views started or stopped): the view shows or hides its own series.
  void activeChanged();

 protected:
  void applyDefaultAntialiasingHint(QCPPainter*) const override {}
  QRect clipRect() const override;
  void draw(QCPPainter* painter) override;

 private:
  void onFrame(GlFrame f);
  void drawFrame(QCPPainter* painter, const QImage& image, const GlRange& range) const;
  /// Renders the frame of a raster export at its size, synchronously.
  void drawExport(QCPPainter* painter);

  RequestFn m_request;
  QImage m_image;
  GlRange m_range;
  quint64 m_generation = 0, m_shownGeneration = 0, m_version = 1;
  struct Key {
    QSize pixels;
    GlRange range;
    quint64 version = 0;
    bool operator==(const Key&) const = default;
  } m_asked;
  QString m_failure;
  QString m_dataNote;         ///< the last frame's (GlFrame::dataNote)
  QString m_path, m_pathWhy;  ///< the last frame's path and why (GlFrame::path, pathWhy)
  int m_framesShown = 0;
  double m_renderMs = 0;
  bool m_smooth = true;
};

}  // namespace launchlab::ui
