#include "window/run_files.h"

#include <QAction>
#include <QFileDialog>
#include <QFileInfo>
#include <QLabel>
#include <QStyle>
#include <QToolBar>
#include <new>
#include <stdexcept>

#include "explorer/sweep_pane.h"
#include "launchlab/files/run_file.h"
#include "models/form_state.h"
#include "models/settings.h"
#include "models/text.h"
#include "window/banner.h"
#include "window/desk.h"
#include "window/param_panel.h"
#include "window/results_presenter.h"

namespace launchlab::ui {

namespace {
const QString kRunFileFilter = "LaunchLab runs (*.llrun)";

/// The form that runs the recorded request again, on this machine.
FormState formOf(const RunResult& r, const Workload& w) {
  FormState f = defaultForm(w);
  f.size = sizeText(r.n);
  f.dtype = r.dtype;
  for (const auto& [k, v] : r.params) f.params[k] = v;
  f.impls.clear();
  for (const auto& i : r.impls) f.impls.push_back(i.implId);
  f.reps = r.reps;
  f.warmup = r.warmup;
  f.seed = r.seed;
  f.autoBlock = !r.requestedLaunch.block;
  if (r.requestedLaunch.block) f.block = formatDim3(*r.requestedLaunch.block);
  f.autoGrid = !r.requestedLaunch.grid;
  if (r.requestedLaunch.grid) f.grid = formatDim3(*r.requestedLaunch.grid);
  f.traceBlocks = r.traceBlocks;
  return f;
}

/// Reads a run file: the outcome, or why not (a bad file, or no memory for a large one). Any thread.
std::shared_ptr<RunOutcome> readRunFile(const QString& path, QString& why) {
  auto outcome = std::make_shared<RunOutcome>();
  try {
    outcome->result = runfile::load(path.toStdString());
  } catch (const std::exception& e) {
    why = dynamic_cast<const std::bad_alloc*>(&e) ? path + ": not enough memory to open it" : q(e.what());
    return nullptr;
  }
  return outcome;
}
}  // namespace

RunFiles::RunFiles(Desk& desk, ResultsPresenter& results, const Registry& registry, AppSettings& settings,
                   std::function<void(const QString&)> selectWorkload, QWidget* window)
    : QObject(window),
      m_desk(desk),
      m_results(results),
      m_registry(registry),
      m_settings(settings),
      m_selectWorkload(std::move(selectWorkload)),
      m_window(window) {}

void RunFiles::addActions(QToolBar* tb) {
  QStyle* style = m_window->style();
  m_openAct = new QAction(style->standardIcon(QStyle::SP_DialogOpenButton), "Open run\xE2\x80\xA6", m_window);
  m_openAct->setShortcut(QKeySequence::Open);
  m_openAct->setToolTip("Open a saved run (.llrun), measured here or on another machine (Ctrl+O)");
  m_saveAct = new QAction(style->standardIcon(QStyle::SP_DriveFDIcon), "Save run\xE2\x80\xA6", m_window);
  m_saveAct->setShortcut(QKeySequence::Save);
  m_saveAct->setToolTip(
      "Save the run on screen (request, device, timings, verification, arrays) as one .llrun "
      "file (Ctrl+S)");
  for (QAction* a : {m_openAct, m_saveAct}) {
    a->setShortcutContext(Qt::WindowShortcut);
    tb->addAction(a);
  }
  connect(m_openAct, &QAction::triggered, this, &RunFiles::openDialog);
  connect(m_saveAct, &QAction::triggered, this, &RunFiles::saveDialog);
}

void RunFiles::openDialog() {
  const QString path = QFileDialog::getOpenFileName(m_window, "Open run", m_settings.exportFolder(), kRunFileFilter);
  if (!path.isEmpty()) openInBackground(path);
}

void RunFiles::saveDialog() {
  const auto last = m_results.last();
  if (!last) {
    m_desk.errorBanner()->showMessage(Banner::Level::Warning, "Nothing to save yet: run something first (Ctrl+R).");
    return;
  }
  const QString name = q(last->result.workload + "-" + last->result.timestamp.substr(0, 10)) + ".llrun";
  QString path =
      QFileDialog::getSaveFileName(m_window, "Save run", m_settings.exportFolder() + "/" + name, kRunFileFilter);
  if (path.isEmpty()) return;
  if (!path.endsWith(".llrun")) path += ".llrun";
  save(path);
}

bool RunFiles::save(const QString& path) {
  const auto last = m_results.last();
  if (!last) return false;
  try {
    runfile::save(path.toStdString(), last->result);  // atomic: temporary file, then rename
  } catch (const std::exception& e) {
    m_desk.errorBanner()->showMessage(Banner::Level::Error, ("Could not save the run: " + q(e.what())).toHtmlEscaped());
    m_desk.log("could not save the run: " + q(e.what()));
    return false;
  }
  m_settings.setExportFolder(QFileInfo(path).absolutePath());
  const bool arrays = !last->result.inputs.empty();
  m_desk.log("saved the run to " + path + (arrays ? "" : " (without arrays: this run did not keep them)"));
  return true;
}

bool RunFiles::open(const QString& path) {
  QString why;
  return show(path, readRunFile(path, why), why);
}

void RunFiles::openInBackground(const QString& path, std::function<void(bool)> then) {
  auto outcome = std::make_shared<std::shared_ptr<RunOutcome>>();
  auto why = std::make_shared<QString>();
  const bool started = m_read.start([path, outcome, why] { *outcome = readRunFile(path, *why); },
                                    [this, path, outcome, why, then] {
                                      const bool shown = show(path, std::move(*outcome), *why);
                                      if (then) then(shown);
                                    });
  if (!started) {
    m_desk.log("still opening the previous run file; " + path + " was not opened");
    if (then) then(false);
    return;
  }
  m_desk.setStatus("Opening " + QFileInfo(path).fileName() + "\u2026");
}

bool RunFiles::show(const QString& path, std::shared_ptr<RunOutcome> outcome, const QString& why) {
  if (!outcome) {  // what is on screen stays
    m_desk.errorBanner()->showMessage(Banner::Level::Error, ("Cannot open the run: " + why).toHtmlEscaped());
    m_desk.log("cannot open the run: " + why);
    m_desk.setStatus({});
    return false;
  }
  const RunResult& r = outcome->result;
  const Workload* w = m_registry.find(r.workload);
  if (!w) {
    m_desk.errorBanner()->showMessage(
        Banner::Level::Error,
        ("Cannot open " + path + ": it is a run of workload \u201C" + q(r.workload) + "\u201D, which this build lacks")
            .toHtmlEscaped());
    return false;
  }
  m_selectWorkload(q(r.workload));
  m_desk.paramPanel()->setForm(formOf(r, *w));
  outcome->workload = &w->info();
  ResultsPresenter::prepare(*outcome, m_registry);
  m_results.show(outcome);
  const QString where = q(runfile::recordedOn(r));
  m_desk.recordedBanner()->showMessage(
      Banner::Level::Info, "<b>Recorded on " + where.toHtmlEscaped() + "</b> \u2014 opened from " +
                               QFileInfo(path).fileName().toHtmlEscaped() + " (host: " + q(r.host).toHtmlEscaped() +
                               "). Run (Ctrl+R) measures it again on this machine.");
  m_desk.log("opened " + path + ": recorded on " + where);
  m_desk.setStatus("Opened " + QFileInfo(path).fileName());
  m_settings.setExportFolder(QFileInfo(path).absolutePath());
  m_results.firstPlotIfWaiting();
  return true;
}

void RunFiles::openSweep(const QString& path) {
  m_desk.showSweepLarge();
  m_desk.sweepPane()->openSweepFileInBackground(path);
}

}  // namespace launchlab::ui
