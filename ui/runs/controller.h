#pragma once
/// RunController: runs engine jobs off the GUI thread (hotspot's job tracker, in spirit).
///
/// One dedicated compute thread runs one job at a time, so GPU timings never overlap. start*() copies the
/// request, gives the job an id and returns at once; results come back by queued call on the GUI thread.
/// Starting a job supersedes (cancels) the previous one, and a result of a superseded job is dropped
/// (staleDropped) rather than shown. Progress is coalesced: at most one progress event is in flight, and at most
/// one progress signal every 100 ms (the window's redrawing must not share the cores with timed repetitions).
#include <QElapsedTimer>
#include <QObject>
#include <QString>
#include <QThread>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "launchlab/explorer/sweep.h"
#include "models/backend.h"
#include "models/chart_data.h"
#include "models/plot_data.h"

namespace launchlab::ui {

enum class JobKind { Run, Sweep };

/// A finished run as delivered to the GUI: the engine's result and the plot data prepared beside it.
class DeviceImports;

struct RunOutcome {
  RunResult result;
  RunRequest request;                      ///< what was asked (the history's "copy as command")
  const WorkloadInfo* workload = nullptr;  ///< the run's workload (from the backend's registry), for exports
  PreparedRun prepared;  ///< filled by the post-process hook (on the compute thread); points into `result`
  /// The GPU outputs taken from the worker's device memory (device_imports.h), when the controller's device import
  /// is on; the interop frame source draws them without a host round trip.
  std::shared_ptr<const DeviceImports> deviceImports;
  double seconds = 0;  ///< wall time of the job on the compute thread
  /// What the run's code printed in the worker (Backend::takeProgramOutput): the program's output, for the log.
  std::string programOutput;
};

class RunController : public QObject {
  Q_OBJECT
 public:
  /// Runs on the compute thread after each run (not after sweep points), e.g. to build plot pyramids.
  using PostProcess = std::function<void(RunOutcome&)>;

  explicit RunController(std::shared_ptr<Backend> backend, QObject* parent = nullptr);
  /// Cancels the current job and waits for the compute thread to finish it.
  ~RunController() override;

  Backend& backend() { return *m_backend; }
  const Backend& backend() const { return *m_backend; }
  void setPostProcess(PostProcess fn) { m_postProcess = std::move(fn); }
  /// With `fn`: run jobs that keep their outputs ask the backend to leave the GPU outputs on the device
  /// (RunRequest::exportDeviceOutputs) and `fn` takes them on the compute thread right after the run (after the
  /// post-process), before any other job can start a run: the exported buffers live until the worker's next run.
  /// Without (nullptr): nothing is exported. Applies to jobs started from then on.
  void setDeviceImport(PostProcess fn) { m_deviceImport = std::move(fn); }
  bool deviceImportOn() const { return bool(m_deviceImport); }

  /// Starts a run of `req` (copied). Returns the job id (> 0).
  quint64 startRun(const RunRequest& req);
  /// Runs `base` once per block size (and, with `grids`, per block and grid: the block axis first) with only
  /// `implId` selected and a fresh reference each time; every point (including skipped and failed ones, with their
  /// reason) is reported by sweepPoint(), its values in axis order.
  quint64 startSweep(const RunRequest& base, const std::string& implId, const std::vector<Dim3>& blocks,
                     const std::vector<std::string>& grids = {});
  /// An N sweep of `implIds` (the CPU implementations and a GPU one): the CPU/GPU crossover (core/crossover.h).
  quint64 startNSweep(const RunRequest& base, const std::vector<std::string>& implIds,
                      const std::vector<std::string>& ns);
  /// Asks the current job to stop at its next repetition; jobCancelled() follows.
  void cancel();
  /// Releases `outcome` on the compute thread, after any job queued before: freeing gigabytes of arrays
  /// (munmap of every page) must not stall the GUI thread.
  void disposeLater(std::shared_ptr<const RunOutcome> outcome);
  /// Asks the backend for the device's roofline ceilings on the compute thread, after any job queued before;
  /// ceilingsReady() brings them (measured once per device, then cached by the backend).
  void requestCeilings();
  bool busy() const { return m_current != 0; }
  quint64 currentJob() const { return m_current; }
  JobKind currentKind() const { return m_currentKind; }

 signals:
  void jobStarted(quint64 id, launchlab::ui::JobKind kind);
  /// fraction in [0, 1]; text says which implementation, repetition and sweep point.
  void progress(quint64 id, double fraction, const QString& text);
  void runFinished(quint64 id, std::shared_ptr<const launchlab::ui::RunOutcome> outcome);
  /// A run or a sweep point of job `id` ended in a CUDA fault (RunResult::cudaFault), whether or not its result is
  /// shown; sent from the compute thread before the result is delivered (GlViews checks OpenGL then).
  void cudaFault(quint64 id);
  void sweepPoint(quint64 id, int index, int count, const launchlab::SweepPoint& point);
  void sweepFinished(quint64 id, bool cancelled);
  void jobCancelled(quint64 id);
  /// A result of a job that was superseded arrived and was dropped.
  void staleDropped(quint64 id);
  void busyChanged(bool busy);
  void ceilingsReady(const launchlab::Ceilings& ceilings);
  /// The backend's device became known (a deferred query, Backend::deviceQueryPending, answered or timed out): the
  /// window shows it and checks its form again.
  void deviceStatusChanged();

 private:
  struct Job;
  struct ProgressBox;
  quint64 submit(std::shared_ptr<Job> job);
  /// Hands `job` to the compute thread once this (the GUI) thread has done the repaints asked for so far.
  void executeAfterRepaint(const std::shared_ptr<Job>& job);
  bool event(QEvent* e) override;
  void execute(const std::shared_ptr<Job>& job);  // compute thread
  void executeRun(const std::shared_ptr<Job>& job);
  void executeSweep(const std::shared_ptr<Job>& job);
  ProgressFn progressFn(const std::shared_ptr<Job>& job, int point, int points);
  void deliverProgress(const std::shared_ptr<Job>& job);  // GUI thread: the latest progress, at a bounded rate
  bool acceptFinal(quint64 id);                           // GUI thread: true when `id` is current (and clears it)

  std::shared_ptr<Backend> m_backend;
  PostProcess m_postProcess;
  PostProcess m_deviceImport;
  QThread m_thread;
  QObject* m_worker = nullptr;  // lives in m_thread; jobs run as queued calls on it
  quint64 m_nextId = 1;
  quint64 m_current = 0;
  JobKind m_currentKind = JobKind::Run;
  std::shared_ptr<CancelToken> m_currentToken;
  QElapsedTimer m_progressShown;  ///< since the last progress signal
};

}  // namespace launchlab::ui

Q_DECLARE_METATYPE(launchlab::ui::JobKind)
Q_DECLARE_METATYPE(launchlab::SweepPoint)
Q_DECLARE_METATYPE(launchlab::Ceilings)
Q_DECLARE_METATYPE(std::shared_ptr<const launchlab::ui::RunOutcome>)
