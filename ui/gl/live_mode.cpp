#include "gl/live_mode.h"

#include <qcustomplot.h>

#include <QTimer>
#include <algorithm>

#include "models/text.h"

namespace launchlab::ui {

namespace {

bool ticked(const RunRequest& req, const std::string& id) {
  return req.impls.empty() || std::find(req.impls.begin(), req.impls.end(), id) != req.impls.end();
}
}  // namespace

std::string liveImplOf(const Workload& w, const RunRequest& req, const std::string& shown, bool gpu) {
  if (!shown.empty() && ticked(req, shown)) return shown;
  for (const auto& i : w.impls())
    if (gpu && i.isGpu() && ticked(req, i.id)) return i.id;
  if (ticked(req, "cpu-parallel") &&
      std::any_of(w.impls().begin(), w.impls().end(), [](const ImplSpec& i) { return i.id == "cpu-parallel"; }))
    return "cpu-parallel";
  for (const auto& i : w.impls())
    if (!i.isGpu() && ticked(req, i.id)) return i.id;
  return std::string(kCpuSerial);
}

RunRequest liveFrameRequest(RunRequest base, const std::string& impl, std::uint64_t frame) {
  base.impls = {impl};
  base.reps = 1;
  base.warmup = 0;
  base.keepInputs = base.keepOutputs = true;
  base.traceBlocks = false;
  base.verify = false;  // the frame is drawn, not checked: cpu-serial would cost more than the frame itself
  base.seed += frame;
  return base;
}

QString liveStatsText(const LiveStats& s) {
  return QString("live: %1 fps \xC2\xB7 kernel %2 ms/frame \xC2\xB7 frame %3")
      .arg(s.fps, 0, 'f', 1)
      .arg(s.kernelMs, 0, 'f', s.kernelMs < 10 ? 2 : 1)
      .arg(s.frames);
}

QString liveScalarsText(const WorkloadInfo& info, const RunResult& r, const std::string& impl) {
  const ImplResult* i = r.find(impl);
  if (!i) return {};
  QStringList parts;
  for (const auto& spec : info.outputs) {
    if (spec.plot != PlotKind::Scalar) continue;
    for (const auto& a : i->outputs)
      if (a.name() == spec.name && a.size() == 1) parts << QString("%1 = %2").arg(q(spec.name)).arg(a.at(0), 0, 'g', 9);
  }
  return parts.join(" \xC2\xB7 ");
}

QString liveTimingText(const LiveStats& s) {
  return QString("last frame: run %1 ms (request to outcome) \xC2\xB7 shown in %2 ms")
      .arg(s.runMs, 0, 'f', 2)
      .arg(s.showMs, 0, 'f', 2);
}

LiveMode::LiveMode(RunController& controller, RequestFn request, QObject* parent)
    : QObject(parent), m_controller(controller), m_request(std::move(request)) {
  qRegisterMetaType<launchlab::ui::LiveStats>();
  connect(&m_controller, &RunController::runFinished, this, &LiveMode::onFinished);
  connect(&m_controller, &RunController::jobStarted, this, &LiveMode::onStarted);
  connect(&m_controller, &RunController::jobCancelled, this, [this](quint64 id) {
    if (m_active && id == m_job) stop("cancelled");
  });
}

void LiveMode::start() {
  if (m_active) return;
  m_active = true;
  m_frame = 0;
  m_stats = {};
  m_frameTimes.clear();
  m_clock.start();
  emit activeChanged(true);
  next();
}

void LiveMode::stop(const QString& why) {
  if (!m_active) return;
  m_active = false;
  if (m_controller.busy() && m_controller.currentJob() == m_job) m_controller.cancel();
  emit activeChanged(false);
  emit stopped(QString("live mode %1 after %2 frame%3, %4 fps")
                   .arg(why)
                   .arg(m_stats.frames)
                   .arg(m_stats.frames == 1 ? "" : "s")
                   .arg(m_stats.fps, 0, 'f', 1));
}

void LiveMode::next() {
  if (!m_active) return;
  QString why;
  const std::optional<RunRequest> base = m_request(why);
  if (!base) {
    stop("could not go on");
    emit failed("Live mode stopped: " + why);
    return;
  }
  m_impl = base->impls.size() == 1 ? base->impls.front() : std::string(kCpuSerial);
  m_submitting = true;
  m_sent.start();
  m_job = m_controller.startRun(liveFrameRequest(*base, m_impl, m_frame));
  m_submitting = false;
  ++m_frame;
}

void LiveMode::onStarted(quint64 id) {
  // Another job (Run, a sweep) takes the compute thread: live mode gives way.
  if (m_active && !m_submitting && id != m_job) stop("stopped by another run");
}

void LiveMode::onFinished(quint64 id, std::shared_ptr<const RunOutcome> outcome) {
  if (!m_active || id != m_job || !outcome) return;
  const QString problem = frameProblem(*outcome, m_impl);
  if (!problem.isEmpty()) {
    stop("stopped by a failed frame");
    emit failed("Live mode stopped: " + problem);
    return;
  }
  updateStats(*outcome);
  m_stats.runMs = double(m_sent.nsecsElapsed()) / 1e6;
  QElapsedTimer shown;
  shown.start();
  emit frameReady(outcome, m_stats);
  m_stats.showMs = double(shown.nsecsElapsed()) / 1e6;
  // The next frame once this one is drawn: the queued call runs after the paint events the frame posted.
  QTimer::singleShot(0, this, &LiveMode::next);
}

void LiveMode::updateStats(const RunOutcome& o) {
  const qint64 now = m_clock.elapsed();
  m_frameTimes.push_back(now);
  while (m_frameTimes.size() > 2 && now - m_frameTimes.front() > 1000) m_frameTimes.pop_front();
  ++m_stats.frames;
  const double span = double(m_frameTimes.back() - m_frameTimes.front());
  m_stats.fps = m_frameTimes.size() > 1 && span > 0 ? 1000.0 * double(m_frameTimes.size() - 1) / span : 0.0;
  m_stats.seed = o.request.seed;
  if (const ImplResult* i = o.result.find(m_impl)) {
    const auto kernel = i->phases.find(Phase::Kernel);  // CPU implementations: their loop
    m_stats.kernelMs = kernel != i->phases.end() ? kernel->second.medianMs : i->computeMedianMs();
    m_stats.implTitle = i->title.empty() ? i->implId : i->title;
  }
}

QString LiveMode::frameProblem(const RunOutcome& o, const std::string& impl) {
  const RunResult& r = o.result;
  if (r.status != Status::Ok) return r.reason.empty() ? QString("the run failed") : q(r.reason);
  const ImplResult* i = r.find(impl);
  if (!i) return q(impl) + " did not run";
  if (i->status != Status::Ok)
    return q(i->title.empty() ? impl : i->title) + ": " + (i->reason.empty() ? QString("failed") : q(i->reason));
  return {};
}

LiveOverlay::LiveOverlay(QWidget* parent) : QLabel(parent) {
  setObjectName("liveOverlay");
  setAttribute(Qt::WA_TransparentForMouseEvents);
  setStyleSheet(
      "QLabel#liveOverlay { background: rgba(20, 20, 20, 200); color: white; padding: 3px 8px; "
      "border-radius: 4px; }");
  hide();
}

void LiveOverlay::showOver(QWidget* target, const QString& text) {
  setText(text);
  adjustSize();
  // The top-right corner of the plot's axis rect (below the title), else of the widget.
  QPoint topRight(parentWidget()->width(), 0);
  if (target && target->isVisible()) {
    QPoint corner(target->width(), 0);
    if (auto* plot = qobject_cast<QCustomPlot*>(target)) corner = plot->axisRect()->rect().topRight();
    topRight = target->mapTo(parentWidget(), corner);
  }
  move(std::max(0, topRight.x() - width() - 6), topRight.y() + 6);
  raise();
  show();
}

}  // namespace launchlab::ui
