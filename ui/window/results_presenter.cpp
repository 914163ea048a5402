#include "window/results_presenter.h"

#include <QTimer>
#include <utility>

#include "dialogs/export_dialog.h"
#include "editor/kernel_editor.h"
#include "explorer/sweep_pane.h"
#include "gl/device_imports.h"
#include "models/log_text.h"
#include "models/plot_data.h"
#include "models/settings.h"
#include "plots/charts.h"
#include "plots/outputs_pane.h"
#include "plots/results_tables.h"
#include "window/banner.h"
#include "window/desk.h"

namespace launchlab::ui {

ResultsPresenter::ResultsPresenter(Desk& desk, RunController& controller, const Registry& registry,
                                   AppSettings& settings, const QElapsedTimer* startClock, QWidget* dialogParent)
    : QObject(dialogParent),
      m_desk(desk),
      m_controller(controller),
      m_registry(registry),
      m_settings(settings),
      m_startClock(startClock),
      m_dialogParent(dialogParent) {}

void ResultsPresenter::prepare(RunOutcome& o, const Registry& registry) {
  if (const Workload* w = registry.find(o.result.workload)) o.prepared = prepareRun(o.result, w->info(), 512);
}

void ResultsPresenter::show(std::shared_ptr<const RunOutcome> outcome) {
  std::shared_ptr<const RunOutcome> previousRun = std::exchange(m_last, std::move(outcome));
  const RunResult& r = m_last->result;
  if (const Workload* w = m_registry.find(r.workload)) m_desk.outputsPane()->setWorkload(*w, {});
  m_desk.outputsPane()->setOutcome(m_last);
  m_desk.timingChart()->setResult(r);
  m_desk.verificationTable()->setResult(r);
  m_desk.resultsTable()->setResult(r);
  m_desk.kernelEditor()->showRunCounters(r);  // my-kernel's lines, under the editor
  emit outcomeShown(r);
  showRunProblems(r);
  if (m_export) m_export->setRun(m_last, m_desk.sweepPane()->points());
  // Views and the export window now hold the new result: the old one is freed off the GUI thread.
  m_controller.disposeLater(std::move(previousRun));
}

void ResultsPresenter::display(quint64 id, std::shared_ptr<const RunOutcome> outcome) {
  QElapsedTimer t;
  t.start();
  m_desk.recordedBanner()->hide();  // measured here and now
  show(std::move(outcome));
  logRun(id, *m_last, t.elapsed());
  if (m_last->deviceImports) m_desk.log("plots: " + m_last->deviceImports->note());
  m_desk.setStatus(runStatusText(m_last->result, m_jobClock.elapsed() / 1000.0));
  m_lastDisplayMs = t.elapsed();
  firstPlotIfWaiting();
  emit runDisplayed(id);
}

void ResultsPresenter::showLiveFrame(std::shared_ptr<const RunOutcome> outcome) {
  std::shared_ptr<const RunOutcome> previous = std::exchange(m_last, std::move(outcome));
  m_desk.recordedBanner()->hide();
  if (const Workload* w = m_registry.find(m_last->result.workload)) m_desk.outputsPane()->setWorkload(*w, {});
  m_desk.outputsPane()->setOutcome(m_last, /*live=*/true);
  if (m_export) m_export->setRun(m_last, m_desk.sweepPane()->points());
  m_controller.disposeLater(std::move(previous));
  firstPlotIfWaiting();
}

void ResultsPresenter::showRunProblems(const RunResult& r) {
  Banner* banner = m_desk.errorBanner();
  const QString problems = runProblemsText(r), sharing = runSharingText(r);
  QStringList warnings;
  for (const QString& w : {runLessonsText(r), sharing})
    if (!w.isEmpty()) warnings << w;
  // Red for what went wrong; amber with a lesson's icon for a demonstration's wrong result, which is the lesson, not
  // a failure; amber with a warning's for times measured beside another process on the GPU.
  const Banner::Level shown = banner->level();
  if (!problems.isEmpty())
    banner->showMessage(Banner::Level::Error, problems);
  else if (!warnings.isEmpty())
    banner->showMessage(sharing.isEmpty() ? Banner::Level::Lesson : Banner::Level::Warning, warnings.join("<br>"));
  else if (shown == Banner::Level::Error || shown == Banner::Level::Lesson || isRunWarningText(banner->text()))
    banner->hide();
}

void ResultsPresenter::logRun(quint64 id, const RunOutcome& o, qint64 shownMs) {
  for (const auto& i : o.result.impls) m_desk.log(implResultLine(i));
  for (const QString& line : programOutputLines(o.programOutput)) m_desk.log(line);
  m_desk.log(jobFinishedLine(id, o.result, m_jobClock.elapsed() / 1000.0, o.seconds, shownMs));
}

void ResultsPresenter::firstPlotIfWaiting() {
  if (!m_waitingFirstPlot) return;
  m_waitingFirstPlot = false;
  // The first plot is on screen when its replot (queued) has happened and the window painted it.
  QTimer::singleShot(0, this, [this] {
    m_desk.outputsPane()->replotFirstNow();
    m_firstPlotMs = m_startClock ? m_startClock->elapsed() : -1;
    if (m_firstPlotMs >= 0) m_desk.log(coldStartLine(m_firstPlotMs));
    emit firstPlotShown(m_firstPlotMs);
  });
}

ExportDialog* ResultsPresenter::exportDialog() {
  if (!m_export) {
    m_export = new ExportDialog(m_dialogParent);
    m_export->setFolder(m_settings.exportFolder());
    connect(m_export, &ExportDialog::exported, this, [this](bool ok, const QString& msg) {
      m_desk.log(msg);
      m_settings.setExportFolder(m_export->folder());
      if (!ok) m_desk.errorBanner()->showMessage(Banner::Level::Error, msg.toHtmlEscaped());
    });
  }
  return m_export;
}

void ResultsPresenter::openExport() {
  ExportDialog* d = exportDialog();
  int current = 0;
  const QList<ExportDialog::Target> targets = m_desk.exportTargets(&current);
  d->setTargets(targets, current);
  d->setRun(m_last, m_desk.sweepPane()->points());
  d->show();
  d->raise();
  d->activateWindow();
}

}  // namespace launchlab::ui
