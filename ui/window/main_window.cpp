#include "window/main_window.h"

#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QSplitter>
#include <QStatusBar>
#include <QTimer>
#include <QToolBar>

#include "dialogs/device_picker.h"
#include "editor/kernel_editor.h"
#include "explorer/sweep_pane.h"
#include "gl/live_mode.h"
#include "models/log_text.h"
#include "models/presets.h"
#include "models/settings.h"
#include "models/text.h"
#include "plots/outputs_pane.h"
#include "window/banner.h"
#include "window/param_panel.h"
#include "window/preset_menu.h"
#include "window/tooltips.h"
#include "window/window_fit.h"
#include "window/workload_browser.h"

namespace launchlab::ui {

namespace {}  // namespace

QString MainWindow::defaultWorkload(const Registry& r) {
  for (const char* id : {"pulse_waveform", "vector_add"})
    if (r.find(id)) return id;
  return r.all().empty() ? QString() : q(r.all().front()->info().id);
}

MainWindow::MainWindow(std::shared_ptr<Backend> backend, std::unique_ptr<AppSettings> settings,
                       MainWindowOptions options)
    : m_backend(std::move(backend)), m_settings(std::move(settings)), m_options(std::move(options)) {
  setWindowTitle("LaunchLab");
  m_controller = new RunController(m_backend, this);
  m_controller->setPostProcess(
      [registry = &m_backend->registry()](RunOutcome& o) { ResultsPresenter::prepare(o, *registry); });
  buildParts();
  buildToolbar();
  connectParts();
  m_devices->showStatus();
  if (!m_options.backendNote.isEmpty()) m_desk->log(m_options.backendNote);
  if (const QString why = m_settings->problem(); !why.isEmpty()) {  // said once, not in a dialog
    m_desk->errorBanner()->showMessage(Banner::Level::Warning, why.toHtmlEscaped());
    m_desk->log(why);
  }
  if (m_options.startDevice) m_devices->picker()->choose(*m_options.startDevice);
  connectController();
  selectStartWorkload();

  installTooltipWrapping(*qApp);
  placeOnScreen(*this, m_settings->windowGeometry());
  restoreState(m_settings->windowState());
  if (const auto desk = m_settings->desk()) {  // the desk as the student left it
    m_desk->restore(desk->panelShown, desk->mainSplit, desk->resultsSplit);
    m_actions.panel->setChecked(desk->panelShown);
  }
  if (m_options.forcePresentation || m_settings->presentation())
    QTimer::singleShot(0, this, [this] { m_stage->setPresentationMode(true); });
  whenDeviceKnown([this, waited = m_backend->deviceQueryPending()] { startFirstAction(waited); });
  if (!m_options.openSweep.isEmpty())
    QTimer::singleShot(0, this, [this] { m_runFiles->openSweep(m_options.openSweep); });
  if (!m_options.startTab.isEmpty()) QTimer::singleShot(0, this, [this] { m_desk->showTab(m_options.startTab); });
}

MainWindow::~MainWindow() {
  // The controller (a child) joins its thread before the views it might still reference go away.
  delete m_controller;
  m_controller = nullptr;
}

void MainWindow::buildParts() {
  m_desk = new Desk(*m_backend, *m_controller, m_options.exerciseFolder, this);
  setCentralWidget(m_desk);
  statusBar()->addWidget(m_desk->statusText(), 1);
  statusBar()->addPermanentWidget(m_desk->progress());
  m_desk->progress()->setVisible(false);
  const Registry& registry = m_backend->registry();
  m_results = new ResultsPresenter(*m_desk, *m_controller, registry, *m_settings, m_options.startClock, this);
  m_roofline = new RooflineWiring(*m_desk, *m_controller, *m_backend, this);
  m_editor = new EditorWiring(*m_desk, this);
  m_live = new LiveWiring(*m_desk, *m_controller, *m_backend, *m_settings, *m_results, m_options.noGl,
                          m_options.deviceImports, this);
  m_runFiles = new RunFiles(
      *m_desk, *m_results, registry, *m_settings, [this](const QString& id) { selectWorkload(id); }, this);
  m_devices = new DeviceControls(*m_desk, *m_backend, *m_controller, *m_settings, this);
  StageWiring::Hooks hooks{[this] { m_launcher->run(); }, [this] { m_launcher->startFirstRun(); },
                           [this](const QString& id) { return openCourseExperiment(id); }};
  m_stage = new StageWiring(*this, *m_desk, registry, *m_settings, *m_results, m_options.predictionsFile,
                            m_options.askBind, hooks);
  m_actions = makeMainActions(this);
  m_launcher =
      new RunLauncher({*m_desk, *m_controller, *m_backend, *m_settings, *m_results, *m_stage, *m_editor, *m_live},
                      m_options.quickRunSeconds, m_actions.run, m_actions.cancel, this);
}

void MainWindow::buildToolbar() {
  auto* tb = addToolBar("Main");
  tb->setObjectName("mainToolbar");
  tb->setMovable(false);
  tb->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
  tb->addAction(m_actions.run);
  tb->addAction(m_actions.cancel);
  addCountersAction(tb, m_desk->paramPanel());
  m_live->addLiveAction(tb);
  tb->addSeparator();
  tb->addAction(m_actions.exportPlot);
  m_runFiles->addActions(tb);
  const QString presets = m_options.presetFolder.isEmpty() ? PresetStore::defaultFolder() : m_options.presetFolder;
  m_presets = addPresetButton(tb, presets, m_backend->registry(), *m_settings, *m_desk);
  connect(m_presets, &PresetMenu::presetChosen, this, &MainWindow::applyPreset);
  tb->addSeparator();
  tb->addAction(m_actions.panel);
  tb->addAction(m_actions.present);
  tb->addAction(m_actions.fullScreen);
  m_live->addGlAction(tb);
  m_devices->addTo(tb);
  connect(m_actions.run, &QAction::triggered, m_launcher, &RunLauncher::run);
  connect(m_actions.cancel, &QAction::triggered, m_launcher, &RunLauncher::cancel);
  connect(m_actions.exportPlot, &QAction::triggered, m_results, &ResultsPresenter::openExport);
  connect(m_actions.panel, &QAction::toggled, m_stage, &StageWiring::togglePanel);
  connect(m_actions.present, &QAction::toggled, m_stage, &StageWiring::setPresentationMode);
  connect(m_actions.fullScreen, &QAction::triggered, this,
          [this] { isFullScreen() ? showNormal() : showFullScreen(); });
  auto* quit = new QAction("Quit", this);
  quit->setShortcut(QKeySequence::Quit);
  connect(quit, &QAction::triggered, this, &QWidget::close);
  addAction(quit);
  m_stage->addActions(m_actions.present, m_actions.panel, tb);
}

void MainWindow::connectParts() {
  connect(m_results, &ResultsPresenter::runDisplayed, this, &MainWindow::runDisplayed);
  connect(m_results, &ResultsPresenter::firstPlotShown, this, &MainWindow::firstPlotShown);
  connect(m_results, &ResultsPresenter::outcomeShown, m_roofline, &RooflineWiring::showRun);
  connect(m_devices, &DeviceControls::statusShown, this, [this] {
    m_stage->holdDeviceBanner();  // a device that answered while on stage: the banner waits for the desk
    m_roofline->updateCeilings(false);
  });
  connect(m_live, &LiveWiring::activeChanged, this, [this](bool on) {
    m_launcher->onBusy(m_controller->busy());  // Esc stops live mode between frames too
    m_stage->stageForLive(on);
  });
  connect(m_desk->outputsPane(), &OutputsPane::regionRequested, m_launcher, &RunLauncher::runRegion);
  connect(m_desk->sweepPane(), &SweepPane::sweepRequested, m_launcher, &RunLauncher::startSweep);
  connect(m_desk->browser(), &WorkloadBrowser::workloadSelected, this, [this](const QString& id) {
    m_stage->course().leave();  // a workload picked by hand: no longer a course experiment
    selectWorkload(id);
    m_stage->updateStageHeader();
  });
  connect(m_desk->browser(), &WorkloadBrowser::courseExperimentSelected, this, &MainWindow::openCourseExperiment);
  connect(m_desk->paramPanel(), &ParamPanel::changed, m_launcher, &RunLauncher::updateRunEnabled);
  connect(m_desk->paramPanel(), &ParamPanel::submit, m_launcher, &RunLauncher::run);
}

void MainWindow::connectController() {
  connect(m_controller, &RunController::busyChanged, m_launcher, &RunLauncher::onBusy);
  connect(m_controller, &RunController::progress, this, [this](quint64, double f, const QString& text) {
    m_desk->progress()->setValue(int(f * 1000));
    m_desk->setStatus(text);
  });
  connect(m_controller, &RunController::runFinished, this,
          [this](quint64 id, std::shared_ptr<const RunOutcome> outcome) {
            if (!m_live->liveMode()->ownsJob(id)) m_results->display(id, std::move(outcome));  // not a live frame
          });
  connect(m_controller, &RunController::jobCancelled, this, [this](quint64) {
    m_desk->log("cancelled");
    m_desk->setStatus("Cancelled");
  });
  connect(m_controller, &RunController::staleDropped, this, [this](quint64 id) { m_desk->log(staleDroppedLine(id)); });
  connect(m_controller, &RunController::sweepFinished, this,
          [this](quint64, bool cancelled) { m_desk->setStatus(cancelled ? "Sweep cancelled" : "Sweep finished"); });
}

/// The workload asked for, else the one remembered, else the default for a new user.
void MainWindow::selectStartWorkload() {
  const Registry& reg = m_backend->registry();
  QString id = m_options.startWorkload;
  if (id.isEmpty() || !reg.find(id.toStdString())) id = m_settings->lastWorkload();
  if (id.isEmpty() || !reg.find(id.toStdString())) id = defaultWorkload(reg);
  if (id.isEmpty()) return;
  m_desk->browser()->select(id);
  selectWorkload(id);
  // An experiment that does not open keeps its message on screen: no first run of the default workload hides it.
  if (!m_options.startCourse.isEmpty() && !openCourseExperiment(m_options.startCourse)) m_options.firstRun = false;
}

void MainWindow::selectWorkload(const QString& id) {
  const Workload* w = m_backend->registry().find(id.toStdString());
  ParamPanel* panel = m_desk->paramPanel();
  if (!w || panel->form().workload == w->info().id) return;
  // Remember the form being left, then show the one remembered for this workload (or its defaults).
  if (!panel->form().workload.empty()) m_settings->setLastForm(panel->form());
  panel->setForm(m_settings->lastForm(id).value_or(defaultForm(*w)));
  m_desk->fitPanelWidth(m_stage->presentation());
  // Again once the new panel's layout has settled.
  QTimer::singleShot(0, this, [this] { m_desk->fitPanelWidth(m_stage->presentation()); });
  m_settings->setLastWorkload(id);
  m_desk->browser()->select(id);
  const QString title = q(w->info().title);
  setWindowTitle("LaunchLab \xE2\x80\x94 " + title);
  m_desk->sweepPane()->setWorkload(*w);
  m_desk->kernelEditor()->setWorkload(id);
  m_desk->sweepPane()->updateControls(panel->check().ok());
  // The views for this workload's arrays are made now, not when its first result arrives (that moment is
  // spent during a run, and creating plots costs the GUI thread).
  m_desk->outputsPane()->setWorkload(*w, "Press Run (Ctrl+R) to run " + title);
  m_stage->chooseStageView(*w);
  if (m_stage->presentation()) m_stage->layoutStage();
  m_desk->markResultsStale("press Run (Ctrl+R) to run " + title);
}

void MainWindow::applyPreset(const Preset& p) {
  selectWorkload(q(p.form.workload));
  m_desk->paramPanel()->setForm(p.form);
  m_desk->markResultsStale("preset \u201C" + p.name + "\u201D loaded: press Run (Ctrl+R)");
}

bool MainWindow::openCourseExperiment(const QString& id) {
  QString why, before = currentCourseExperiment();
  const auto p = m_stage->course().open(id.toStdString(), &why);
  if (!p) {
    m_desk->errorBanner()->showMessage(Banner::Level::Error, why.toHtmlEscaped());
    return false;
  }
  if (id != before) m_stage->dropLessonBanner();
  applyPreset(*p);
  m_desk->browser()->showCourseExperiment(id);
  m_stage->setPreviewNote({});
  m_stage->chooseStageView(*m_backend->registry().find(p->form.workload));  // the experiment's own view
  if (m_stage->presentation()) m_stage->layoutStage();
  m_stage->updateStageHeader();
  return true;
}

void MainWindow::whenDeviceKnown(std::function<void()> then) {
  if (!m_backend->deviceQueryPending()) return void(QTimer::singleShot(0, this, std::move(then)));
  // The first run is formed and checked against the GPU it goes to, while the window is already on screen.
  auto once = std::make_shared<QMetaObject::Connection>();
  *once = connect(m_controller, &RunController::deviceStatusChanged, this, [once, then = std::move(then)] {
    QObject::disconnect(*once);
    then();
  });
}

void MainWindow::startFirstAction(bool waitedForDevice) {
  if (waitedForDevice && !m_options.startCourse.isEmpty() && !m_stage->course().id().empty())
    openCourseExperiment(m_options.startCourse);  // its form again, checked against the device now known
  if (!m_options.openRun.isEmpty()) {
    // launchlab --open F: the file instead of the first run; a bad file is reported and the first run goes ahead.
    m_results->expectFirstPlot();
    m_runFiles->openInBackground(m_options.openRun, [this](bool shown) {
      if (shown) return;
      m_results->expectFirstPlot(false);
      if (m_options.firstRun) m_launcher->startFirstRun();
    });
  } else if (m_options.live) {
    m_results->expectFirstPlot();
    m_live->liveAction()->setChecked(true);
  } else if (m_options.ask) {
    m_stage->askAtStart(m_options.forcePresentation);  // the class answers first; R runs
  } else if (m_options.firstRun) {
    m_launcher->startFirstRun();
  }
}

void MainWindow::closeEvent(QCloseEvent* e) {
  if (m_controller->busy()) m_controller->cancel();
  if (!m_stage->presentation()) {
    m_settings->setWindowLayout(saveGeometry(), saveState());
    m_settings->setDesk(
        {m_actions.panel->isChecked(), m_desk->mainSplit()->saveState(), m_desk->resultsSplit()->saveState()});
  }
  if (!m_desk->paramPanel()->form().workload.empty()) m_settings->setLastForm(m_desk->paramPanel()->form());
  m_settings->sync();
  QMainWindow::closeEvent(e);
}

void MainWindow::resizeEvent(QResizeEvent* e) {
  QMainWindow::resizeEvent(e);
  if (m_desk->arrangeResults(size(), minimumSizeHint().width(), m_stage->presentation())) m_stage->fitResultsSplit();
}

}  // namespace launchlab::ui
