#include "gl_render_service.h"

#include <QElapsedTimer>
#include <QMetaObject>

#include <utility>

#include "gl_frame_source.h"
#if LAUNCHLAB_UI_INTEROP
#include "gl_interop_source.h"
#endif
#if LAUNCHLAB_UI_GL
#include "launchlab/colormap_lut.h"
#include "launchlab/gl/egl_context.h"
#include "launchlab/gl/host_feeder.h"
#endif

namespace launchlab::ui {

#if LAUNCHLAB_UI_GL
namespace {

class HostFrameSource final : public GlFrameSource {
 public:
  gl::Expected<std::size_t> feed(gl::PlotRenderer& r, const GlFrameRequest& q) override {
    const HostArray& a = *q.array;
    switch (q.kind) {
      case GlDraw::Waveform: return gl::feedWaveform(r, a.data(), a.dtype(), q.begin, q.end, q.columns);
      case GlDraw::Histogram: return gl::feedHistogram(r, a.data(), a.dtype(), a.size(), q.maxBars);
      case GlDraw::Image: return gl::feedImage(r, a.data(), a.dtype(), q.cols, q.rows);
      case GlDraw::Points: return gl::feedPoints(r, a.data(), a.dtype(), a.size() / 3, q.maxPoints);
    }
    return gl::Expected<std::size_t>::fail("unknown plot kind");
  }
  QString pathName() const override { return "host upload"; }
};

gl::Rgba rgba(const QColor& c) { return {float(c.redF()), float(c.greenF()), float(c.blueF()), float(c.alphaF())}; }

}  // namespace

std::unique_ptr<GlFrameSource> makeHostFrameSource() { return std::make_unique<HostFrameSource>(); }

struct GlRenderService::Gl {
  std::unique_ptr<gl::EglContext> context;
  std::unique_ptr<gl::PlotRenderer> renderer;
  std::unique_ptr<GlFrameSource> source = makeHostFrameSource();
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
    }
#endif
  }

  gl::Status draw(const GlFrameRequest& q, std::size_t n, const gl::PlotRect& rect) {
    const gl::DataRange dr{q.drawRange.x0, q.drawRange.x1, q.drawRange.y0, q.drawRange.y1, q.logY};
    switch (q.kind) {
      case GlDraw::Waveform: return renderer->drawWaveform(rect, dr, q.begin, n, rgba(q.color), q.lineWidth);
      case GlDraw::Histogram: return renderer->drawHistogram(rect, dr, n, rgba(q.color));
      case GlDraw::Image: {
        const gl::ImageStyle style{q.lo, q.hi, {1, 0, 1, 1}, true};
        return renderer->drawImage(rect, q.cols, q.rows, style, lut);
      }
      case GlDraw::Points: return renderer->drawPoints(rect, dr, n, rgba(q.color), rgba(q.color2), q.pointSize);
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
    const auto n = source->feed(*renderer, q);
    if (!n.ok()) return fail(n.error());
    stage(1);
    if (auto s = draw(q, *n, {0, 0, q.pixels.width(), q.pixels.height()}); !s.ok()) return fail(s.error);
    stage(2);
    QImage img(q.pixels, QImage::Format_RGBA8888);
    if (auto s = renderer->readRgba({img.bits(), std::size_t(img.sizeInBytes())}); !s.ok()) return fail(s.error);
    stage(3);
    f.image = std::move(img);
    f.dataNote = source->dataNote();
    f.renderMs = double(t.nsecsElapsed()) / 1e6;
    return f;
  }
};
#else
struct GlRenderService::Gl {
  Probe probe{false, "this build has no GL renderer", false};
  void create() {}
  GlFrame render(const GlFrameRequest&) { return {0, {}, {}, probe.line, 0}; }
};
#endif

GlRenderService::GlRenderService() : m_gl(std::make_unique<Gl>()) {
  qRegisterMetaType<launchlab::ui::GlRenderService::Probe>();
  m_thread.setObjectName("launchlab-render");
  m_worker = new QObject;
  m_worker->moveToThread(&m_thread);
  connect(&m_thread, &QThread::finished, m_worker, &QObject::deleteLater);
}

GlRenderService::~GlRenderService() {
  if (m_started) {
    // The renderer and the context go on the thread where the context is current, and that thread's EGL state
    // with them: left to the thread's exit, libglvnd's cleanup can run while the process exits (an abort in CI).
    QMetaObject::invokeMethod(m_worker, [this] {
      m_gl.reset();
#if LAUNCHLAB_UI_GL
      gl::EglContext::releaseThread();
#endif
    }, Qt::BlockingQueuedConnection);
  }
  m_thread.quit();
  m_thread.wait();
}

void GlRenderService::start() {
  if (m_started) return;
  m_started = true;
  m_thread.start();
  QMetaObject::invokeMethod(m_worker, [this] {
    m_gl->create();
    const Probe p = m_gl->probe;
    QMetaObject::invokeMethod(this, [this, p] {
      m_pathName = p.pathName;
      emit ready(p);
    }, Qt::QueuedConnection);
  }, Qt::QueuedConnection);
}

void GlRenderService::submit(QObject* receiver, quint64 generation, GlFrameRequest req, FrameFn done) {
  start();
  std::lock_guard lock(m_mutex);
  m_pending[receiver] = Pending{receiver, generation, std::move(req), std::move(done)};
  if (m_posted) return;
  m_posted = true;
  QMetaObject::invokeMethod(m_worker, [this] { renderPending(); }, Qt::QueuedConnection);
}

void GlRenderService::renderPending() {
  std::map<QObject*, Pending> jobs;
  {
    std::lock_guard lock(m_mutex);
    jobs.swap(m_pending);
    m_posted = false;
  }
  for (auto& [key, job] : jobs) {
    if (!job.receiver) continue;
    GlFrame f = m_gl->render(job.request);
    f.generation = job.generation;
    job.request.keep.reset();  // the arrays may go now
    // Delivered through this object (GUI thread), where the receiver is checked: it may have gone meanwhile.
    QMetaObject::invokeMethod(this, [receiver = job.receiver, done = std::move(job.done), f = std::move(f)]() mutable {
      if (receiver) done(std::move(f));
    }, Qt::QueuedConnection);
  }
}

GlFrame GlRenderService::renderNow(const GlFrameRequest& req) {
  start();
  GlFrame f;
  QMetaObject::invokeMethod(m_worker, [this, &f, &req] { f = m_gl->render(req); }, Qt::BlockingQueuedConnection);
  return f;
}

void GlRenderService::setFrameSource(std::unique_ptr<GlFrameSource> source) {
#if LAUNCHLAB_UI_GL
  start();
  m_pathName = source->pathName();
  auto* raw = source.release();
  QMetaObject::invokeMethod(m_worker, [this, raw] { m_gl->source.reset(raw); }, Qt::QueuedConnection);
#else
  source.reset();
#endif
}

}  // namespace launchlab::ui
