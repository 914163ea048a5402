#include "gl/gl_render_service.h"

#include <QElapsedTimer>
#include <QMetaObject>
#include <utility>

#include "gl/device_imports.h"
#include "gl/gl_frame_source.h"
#include "gl/gl_path.h"
#if LAUNCHLAB_UI_INTEROP
#include "gl/gl_interop_source.h"
#endif
#if LAUNCHLAB_UI_GL
#include "launchlab/gl/canary.h"
#include "launchlab/gl/egl_context.h"
#include "launchlab/gl/host_feeder.h"
#include "launchlab/plot/colormap_lut.h"
#endif

namespace launchlab::ui {

#if LAUNCHLAB_UI_GL
namespace {

class HostFrameSource final : public GlFrameSource {
 public:
  gl::Expected<std::size_t> feed(gl::PlotRenderer& r, const GlFrameRequest& q) override {
    const HostArray& a = *q.array;
    switch (q.kind) {
      case GlDraw::Waveform:
        return gl::feedWaveform(r, a.data(), a.dtype(), q.begin, q.end, q.columns);
      case GlDraw::Histogram:
        return gl::feedHistogram(r, a.data(), a.dtype(), a.size(), q.maxBars);
      case GlDraw::Image:
        return gl::feedImage(r, a.data(), a.dtype(), q.cols, q.rows);
      case GlDraw::Points:
        return gl::feedPoints(r, a.data(), a.dtype(), a.size() / 3, q.maxPoints);
    }
    return gl::Expected<std::size_t>::fail("unknown plot kind");
  }
  QString pathName() const override { return "host upload"; }
};

gl::Rgba rgba(const QColor& c) { return {float(c.redF()), float(c.greenF()), float(c.blueF()), float(c.alphaF())}; }

/// The frame's array is the worker's output, imported into this process's device memory (device_imports.h).
bool importedOnDevice(const GlFrameRequest& q) {
  return q.keep && q.keep->deviceImports && q.keep->deviceImports->find(q.array);
}

}  // namespace

std::unique_ptr<GlFrameSource> makeHostFrameSource() { return std::make_unique<HostFrameSource>(); }

struct GlRenderService::Gl {
  std::unique_ptr<gl::EglContext> context;
  std::unique_ptr<gl::PlotRenderer> renderer;
  std::unique_ptr<GlFrameSource> source = makeHostFrameSource();
  std::unique_ptr<GlFrameSource> host = makeHostFrameSource();  ///< the other path when `choose`
  bool choose = false;  ///< `source` is interop: each frame takes the faster path for its size (gl_path.h)
  std::array<std::uint8_t, 4 * colormap::kLutSize> lut = colormap::lut256(colormap::viridis());
  Probe probe;

  void create() {
    auto ctx = gl::EglContext::create({.cudaOrdinal = probe.cudaOrdinal, .allowSoftware = true});
    if (!ctx.ok()) return void(probe.line = QString::fromStdString(ctx.error()));
    context = std::move(*ctx);
    auto r = gl::PlotRenderer::create();
    if (!r.ok()) return void(probe.line = QString::fromStdString(r.error()));
    renderer = std::move(*r);
    probe = {true, QString::fromStdString(context->info().reason), context->info().onCudaDevice};
    useInteropWhenPossible();
  }

  /// The interop frame source when the context sits on the CUDA device (and this build has it); else the host one.
  void useInteropWhenPossible() {
#if LAUNCHLAB_UI_INTEROP
    if (!probe.onCudaDevice) return;
    if (auto s = makeInteropFrameSource(probe.cudaOrdinal, &probe.interopWhyNot)) {
      source = std::move(s);
      probe.pathName = source->pathName();
      probe.interop = true;
      choose = true;
    }
#endif
  }

  gl::Status draw(const GlFrameRequest& q, std::size_t n, const gl::PlotRect& rect) {
    const gl::DataRange dr{q.drawRange.x0, q.drawRange.x1, q.drawRange.y0, q.drawRange.y1, q.logY};
    switch (q.kind) {
      case GlDraw::Waveform:
        return renderer->drawWaveform(rect, dr, q.begin, n, rgba(q.color), q.lineWidth);
      case GlDraw::Histogram:
        return renderer->drawHistogram(rect, dr, n, rgba(q.color));
      case GlDraw::Image: {
        const gl::ImageStyle style{q.lo, q.hi, {1, 0, 1, 1}, true};
        return renderer->drawImage(rect, q.cols, q.rows, style, lut);
      }
      case GlDraw::Points:
        return renderer->drawPoints(rect, dr, n, rgba(q.color), rgba(q.color2), q.pointSize);
    }
    return gl::Status::fail("unknown plot kind");
  }

  GlFrame render(const GlFrameRequest& q) {
    GlFrame f;
    f.range = q.range;
    QElapsedTimer t;
    t.start();
    auto fail = [&f](const std::string& why) {
      f.error = QString::fromStdString(why);
      return f;
    };
    if (!renderer) return fail(probe.line.toStdString());
    if (!q.array || q.pixels.isEmpty()) return fail("nothing to draw");
    qint64 mark = 0;
    auto stage = [&](int i) {
      const qint64 now = t.nsecsElapsed();
      f.stageMs[i] = double(now - mark) / 1e6;
      mark = now;
    };
    if (auto s = renderer->resize(q.pixels.width(), q.pixels.height()); !s.ok()) return fail(s.error);
    renderer->clear({0, 0, 0, 0});
    stage(0);
    GlFrameSource* src = source.get();
    if (choose) {
      const GlPathChoice c = chooseGlPath(q, importedOnDevice(q));
      f.pathWhy = c.why;
      if (!c.interop) src = host.get();
    }
    f.path = src->pathName();
    const auto n = src->feed(*renderer, q);
    if (!n.ok()) return fail(n.error());
    stage(1);
    if (auto s = draw(q, *n, {0, 0, q.pixels.width(), q.pixels.height()}); !s.ok()) return fail(s.error);
    stage(2);
    QImage img(q.pixels, QImage::Format_RGBA8888);
    if (auto s = renderer->readRgba({img.bits(), std::size_t(img.sizeInBytes())}); !s.ok()) return fail(s.error);
    stage(3);
    f.image = std::move(img);
    f.dataNote = src->dataNote();
    f.renderMs = double(t.nsecsElapsed()) / 1e6;
    return f;
  }

  /// Draws the canary: "" and the mismatching pixels, or why it could not be drawn. Its data goes through the
  /// views' own frame source (interop where they use it: after a CUDA fault, a host-uploaded check frame drew right
  /// while the interop-fed views' frames were wrong), at a plot's size rather than an icon's.
  std::string canary(std::vector<std::uint8_t>& pixels) {
    if (!renderer) return probe.line.toStdString();
    GlFrameSource* src = source.get();
    const auto feed = [src](gl::PlotRenderer& r, const gl::CanaryData& d) { return feedCanary(*src, r, d); };
    const gl::Status s = gl::drawCanary(*renderer, pixels, kCanaryScale, feed);
    return s.ok() ? std::string() : s.error;
  }
  static int mismatches(const std::vector<std::uint8_t>& pixels) { return gl::canaryMismatches(pixels, kCanaryScale); }

  static constexpr int kCanaryScale = 32;  ///< a 512 x 512 check frame

  /// The canary's bars and image fed as a view's frame would be: through `src`.
  static gl::Status feedCanary(GlFrameSource& src, gl::PlotRenderer& r, const gl::CanaryData& d) {
    HostArray bars("canary bars", DType::F32, {d.bars.size()}), image("canary image", DType::F32, {2, 2});
    std::copy(d.bars.begin(), d.bars.end(), bars.view<float>().begin());
    std::copy(d.texels.begin(), d.texels.end(), image.view<float>().begin());
    GlFrameRequest q;
    q.pixels = QSize(gl::kCanarySide * kCanaryScale, gl::kCanarySide * kCanaryScale);
    q.kind = GlDraw::Histogram;
    q.array = &bars;
    q.maxBars = std::uint32_t(d.bars.size());
    const auto nBars = src.feed(r, q);
    if (!nBars.ok()) return gl::Status::fail(nBars.error());
    if (*nBars != d.bars.size())
      return gl::Status::fail("the frame source fed " + std::to_string(*nBars) + " bars of 4");
    q.kind = GlDraw::Image;
    q.array = &image;
    q.cols = q.rows = 2;
    const auto nTexels = src.feed(r, q);
    return nTexels.ok() ? gl::Status{} : gl::Status::fail(nTexels.error());
  }
};
#else
struct GlRenderService::Gl {
  Probe probe{false, "this build has no GL renderer", false};
  void create() {}
  GlFrame render(const GlFrameRequest&) {
    GlFrame f;
    f.error = probe.line;
    return f;
  }
  std::string canary(std::vector<std::uint8_t>&) { return probe.line.toStdString(); }
  static int mismatches(const std::vector<std::uint8_t>&) { return -1; }
};
#endif

namespace {

std::mutex g_hooksMutex;
GlRenderService::TestHooks g_hooks;

GlRenderService::TestHooks hooks() {
  std::lock_guard lock(g_hooksMutex);
  return g_hooks;
}

QString causeText(GlRenderService::CanaryCause cause, double slowFrameMs) {
  switch (cause) {
    case GlRenderService::CanaryCause::Start:
      return "when it started";
    case GlRenderService::CanaryCause::CudaFault:
      return "after a CUDA fault";
    case GlRenderService::CanaryCause::SlowFrame:
      break;
  }
  return QString("after a %1 s frame").arg(slowFrameMs / 1000, 0, 'f', 1);
}

/// The verdict's line: what the log says when the check passed, what every plot says when it failed.
QString verdictLine(const GlRenderService::CanaryVerdict& v, const QString& cause, const std::string& error) {
  if (v.passed) return QString("OpenGL drew its test frame right %1 (%2 ms)").arg(cause).arg(v.ms, 0, 'f', 1);
  QString what;
  if (!error.empty())
    what = "could not draw a test frame " + cause + " (" + QString::fromStdString(error) + ")";
  else if (v.mismatches > 0)
    what = "gave a wrong test frame " + cause;
  else
    what = QString("took %1 s for a test frame %2").arg(v.ms / 1000, 0, 'f', 1).arg(cause);
  return "OpenGL " + what + "; plots are drawn by QCustomPlot until LaunchLab restarts";
}

}  // namespace

void GlRenderService::setTestHooks(TestHooks h) {
  std::lock_guard lock(g_hooksMutex);
  g_hooks = std::move(h);
}

GlRenderService::GlRenderService() : m_gl(std::make_unique<Gl>()) {
  qRegisterMetaType<launchlab::ui::GlRenderService::Probe>();
  qRegisterMetaType<launchlab::ui::GlRenderService::CanaryVerdict>();
  m_thread.setObjectName("launchlab-render");
  m_worker = new QObject;
  m_worker->moveToThread(&m_thread);
  connect(&m_thread, &QThread::finished, m_worker, &QObject::deleteLater);
}

GlRenderService::~GlRenderService() {
  if (m_started) {
    // The renderer and the context go on the thread where the context is current, and that thread's EGL state
    // with them: left to the thread's exit, libglvnd's cleanup can run while the process exits (an abort in CI).
    QMetaObject::invokeMethod(
        m_worker,
        [this] {
          m_gl.reset();
#if LAUNCHLAB_UI_GL
          gl::EglContext::releaseThread();
#endif
        },
        Qt::BlockingQueuedConnection);
  }
  m_thread.quit();
  m_thread.wait();
}

void GlRenderService::start() {
  if (m_started) return;
  m_started = true;
  m_thread.start();
  QMetaObject::invokeMethod(
      m_worker,
      [this] {
        m_gl->create();
        if (m_gl->probe.ok) runCanary(CanaryCause::Start);  // its verdict reaches the window before ready()
        const Probe p = m_gl->probe;
        QMetaObject::invokeMethod(
            this,
            [this, p] {
              m_pathName = p.pathName;
              emit ready(p);
            },
            Qt::QueuedConnection);
      },
      Qt::QueuedConnection);
}

void GlRenderService::submit(QObject* receiver, quint64 generation, GlFrameRequest req, FrameFn done) {
  start();
  std::lock_guard lock(m_mutex);
  m_pending[receiver] = Pending{receiver, generation, std::move(req), std::move(done)};
  if (m_posted) return;
  m_posted = true;
  QMetaObject::invokeMethod(
      m_worker, [this] { renderPending(); }, Qt::QueuedConnection);
}

void GlRenderService::renderPending() {
  std::map<QObject*, Pending> jobs;
  {
    std::lock_guard lock(m_mutex);
    jobs.swap(m_pending);
    m_posted = false;
  }
  runWantedCanary();  // also when no frame is pending: the window waits for the verdict
  for (auto& [key, job] : jobs) {
    if (!job.receiver) continue;
    GlFrame f = renderChecked(job.request);
    f.generation = job.generation;
    job.request.keep.reset();  // the arrays may go now
    // Delivered through this object (GUI thread), where the receiver is checked: it may have gone meanwhile.
    QMetaObject::invokeMethod(
        this,
        [receiver = job.receiver, done = std::move(job.done), f = std::move(f)]() mutable {
          if (receiver) done(std::move(f));
        },
        Qt::QueuedConnection);
  }
}

GlFrame GlRenderService::renderNow(const GlFrameRequest& req) {
  start();
  GlFrame f;
  QMetaObject::invokeMethod(
      m_worker, [this, &f, &req] { f = renderChecked(req); }, Qt::BlockingQueuedConnection);
  return f;
}

void GlRenderService::requestCanary(CanaryCause cause) {
  start();
  m_wantedCause.store(int(cause));
  ++m_canaryWanted;
  std::lock_guard lock(m_mutex);
  if (m_posted) return;  // the pending render runs the check first
  m_posted = true;
  QMetaObject::invokeMethod(
      m_worker, [this] { renderPending(); }, Qt::QueuedConnection);
}

void GlRenderService::runWantedCanary() {
  const quint64 wanted = m_canaryWanted.load();
  if (m_canaryDone >= wanted) return;
  m_canaryDone = wanted;
  if (m_unhealthy.isEmpty() && m_gl->probe.ok) runCanary(CanaryCause(m_wantedCause.load()));
}

GlFrame GlRenderService::renderChecked(const GlFrameRequest& req) {
  runWantedCanary();
  GlFrame f;
  if (m_unhealthy.isEmpty()) {
    f = m_gl->render(req);
    if (const auto h = hooks(); h.frameMs && f.error.isEmpty()) f.renderMs = h.frameMs(f.renderMs);
    // A slow frame may be the first of a GL broken by a fault nobody reported: checked before it is shown.
    if (f.error.isEmpty() && f.renderMs > kCheckFrameMs) runCanary(CanaryCause::SlowFrame, f.renderMs);
  }
  if (!m_unhealthy.isEmpty()) {
    f.image = {};
    f.error = m_unhealthy;
  }
  f.checkedEpoch = m_canaryDone;
  return f;
}

bool GlRenderService::runCanary(CanaryCause cause, double slowFrameMs) {
  const TestHooks h = hooks();
  std::vector<std::uint8_t> pixels;
  QElapsedTimer t;
  t.start();
  const std::string error = m_gl->canary(pixels);
  CanaryVerdict v;
  v.cause = cause;
  v.ms = double(t.nsecsElapsed()) / 1e6;
  if (h.canaryMs) v.ms = h.canaryMs(v.ms);
  if (h.canaryReadback && error.empty()) h.canaryReadback(pixels);
  v.mismatches = error.empty() ? Gl::mismatches(pixels) : -1;
  v.passed = error.empty() && v.mismatches == 0 && v.ms <= kCanaryLateMs;
  v.line = verdictLine(v, causeText(cause, slowFrameMs), error);
  if (!v.passed) m_unhealthy = v.line;
  QMetaObject::invokeMethod(
      this, [this, v] { emit canaryChecked(v); }, Qt::QueuedConnection);
  return v.passed;
}

void GlRenderService::setFrameSource(std::unique_ptr<GlFrameSource> source) {
#if LAUNCHLAB_UI_GL
  start();
  m_pathName = source->pathName();
  auto* raw = source.release();
  QMetaObject::invokeMethod(
      m_worker, [this, raw] { m_gl->source.reset(raw); }, Qt::QueuedConnection);
#else
  source.reset();
#endif
}

}  // namespace launchlab::ui
