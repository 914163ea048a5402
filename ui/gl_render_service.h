#pragma once
/// The window's render thread: one EGL context and one PlotRenderer (launchlab_gl, Qt-free) on a QThread of their
/// own. Views submit frame requests from the GUI thread and get frames back by queued call; only the newest request
/// per view is rendered (a zoom drag asks for many, the thread renders what is still wanted). Exports ask for one
/// frame synchronously (renderNow). Without launchlab_gl in the build, start() reports that and nothing renders.
#include <QObject>
#include <QPointer>
#include <QThread>

#include <functional>
#include <map>
#include <memory>
#include <mutex>

#include "gl_frame.h"

namespace launchlab::ui {

class GlFrameSource;

class GlRenderService : public QObject {
  Q_OBJECT
 public:
  /// What the context is, once started.
  struct Probe {
    bool ok = false;
    QString line;    ///< ok: "GL runs on Mesa llvmpipe (no CUDA device behind it)"; else why there is no GL
    bool onCudaDevice = false;
    /// Where frames come from: "host upload", or "GPU-rendered: CUDA–OpenGL interop" when the context sits on the
    /// CUDA device and this build has interop (then why not, when it could not be used, is in interopWhyNot).
    QString pathName = "host upload";
    QString interopWhyNot;
    /// Frames come from CUDA device memory through interop (CUDA device cudaOrdinal), so GPU outputs the window
    /// takes from the worker's device memory (device_imports.h) are drawn from there.
    bool interop = false;
    int cudaOrdinal = 0;
  };
  using FrameFn = std::function<void(GlFrame)>;

  GlRenderService();
  ~GlRenderService() override;

  /// Starts the thread and creates the context there (once); ready() follows with the probe.
  void start();
  bool started() const { return m_started; }
  /// Renders `req` for `receiver` (newest request per receiver wins), then calls `done` on the receiver's thread
  /// unless the receiver is gone. Returns at once.
  void submit(QObject* receiver, quint64 generation, GlFrameRequest req, FrameFn done);
  /// Renders `req` now and waits for it (exports). Never call from the render thread.
  GlFrame renderNow(const GlFrameRequest& req);
  /// The device-memory path's seam: where a frame's geometry comes from (default: the host feeder). Render thread
  /// owns it from here on.
  void setFrameSource(std::unique_ptr<GlFrameSource> source);
  /// The frame source's words for the path line ("host upload").
  QString pathName() const { return m_pathName; }

 signals:
  void ready(const launchlab::ui::GlRenderService::Probe& probe);

 private:
  struct Pending {
    QPointer<QObject> receiver;
    quint64 generation = 0;
    GlFrameRequest request;
    FrameFn done;
  };
  struct Gl;  // the context, renderer and frame source (render thread)
  void renderPending();  // render thread

  QThread m_thread;
  QObject* m_worker = nullptr;  ///< lives on m_thread
  std::unique_ptr<Gl> m_gl;     ///< used on m_thread only
  bool m_started = false;
  std::mutex m_mutex;
  std::map<QObject*, Pending> m_pending;
  bool m_posted = false;
  QString m_pathName = "host upload";
};

}  // namespace launchlab::ui

Q_DECLARE_METATYPE(launchlab::ui::GlRenderService::Probe)
