#include "gl/gl_views.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QPaintDevice>
#include <utility>

namespace launchlab::ui {

// ---- GlViews ----

GlViews& GlViews::instance() {
  // A child of the application: it (and its render thread) go before the application does.
  static QPointer<GlViews> views;
  if (!views) {
    views = new GlViews;
    views->setParent(QCoreApplication::instance());
  }
  return *views;
}

void GlViews::configure(bool on, const QString& offReason) {
  if (!on) {
    m_offReason = offReason;
    if (m_state == State::Off) return;
    m_state = State::Off;
    emit changed();
    return;
  }
  if (m_state == State::Starting || m_state == State::Ready || m_state == State::Failed) return;
  if (!m_unhealthy.isEmpty()) {  // a failed GL check holds until LaunchLab restarts
    m_state = State::Failed;
    emit changed();
    return;
  }
  if (!m_service) {
    m_service = std::make_unique<GlRenderService>();
    connect(m_service.get(), &GlRenderService::ready, this, &GlViews::onReady);
    connect(m_service.get(), &GlRenderService::canaryChecked, this, &GlViews::onCanary);
  }
  if (m_probe.line.isEmpty()) {
    m_state = State::Starting;
    m_service->start();
  } else {
    m_state = m_probe.ok ? State::Ready : State::Failed;  // started before: the context is there (or is not)
  }
  emit changed();
}

void GlViews::onReady(const GlRenderService::Probe& p) {
  if (!m_unhealthy.isEmpty()) return;  // its first check failed
  m_probe = p;
  if (m_state != State::Starting) return;  // turned off meanwhile
  m_state = p.ok ? State::Ready : State::Failed;
  emit changed();
}

bool GlViews::waitReady(int timeoutMs) {
  QElapsedTimer t;
  t.start();
  while (m_state == State::Starting && t.elapsed() < timeoutMs)
    QCoreApplication::processEvents(QEventLoop::AllEvents, 20);
  return m_state != State::Starting;
}

QString GlViews::pathName() const { return m_state == State::Ready ? m_service->pathName() : pathLine(); }

QString GlViews::pathLine() const {
  switch (m_state) {
    case State::Off:
      return "QCustomPlot: GL views turned off (" + m_offReason + ")";
    case State::Starting:
      return "QCustomPlot: starting OpenGL\xE2\x80\xA6";
    case State::Failed:
      return m_unhealthy.isEmpty() ? "QCustomPlot: no usable OpenGL (" + m_probe.line + ")"
                                   : "QCustomPlot: " + m_unhealthy;
    case State::Ready:
      return m_service->pathName() + ": " + m_probe.line;
  }
  return {};
}

bool hasGlView(PlotKind kind) {
  return kind == PlotKind::Waveform || kind == PlotKind::Histogram || kind == PlotKind::Image ||
         kind == PlotKind::Points;
}

// ---- GlLayer ----

namespace {
QCustomPlot* withGlLayer(QCustomPlot* plot) {
  if (!plot->layer("gl")) plot->addLayer("gl", plot->layer("main"), QCustomPlot::limAbove);
  return plot;
}
}  // namespace

GlLayer::GlLayer(QCustomPlot* plot, RequestFn request)
    : QCPLayerable(withGlLayer(plot), "gl"), m_request(std::move(request)) {
  connect(&GlViews::instance(), &GlViews::changed, this, [this] {
    m_asked = {};
    emit activeChanged();
    mParentPlot->replot(QCustomPlot::rpQueuedReplot);
  });
}

bool GlLayer::active() const { return GlViews::instance().state() == GlViews::State::Ready && m_failure.isEmpty(); }

QString GlLayer::pathLine(bool brief) const {
  const GlViews& views = GlViews::instance();
  if (views.state() == GlViews::State::Ready && !m_failure.isEmpty())
    return "QCustomPlot: the GL frame failed (" + m_failure + ")";
  if (views.state() == GlViews::State::Ready && !m_pathWhy.isEmpty()) {
    // The render thread chose the path by size: "host upload: 4 KiB is below the interop crossover (~10 MiB) · GL
    // runs on NVIDIA H200 (…)".
    if (brief) return m_path;
    const QString line = m_path + ": " + m_pathWhy + " \u00b7 " + views.contextLine();
    return m_dataNote.isEmpty() ? line : line + " \u00b7 " + m_dataNote;
  }
  const QString line = brief ? GlViews::instance().pathName() : GlViews::instance().pathLine();
  return m_dataNote.isEmpty() || GlViews::instance().state() != GlViews::State::Ready ? line
                                                                                      : line + " \u00b7 " + m_dataNote;
}

void GlLayer::dataChanged() {
  ++m_version;
  if (m_failure.isEmpty()) return;
  m_failure.clear();  // new data: GL tries again
  emit activeChanged();
}

void GlLayer::clear() {
  dataChanged();
  m_image = {};
  m_asked = {};
  m_shownGeneration = m_generation;  // frames in flight are of the old data
}

QRect GlLayer::clipRect() const { return mParentPlot->axisRect()->rect(); }

void GlLayer::draw(QCPPainter* painter) {
  if (!active()) return;
  if (painter->modes().testFlag(QCPPainter::pmNoCaching)) {
    // An export: raster ones get a frame of their size; vector ones keep the view's own series (QcpViewBase::render).
    if (painter->device() && painter->device()->devType() == QInternal::Image) drawExport(painter);
    return;
  }
  const QSize pixels =
      (QSizeF(mParentPlot->axisRect()->rect().size()) * mParentPlot->bufferDevicePixelRatio()).toSize();
  if (std::optional<GlFrameRequest> req = pixels.isEmpty() ? std::nullopt : m_request(pixels)) {
    const Key key{req->pixels, req->range, m_version};
    GlRenderService* service = GlViews::instance().service();
    if (!(key == m_asked) && service) {
      m_asked = key;
      service->submit(this, ++m_generation, std::move(*req), [this](GlFrame f) { onFrame(std::move(f)); });
    }
  }
  if (!m_image.isNull()) drawFrame(painter, m_image, m_range);
}

void GlLayer::drawFrame(QCPPainter* painter, const QImage& image, const GlRange& range) const {
  QCPAxis* x = mParentPlot->axisRect()->axis(QCPAxis::atBottom);
  QCPAxis* y = mParentPlot->axisRect()->axis(QCPAxis::atLeft);
  const QRectF target(QPointF(x->coordToPixel(range.x0), y->coordToPixel(range.y1)),
                      QPointF(x->coordToPixel(range.x1), y->coordToPixel(range.y0)));
  painter->setRenderHint(QPainter::SmoothPixmapTransform, m_smooth);
  painter->drawImage(target, image);
}

void GlLayer::drawExport(QCPPainter* painter) {
  GlRenderService* service = GlViews::instance().service();
  const double scale = painter->transform().m11();
  const QSize pixels = (QSizeF(mParentPlot->axisRect()->rect().size()) * (scale > 0 ? scale : 1.0)).toSize();
  std::optional<GlFrameRequest> req = service ? m_request(pixels) : std::nullopt;
  const GlFrame f = req ? service->renderNow(*req) : GlFrame{};
  if (f.error.isEmpty() && !f.image.isNull())
    drawFrame(painter, f.image, f.range);
  else if (!m_image.isNull())
    drawFrame(painter, m_image, m_range);  // the frame on screen, scaled
}

void GlViews::noteFrameShown(const GlFrame& f) {
  m_lastFrameTimes = QString("GL frame %1 ms (framebuffer %2, feed %3, draw %4, read back %5)")
                         .arg(f.renderMs, 0, 'f', 2)
                         .arg(f.stageMs[0], 0, 'f', 2)
                         .arg(f.stageMs[1], 0, 'f', 2)
                         .arg(f.stageMs[2], 0, 'f', 2)
                         .arg(f.stageMs[3], 0, 'f', 2);
}

void GlViews::checkAfterCudaFault() {
  if (m_service && (m_state == State::Ready || m_state == State::Starting))
    m_service->requestCanary(GlRenderService::CanaryCause::CudaFault);
}

void GlViews::watch(RunController& controller) {
  connect(&controller, &RunController::cudaFault, this, [this] { checkAfterCudaFault(); });
}

void GlViews::onCanary(const GlRenderService::CanaryVerdict& v) {
  ++m_canaries;
  m_lastCanary = v.line;
  if (!v.passed && m_unhealthy.isEmpty()) {
    // A CUDA fault in another process can leave the driver's GL drawing wrong frames, ~19 s each (seen on H100 and
    // H200 machines; docs/ARCHITECTURE.md): QCustomPlot takes every plot over for the rest of the process. The
    // render thread is set aside (ended at exit), never waited for here.
    m_unhealthy = v.line;
    m_probe = {};
    m_retired.push_back(std::move(m_service));
    if (m_state != State::Off) m_state = State::Failed;
    emit changed();
  }
  emit canaryChecked(v.line, v.passed);
}

void GlLayer::onFrame(GlFrame f) {
  if (GlViews::instance().state() != GlViews::State::Ready) return;  // GL turned off meanwhile: nothing to show
  if (f.generation < m_shownGeneration) return;                      // a newer frame is already shown
  if (f.checkedEpoch < GlViews::instance().canaryWanted()) {
    // Drawn before the GL check the window asked for (a run ended in a CUDA fault): it may be wrong. Asked again,
    // it comes after the check.
    m_asked = {};
    mParentPlot->replot(QCustomPlot::rpQueuedReplot);
    return;
  }
  m_shownGeneration = f.generation;
  if (!f.error.isEmpty()) {
    // This view goes back to QCustomPlot (the window keeps working), and says why.
    m_failure = f.error;
    m_image = {};
    emit activeChanged();
    mParentPlot->replot(QCustomPlot::rpQueuedReplot);
    return;
  }
  m_image = std::move(f.image);
  m_range = f.range;
  m_renderMs = f.renderMs;
  GlViews::instance().noteFrameShown(f);
  if (f.dataNote != m_dataNote || f.path != m_path || f.pathWhy != m_pathWhy) {
    m_dataNote = f.dataNote;
    m_path = f.path;
    m_pathWhy = f.pathWhy;
    emit activeChanged();  // the path line says which path and where the data came from
  }
  ++m_framesShown;
  mParentPlot->replot(QCustomPlot::rpQueuedReplot);
  emit frameShown();
}

}  // namespace launchlab::ui
