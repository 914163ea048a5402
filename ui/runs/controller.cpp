#include "runs/controller.h"

#include <QCoreApplication>
#include <QEvent>
#include <QMetaObject>
#include <QTimer>
#include <atomic>
#include <chrono>
#include <functional>
#include <mutex>

namespace launchlab::ui {

struct RunController::ProgressBox {
  std::mutex mutex;
  double fraction = 0;
  QString text;
  std::atomic<bool> pending{false};
};

struct RunController::Job {
  quint64 id = 0;
  JobKind kind = JobKind::Run;
  RunRequest request;
  SweepPlan plan;  // sweeps: the plan and its cells, expanded and validated when started
  std::vector<SweepCell> cells;
  std::shared_ptr<CancelToken> cancel = std::make_shared<CancelToken>();
  PostProcess postProcess;
  PostProcess deviceImport;  // runs that export their GPU outputs (setDeviceImport)
  ProgressBox progress;
};

RunController::RunController(std::shared_ptr<Backend> backend, QObject* parent)
    : QObject(parent), m_backend(std::move(backend)) {
  qRegisterMetaType<launchlab::ui::JobKind>();
  qRegisterMetaType<launchlab::SweepPoint>();
  qRegisterMetaType<launchlab::Ceilings>();
  qRegisterMetaType<std::shared_ptr<const launchlab::ui::RunOutcome>>();
  m_thread.setObjectName("launchlab-compute");
  m_worker = new QObject;
  m_worker->moveToThread(&m_thread);
  connect(&m_thread, &QThread::finished, m_worker, &QObject::deleteLater);
  m_thread.start();
  // A remote worker is asked for its device here, before any job, so the window appears whatever the server does.
  if (m_backend->deviceQueryPending())
    QMetaObject::invokeMethod(
        m_worker,
        [this] {
          const DeviceStatus s = m_backend->queryDevice();
          QMetaObject::invokeMethod(
              this,
              [this, s] {
                m_backend->adoptDeviceStatus(s);
                emit deviceStatusChanged();
              },
              Qt::QueuedConnection);
        },
        Qt::QueuedConnection);
}

RunController::~RunController() {
  if (m_currentToken) m_currentToken->cancel();
  m_backend->abort();  // the window is closing: nothing the compute thread waits for in a worker is worth waiting
  m_thread.quit();
  m_thread.wait();
}

quint64 RunController::startRun(const RunRequest& req) {
  auto job = std::make_shared<Job>();
  job->kind = JobKind::Run;
  job->request = req;
  if (m_deviceImport && req.keepOutputs) {
    job->request.exportDeviceOutputs = true;
    job->deviceImport = m_deviceImport;
  }
  return submit(std::move(job));
}

quint64 RunController::startSweep(const RunRequest& base, const std::string& implId, const std::vector<Dim3>& blocks,
                                  const std::vector<std::string>& grids) {
  auto job = std::make_shared<Job>();
  job->kind = JobKind::Sweep;
  RunRequest one = base;
  one.impls = {implId};
  one.keepInputs = one.keepOutputs = false;  // a sweep only needs timings
  job->plan.base = requestText(one);
  SweepAxis axis{"block", {}};
  for (const auto& b : blocks) axis.values.push_back(formatDim3(b));
  job->plan.axes = {axis};
  if (!grids.empty()) job->plan.axes.push_back({"grid", grids});
  std::vector<RequestProblem> problems;
  job->cells = expandSweep(
      job->plan, [this](const RunRequest& r) { return m_backend->validate(r); }, problems);
  // The base was valid when the window asked: a problem here is the base's, shown on every point.
  if (!problems.empty()) {
    job->cells.clear();
    for (std::size_t i = 0; i < blocks.size(); ++i)
      for (std::size_t g = 0; g < std::max<std::size_t>(1, grids.size()); ++g) {
        SweepCell cell;
        cell.values = {axis.values[i]};
        if (!grids.empty()) cell.values.push_back(grids[g]);
        cell.block = blocks[i];
        cell.skipReason = problems.front().message;
        job->cells.push_back(std::move(cell));
      }
  }
  return submit(std::move(job));
}

quint64 RunController::startNSweep(const RunRequest& base, const std::vector<std::string>& implIds,
                                   const std::vector<std::string>& ns) {
  auto job = std::make_shared<Job>();
  job->kind = JobKind::Sweep;
  RunRequest one = base;
  one.impls = implIds;
  one.keepInputs = one.keepOutputs = false;
  job->plan.base = requestText(one);
  job->plan.axes = {{"n", ns}};
  std::vector<RequestProblem> problems;
  // A size the machine cannot hold is a skipped cell with its reason (expandSweep), not a failed sweep.
  job->cells = expandSweep(
      job->plan, [this](const RunRequest& r) { return m_backend->validate(r); }, problems);
  return submit(std::move(job));
}

quint64 RunController::submit(std::shared_ptr<Job> job) {
  if (m_currentToken) m_currentToken->cancel();  // supersede: its result will be dropped
  job->id = m_nextId++;
  job->postProcess = m_postProcess;
  const bool wasBusy = busy();
  m_current = job->id;
  m_currentKind = job->kind;
  m_currentToken = job->cancel;
  emit jobStarted(job->id, job->kind);
  if (!wasBusy) emit busyChanged(true);
  executeAfterRepaint(job);  // after the repaints the signals above asked for
  return job->id;
}

namespace {
/// A call delivered as a posted event of low priority: after every event posted before it at that priority or
/// above, the window's repaints (QEvent::UpdateRequest) among them.
class LowPriorityCall final : public QEvent {
 public:
  explicit LowPriorityCall(std::function<void()> fn) : QEvent(kind()), m_fn(std::move(fn)) {}
  static QEvent::Type kind() {
    static const auto k = QEvent::Type(QEvent::registerEventType());
    return k;
  }
  void run() const { m_fn(); }

 private:
  std::function<void()> m_fn;
};
}  // namespace

bool RunController::event(QEvent* e) {
  if (e->type() != LowPriorityCall::kind()) return QObject::event(e);
  static_cast<LowPriorityCall*>(e)->run();
  return true;
}

void RunController::executeAfterRepaint(const std::shared_ptr<Job>& job) {
  // The window answers a new job by drawing (its running state; at start-up, the whole window) on this thread, on
  // the cores the job's CPU-parallel repetitions need: timed alongside that drawing, each repetition waited for a
  // core (8-20 ms for a few microseconds of work). So the job reaches the compute thread after the repaints the
  // window has asked for by now (posted at low priority, like this call, and so delivered before it).
  QCoreApplication::postEvent(this, new LowPriorityCall([this, job] {
                                QMetaObject::invokeMethod(
                                    m_worker, [this, job] { execute(job); }, Qt::QueuedConnection);
                              }),
                              Qt::LowEventPriority);
}

void RunController::disposeLater(std::shared_ptr<const RunOutcome> outcome) {
  if (!outcome) return;
  QMetaObject::invokeMethod(
      m_worker, [o = std::move(outcome)]() mutable { o.reset(); }, Qt::QueuedConnection);
}

void RunController::requestCeilings() {
  QMetaObject::invokeMethod(
      m_worker,
      [this] {
        const Ceilings c = m_backend->ceilings();
        QMetaObject::invokeMethod(
            this, [this, c] { emit ceilingsReady(c); }, Qt::QueuedConnection);
      },
      Qt::QueuedConnection);
}

void RunController::cancel() {
  if (m_currentToken) m_currentToken->cancel();
}

bool RunController::acceptFinal(quint64 id) {
  if (id != m_current) {
    emit staleDropped(id);
    return false;
  }
  m_current = 0;
  m_currentToken.reset();
  emit busyChanged(false);
  return true;
}

ProgressFn RunController::progressFn(const std::shared_ptr<Job>& job, int point, int points) {
  const quint64 id = job->id;
  // The queued call holds the job, so its progress box outlives the job's run.
  return [this, job, id, point, points](const Progress& p) {
    ProgressBox* box = &job->progress;
    const int total = std::max(1, p.reps);
    const double repFrac = p.rep < 0 ? 0.0 : double(p.rep + 1) / double(total);
    const double implFrac = (double(p.implIndex) + repFrac) / double(std::max(1, p.implCount));
    const double fraction = (double(point) + implFrac) / double(std::max(1, points));
    QString text = QString::fromStdString(p.implId) +
                   (p.rep < 0 ? QStringLiteral(" warm-up") : QStringLiteral(" rep %1/%2").arg(p.rep + 1).arg(total));
    if (!p.waiting.empty()) text = QString::fromStdString(p.waiting);  // a queued job (Slurm) before the run starts
    if (points > 1) text = QStringLiteral("sweep point %1/%2: ").arg(point + 1).arg(points) + text;
    {
      std::lock_guard lock(box->mutex);
      box->fraction = fraction;
      box->text = text;
    }
    if (box->pending.exchange(true)) return;  // one event in flight carries the latest value
    QMetaObject::invokeMethod(
        this, [this, job] { deliverProgress(job); }, Qt::QueuedConnection);
  };
}

void RunController::deliverProgress(const std::shared_ptr<Job>& job) {
  // The window redraws its progress for each event; one per repetition of a few microseconds would keep the GUI
  // thread drawing beside the timed repetitions, on the cores CPU parallel's team needs (each repetition then waits
  // for the thread the drawing displaced, milliseconds). At most one every kProgressIntervalMs, never a late one.
  constexpr qint64 kProgressIntervalMs = 100;
  if (m_progressShown.isValid() && m_progressShown.elapsed() < kProgressIntervalMs)
    return void(QTimer::singleShot(kProgressIntervalMs - m_progressShown.elapsed(), this,
                                   [this, job] { deliverProgress(job); }));
  ProgressBox& latest = job->progress;
  double f;
  QString t;
  {
    std::lock_guard lock(latest.mutex);
    f = latest.fraction;
    t = latest.text;
  }
  latest.pending.store(false);
  if (job->id != m_current) return;
  m_progressShown.start();
  emit progress(job->id, f, t);
}

void RunController::execute(const std::shared_ptr<Job>& job) {
  if (job->kind == JobKind::Sweep)
    executeSweep(job);
  else
    executeRun(job);
}

void RunController::executeRun(const std::shared_ptr<Job>& job) {
  const quint64 id = job->id;
  auto outcome = std::make_shared<RunOutcome>();
  outcome->request = job->request;
  bool cancelled = job->cancel->cancelled();  // superseded before it started: do not run at all
  if (!cancelled) {
    const auto t0 = std::chrono::steady_clock::now();
    outcome->result = m_backend->run(job->request, job->cancel.get(), progressFn(job, 0, 1));
    if (outcome->result.cudaFault()) emit cudaFault(id);
    outcome->programOutput = m_backend->takeProgramOutput();
    if (const Workload* w = m_backend->registry().find(job->request.workload)) outcome->workload = &w->info();
    cancelled = job->cancel->cancelled();
    if (!cancelled && job->postProcess) job->postProcess(*outcome);
    // Before this thread can start another run: the worker's exported buffers live until its next run.
    if (!cancelled && job->deviceImport) job->deviceImport(*outcome);
    outcome->seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  }
  std::shared_ptr<const RunOutcome> done = std::move(outcome);
  QMetaObject::invokeMethod(
      this,
      [this, id, done, cancelled] {
        if (!acceptFinal(id)) return;
        if (cancelled)
          emit jobCancelled(id);
        else
          emit runFinished(id, done);
      },
      Qt::QueuedConnection);
}

void RunController::executeSweep(const std::shared_ptr<Job>& job) {
  const quint64 id = job->id;
  const int count = static_cast<int>(job->cells.size());
  SweepCallback post([this, id, count](std::size_t cell, const SweepPoint& p, const RunResult& r) {
    if (r.cudaFault()) emit cudaFault(id);
    const int i = static_cast<int>(cell);
    QMetaObject::invokeMethod(
        this,
        [this, id, i, count, p] {
          if (id == m_current) emit sweepPoint(id, i, count, p);
        },
        Qt::QueuedConnection);
  });
  auto run = [this](const RunRequest& r, const CancelToken* c, const ProgressFn& p) { return m_backend->run(r, c, p); };
  auto progress = [this, job, count](std::size_t cell, const Progress& p) { progressFn(job, int(cell), count)(p); };
  const bool cancelled = !runSweep(job->plan, job->cells, run, {&post}, job->cancel.get(), progress);
  QMetaObject::invokeMethod(
      this,
      [this, id, cancelled] {
        if (!acceptFinal(id)) return;
        if (cancelled) emit jobCancelled(id);
        emit sweepFinished(id, cancelled);
      },
      Qt::QueuedConnection);
}

}  // namespace launchlab::ui
