#pragma once
/// The window's render thread: one EGL context and one PlotRenderer (launchlab_gl, Qt-free) on a QThread of their
/// own. Views submit frame requests from the GUI thread and get frames back by queued call; only the newest request
/// per view is rendered (a zoom drag asks for many, the thread renders what is still wanted). Exports ask for one
/// frame synchronously (renderNow). Without launchlab_gl in the build, start() reports that and nothing renders.
///
/// GL checks (the canary, launchlab/gl/canary.h): the thread draws a tiny known frame and compares its pixels when
/// it starts, before the next frame after the window asks (a run ended in a CUDA fault: requestCanary), and after any
/// frame that took longer than kCheckFrameMs (that frame is delivered only once the check passed). A wrong or late
/// check makes the thread unhealthy for good: it draws nothing more, every frame comes back as an error, and
/// canaryChecked() tells the window (GlViews turns GL views off).
#include <QObject>
#include <QPointer>
#include <QThread>
#include <atomic>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <vector>

#include "gl/gl_frame.h"

namespace launchlab::ui {

class GlFrameSource;

class GlRenderService : public QObject {
  Q_OBJECT
 public:
  /// What the context is, once started.
  struct Probe {
    bool ok = false;
    QString line;  ///< ok: "GL runs on Mesa llvmpipe (no CUDA device behind it)"; else why there is no GL
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

  enum class CanaryCause { Start, CudaFault, SlowFrame };
  /// The outcome of one GL check.
  struct CanaryVerdict {
    bool passed = false;
    CanaryCause cause = CanaryCause::Start;
    /// Passed: "OpenGL drew its test frame right after a CUDA fault (0.4 ms)". Failed: what every plot says, e.g.
    /// "OpenGL gave a wrong test frame after a CUDA fault; plots are drawn by QCustomPlot until LaunchLab restarts".
    QString line;
    int mismatches = 0;  ///< pixels off by more than one unit (-1: the frame could not be drawn)
    double ms = 0;       ///< the check's time on the render thread
  };
  /// A frame slower than this is checked before it is shown; a check slower than kCanaryLateMs fails.
  static constexpr double kCheckFrameMs = 1000;
  static constexpr double kCanaryLateMs = 1000;
  /// Test seams (process-wide; set them before the frames they should affect): what the check reads back, the
  /// time a frame or a check is taken to have lasted. Empty functions: none.
  struct TestHooks {
    std::function<void(std::vector<std::uint8_t>&)> canaryReadback;
    std::function<double(double)> frameMs;
    std::function<double(double)> canaryMs;
  };
  static void setTestHooks(TestHooks hooks);

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
  /// Asks for a GL check before the next frame is drawn (a run ended in a CUDA fault), and makes sure the render
  /// thread runs it even when no frame is asked for.
  void requestCanary(CanaryCause cause);
  /// How many checks the window asked for so far: frames whose checkedEpoch is lower predate the last request.
  quint64 canaryWanted() const { return m_canaryWanted.load(); }

 signals:
  void ready(const launchlab::ui::GlRenderService::Probe& probe);
  void canaryChecked(const launchlab::ui::GlRenderService::CanaryVerdict& verdict);

 private:
  struct Pending {
    QPointer<QObject> receiver;
    quint64 generation = 0;
    GlFrameRequest request;
    FrameFn done;
  };
  struct Gl;             // the context, renderer and frame source (render thread)
  void renderPending();  // render thread
  /// Renders `req` after any check that is due; a slow frame is checked before it is returned (render thread).
  GlFrame renderChecked(const GlFrameRequest& req);
  /// Runs one check and tells the window (render thread); false when it failed.
  bool runCanary(CanaryCause cause, double slowFrameMs = 0);
  void runWantedCanary();  // render thread

  QThread m_thread;
  QObject* m_worker = nullptr;  ///< lives on m_thread
  std::unique_ptr<Gl> m_gl;     ///< used on m_thread only
  bool m_started = false;
  std::mutex m_mutex;
  std::map<QObject*, Pending> m_pending;
  bool m_posted = false;
  QString m_pathName = "host upload";
  std::atomic<quint64> m_canaryWanted{0};
  std::atomic<int> m_wantedCause{0};
  quint64 m_canaryDone = 0;  ///< render thread
  QString m_unhealthy;       ///< render thread: the failed check's line, or ""
};

}  // namespace launchlab::ui

Q_DECLARE_METATYPE(launchlab::ui::GlRenderService::Probe)
Q_DECLARE_METATYPE(launchlab::ui::GlRenderService::CanaryVerdict)
