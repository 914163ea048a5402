#pragma once
/// How a result gets on screen: a finished run's (display), a live frame's, a run file's (show): the output views,
/// the timing chart, the tables, the error or lesson banner, the log and the export window, with the time it took
/// and the cold start to the first plot. Keeps the outcome on screen; the one before is freed off the GUI thread.
#include <QElapsedTimer>
#include <QObject>
#include <memory>

#include "runs/controller.h"

class QWidget;

namespace launchlab::ui {

class AppSettings;
class Desk;
class ExportDialog;

class ResultsPresenter : public QObject {
  Q_OBJECT
 public:
  /// `startClock`: the process start, for "cold start to first plot" (may be null). `dialogParent`: the export
  /// window's.
  ResultsPresenter(Desk& desk, RunController& controller, const Registry& registry, AppSettings& settings,
                   const QElapsedTimer* startClock, QWidget* dialogParent);

  /// The plots' data, made on the compute thread (RunController::setPostProcess) or for a run file.
  static void prepare(RunOutcome& o, const Registry& registry);

  std::shared_ptr<const RunOutcome> last() const { return m_last; }
  /// Milliseconds from process start to the first plot on screen (-1 until then).
  qint64 firstPlotMs() const { return m_firstPlotMs; }
  /// GUI-thread milliseconds the last result took to put on screen (views, charts, tables).
  qint64 lastDisplayMs() const { return m_lastDisplayMs; }
  /// The next result shown is the first plot: its time from the process start is measured.
  void expectFirstPlot(bool on = true) { m_waitingFirstPlot = on; }
  void firstPlotIfWaiting();

  /// A run starts: its wall time is measured from now.
  void runStarted() { m_jobClock.start(); }
  /// Run `id`'s result, measured here and now.
  void display(quint64 id, std::shared_ptr<const RunOutcome> outcome);
  /// The views, charts, tables and export window show `outcome`.
  void show(std::shared_ptr<const RunOutcome> outcome);
  /// A live frame: the output views only (the tables wait for the last frame).
  void showLiveFrame(std::shared_ptr<const RunOutcome> outcome);

  ExportDialog* exportDialog();
  /// The export window, offering every plot with the one in front chosen.
  void openExport();

 signals:
  void runDisplayed(quint64 id);
  void firstPlotShown(qint64 ms);
  /// `r` is on screen (a run, a run file, live mode's last frame).
  void outcomeShown(const RunResult& r);

 private:
  void showRunProblems(const RunResult& r);
  void logRun(quint64 id, const RunOutcome& o, qint64 shownMs);

  Desk& m_desk;
  RunController& m_controller;
  const Registry& m_registry;
  AppSettings& m_settings;
  const QElapsedTimer* m_startClock;
  QWidget* m_dialogParent;
  ExportDialog* m_export = nullptr;
  std::shared_ptr<const RunOutcome> m_last;
  QElapsedTimer m_jobClock;
  qint64 m_firstPlotMs = -1;
  qint64 m_lastDisplayMs = 0;
  bool m_waitingFirstPlot = false;
};

}  // namespace launchlab::ui
