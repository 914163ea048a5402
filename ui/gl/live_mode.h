#pragma once
/// Live mode: the selected implementation runs again and again, a new seed per frame, through the
/// RunController like any run (so the compute thread, the worker process and cancellation stay as they are). At
/// most one run is in flight: the next frame starts only when the previous one has arrived and been handed on
/// (frameReady). A failed frame stops live mode with one message; another job (Run, a sweep) stops it too.
#include <QElapsedTimer>
#include <QLabel>
#include <QObject>
#include <QPointer>
#include <deque>
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "runs/controller.h"

namespace launchlab::ui {

/// What the overlay shows about the frames so far.
struct LiveStats {
  int frames = 0;          ///< frames shown since live mode started
  double fps = 0;          ///< over the last second of frames (0 before the second frame)
  double kernelMs = 0;     ///< the implementation's kernel (CPU: loop) time of the last frame
  std::string implTitle;   ///< the implementation that runs
  std::uint64_t seed = 0;  ///< the last frame's seed
  double runMs = 0;        ///< the last frame: its request sent to its outcome back (compute thread, worker, import)
  double showMs = 0;       ///< the last frame: handing it to the views on the GUI thread (GL views draw it after)
};

/// The implementation live mode runs for a request of `w` (impls as ticked, empty: all): `shown` when the request
/// runs it, else the first ticked GPU variant when `gpu` (a device is there), else cpu-parallel, else the first
/// ticked one, else cpu-serial.
std::string liveImplOf(const Workload& w, const RunRequest& req, const std::string& shown, bool gpu);
/// The request of frame `frame` (0, 1, …): `base` with only `impl` (cpu-serial, the reference, still runs), one
/// repetition and no warm-up, arrays kept for drawing, and seed base.seed + frame.
RunRequest liveFrameRequest(RunRequest base, const std::string& impl, std::uint64_t frame);
/// "live: 12.3 fps · kernel 0.84 ms/frame · frame 57"
QString liveStatsText(const LiveStats& s);
/// The frame's scalar outputs (PlotKind::Scalar, one element) of implementation `impl`, for the overlay:
/// "pi = 3.14180521" (Monte Carlo pi's running estimate); "" when it has none.
QString liveScalarsText(const WorkloadInfo& info, const RunResult& r, const std::string& impl);
/// Where a frame's time goes: "last frame: run 1.92 ms (request to outcome) · shown in 0.61 ms"
QString liveTimingText(const LiveStats& s);

class LiveMode : public QObject {
  Q_OBJECT
 public:
  /// The request of the next frame (the form as it is now, impl chosen) or nullopt with `why` set.
  using RequestFn = std::function<std::optional<RunRequest>(QString& why)>;
  LiveMode(RunController& controller, RequestFn request, QObject* parent = nullptr);

  bool active() const { return m_active; }
  /// Whether `id` is a job live mode started (its result is live mode's to show, not the window's).
  bool ownsJob(quint64 id) const { return id != 0 && id == m_job; }
  const LiveStats& stats() const { return m_stats; }

 public slots:
  /// Starts live mode (no-op when active); failed() when there is no request to run.
  void start();
  /// Stops live mode (no-op when inactive), cancelling the frame in flight; stopped() says why.
  void stop(const QString& why = QStringLiteral("stopped"));
  void setActive(bool on) { on ? start() : stop(); }

 signals:
  void activeChanged(bool on);
  /// A frame to draw (`outcome` of the live request; stats updated).
  void frameReady(std::shared_ptr<const launchlab::ui::RunOutcome> outcome, const launchlab::ui::LiveStats& stats);
  /// One line about why live mode could not go on (a failed frame, no valid request); live mode has stopped.
  void failed(const QString& message);
  /// Live mode ended: "live mode stopped (Esc) after 120 frames, 29.8 fps".
  void stopped(const QString& summary);

 private:
  void next();
  void onFinished(quint64 id, std::shared_ptr<const RunOutcome> outcome);
  void onStarted(quint64 id);
  void updateStats(const RunOutcome& o);
  /// Why the frame cannot be shown (a failed run or implementation), "" when it can.
  static QString frameProblem(const RunOutcome& o, const std::string& impl);

  RunController& m_controller;
  RequestFn m_request;
  bool m_active = false;
  bool m_submitting = false;
  quint64 m_job = 0;
  QElapsedTimer m_sent;  ///< since the frame in flight was requested
  std::uint64_t m_frame = 0;
  std::string m_impl;
  LiveStats m_stats;
  QElapsedTimer m_clock;
  std::deque<qint64> m_frameTimes;  ///< ms since start of the frames of the last second
};

/// The small box over the plots while live mode runs: stats and the drawing path, in the top-right corner of the
/// widget it is placed over.
class LiveOverlay : public QLabel {
  Q_OBJECT
 public:
  explicit LiveOverlay(QWidget* parent);
  /// Shows `text` over `target` (a descendant of the parent), in its top-right corner.
  void showOver(QWidget* target, const QString& text);
};

}  // namespace launchlab::ui

Q_DECLARE_METATYPE(launchlab::ui::LiveStats)
