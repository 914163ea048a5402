#include "main_window.h"

#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QScrollArea>
#include <QScrollBar>
#include <QSplitter>
#include <QStatusBar>
#include <QTabWidget>
#include <QTimer>
#include <QToolBar>
#include <QToolButton>
#include <QVBoxLayout>
#include <utility>

#include "banner.h"
#include "charts.h"
#include "crossover_view.h"
#include "device_picker.h"
#include "export_dialog.h"
#include "history_pane.h"
#include "kernel_editor.h"
#include "launchlab/parse.h"
#include "live_mode.h"
#include "log_text.h"
#include "outputs_pane.h"
#include "param_panel.h"
#include "prediction_store.h"
#include "preset_menu.h"
#include "results_tables.h"
#include "roofline_view.h"
#include "settings.h"
#include "stage.h"
#include "stage_controller.h"
#include "stage_prompt.h"
#if LAUNCHLAB_HAVE_POLL
#include "stage_poll.h"
#endif
#include "sweep_heatmap.h"
#include "sweep_pane.h"
#include "tooltips.h"
#include "window_fit.h"
#include "workload_browser.h"

namespace launchlab::ui {

namespace {
QString q(const std::string& s) { return QString::fromStdString(s); }
}  // namespace

QString MainWindow::defaultWorkload(const Registry& r) {
  for (const char* id : {"pulse_waveform", "vector_add"})
    if (r.find(id)) return id;
  return r.all().empty() ? QString() : q(r.all().front()->info().id);
}

MainWindow::MainWindow(std::shared_ptr<Backend> backend, std::unique_ptr<AppSettings> settings,
                       MainWindowOptions options)
    : m_backend(std::move(backend)),
      m_settings(std::move(settings)),
      m_options(std::move(options)),
      m_baseFont(QApplication::font()),
      m_basePalette(QApplication::palette()) {
  setWindowTitle("LaunchLab");
  m_controller = new RunController(m_backend, this);
  m_controller->setPostProcess([registry = &m_backend->registry()](RunOutcome& o) { prepareOutcome(o, *registry); });
  buildUi();
  buildActions();
  showDeviceStatus();
  if (!m_options.backendNote.isEmpty()) log(m_options.backendNote);
  if (const QString why = m_settings->problem(); !why.isEmpty()) {  // said once, not in a dialog
    m_errorBanner->showMessage(Banner::Level::Warning, why.toHtmlEscaped());
    log(why);
  }
  if (m_options.startDevice) m_devicePicker->choose(*m_options.startDevice);
  connectController();
  connectRoofline();
  connect(m_browser, &WorkloadBrowser::workloadSelected, this, [this](const QString& id) {
    m_courseId.clear();  // a workload picked by hand: no longer a course experiment
    selectWorkload(id);
    updateStageHeader();
  });
  connect(m_browser, &WorkloadBrowser::courseExperimentSelected, this, &MainWindow::openCourseExperiment);
  connect(m_panel, &ParamPanel::changed, this, [this] {
    updateRunEnabled();
    updateSweepControls();
  });
  connect(m_panel, &ParamPanel::submit, this, &MainWindow::run);
  selectStartWorkload();

  installTooltipWrapping(*qApp);
  placeOnScreen(*this, m_settings->windowGeometry());
  restoreState(m_settings->windowState());
  restoreDesk();
  if (m_options.forcePresentation || m_settings->presentation())
    QTimer::singleShot(0, this, [this] { setPresentationMode(true); });
  whenDeviceKnown([this, waited = m_backend->deviceQueryPending()] { startFirstAction(waited); });
  if (!m_options.openSweep.isEmpty()) QTimer::singleShot(0, this, [this] { openSweepFile(m_options.openSweep); });
  if (!m_options.startTab.isEmpty()) QTimer::singleShot(0, this, [this] { showBottomTab(m_options.startTab); });
}

MainWindow::~MainWindow() {
  // The controller (a child) joins its thread before the views it might still reference go away.
  delete m_controller;
  m_controller = nullptr;
}

QPushButton* MainWindow::sweepButton() const { return m_sweep->button(); }
int MainWindow::outputViewCount() const { return m_outputs->viewCount(); }
OutputView* MainWindow::outputView(int i) const { return m_outputs->view(i); }
SweepChart* MainWindow::sweepChart() const { return m_sweep->chart(); }

void MainWindow::connectController() {
  connect(m_controller, &RunController::busyChanged, this, &MainWindow::onBusy);
  connect(m_controller, &RunController::progress, this, [this](quint64, double f, const QString& text) {
    m_progress->setValue(int(f * 1000));
    m_statusText->setText(text);
  });
  connect(m_controller, &RunController::runFinished, this, &MainWindow::display);
  connect(m_controller, &RunController::jobCancelled, this, [this](quint64) {
    log("cancelled");
    m_statusText->setText("Cancelled");
  });
  connect(m_controller, &RunController::staleDropped, this, [this](quint64 id) { log(staleDroppedLine(id)); });
  connect(m_controller, &RunController::sweepFinished, this, [this](quint64 id, bool cancelled) {
    m_statusText->setText(cancelled ? "Sweep cancelled" : "Sweep finished");
    emit sweepDone(id, cancelled);
  });
}

/// The workload asked for, else the one remembered, else the default for a new user.
void MainWindow::selectStartWorkload() {
  const Registry& reg = m_backend->registry();
  QString id = m_options.startWorkload;
  if (id.isEmpty() || !reg.find(id.toStdString())) id = m_settings->lastWorkload();
  if (id.isEmpty() || !reg.find(id.toStdString())) id = defaultWorkload(reg);
  if (id.isEmpty()) return;
  m_browser->select(id);
  selectWorkload(id);
  // An experiment that does not open keeps its message on screen: no first run of the default workload hides it.
  if (!m_options.startCourse.isEmpty() && !openCourseExperiment(m_options.startCourse)) m_options.firstRun = false;
}

void MainWindow::buildUi() {
  auto* central = new QWidget(this);
  auto* lay = new QVBoxLayout(central);
  lay->setContentsMargins(6, 4, 6, 4);
  lay->setSpacing(4);
  m_deviceBanner = new Banner(central);
  m_errorBanner = new Banner(central);
  m_recordedBanner = new Banner(central, false);
  lay->addWidget(m_deviceBanner);
  lay->addWidget(m_recordedBanner);
  // Errors take their own line: a banner over the form, the tabs or a plot's title would hide what it is about.
  lay->addWidget(m_errorBanner);
  m_stageHeader = new StageHeader(central);
  m_stageHeader->setVisible(false);  // presentation mode's
  lay->addWidget(m_stageHeader);
  m_prompt = new StagePrompt(central);  // the course's question: at the desk and on the stage
  lay->addWidget(m_prompt);
#if LAUNCHLAB_HAVE_POLL
  m_poll = new StagePoll(central);  // A on the stage: the class answers the question too
  lay->addWidget(m_poll);
#endif

  auto* split = m_mainSplit = new QSplitter(Qt::Horizontal, central);
  split->setObjectName("mainSplit");
  m_browser = new WorkloadBrowser(m_backend->registry(), split);
  m_browser->setMinimumWidth(220);
  auto* scroll = m_panelScroll = new QScrollArea(split);
  scroll->setWidgetResizable(true);
  scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);  // the panel fits its width
  m_panel = new ParamPanel(*m_backend, scroll);
  scroll->setWidget(m_panel);
  scroll->setMinimumWidth(340);
  auto* results = m_resultsSplit = new QSplitter(Qt::Vertical, split);
  m_outputs = new OutputsPane;
  connect(m_outputs, &OutputsPane::regionRequested, this, &MainWindow::runRegion);
  results->addWidget(m_outputs);
  results->addWidget(buildBottomTabs());
  // The output plot is the picture: two thirds of the height (at least 40 % of a 1280x720 window).
  results->setStretchFactor(0, 2);
  results->setStretchFactor(1, 1);
  results->setChildrenCollapsible(false);
  results->setSizes({600, 300});
  split->addWidget(m_browser);
  split->addWidget(scroll);
  split->addWidget(results);
  split->setStretchFactor(0, 0);
  split->setStretchFactor(1, 0);
  split->setStretchFactor(2, 1);
  split->setSizes({250, 380, 970});
  split->setChildrenCollapsible(false);
  lay->addWidget(split, 1);
  m_keyHints = new QLabel(stageKeyHints(false), central);  // the stage's toolbar: its keys, one slim line
  m_keyHints->setObjectName("stageKeyHints");
  m_keyHints->setVisible(false);
  lay->addWidget(m_keyHints);
  setCentralWidget(central);

  m_progress = new QProgressBar;
  m_progress->setRange(0, 1000);
  m_progress->setMaximumWidth(260);
  m_progress->setTextVisible(false);
  m_statusText = new QLabel("Ready");
  statusBar()->addWidget(m_statusText, 1);
  statusBar()->addPermanentWidget(m_progress);
  m_progress->setVisible(false);
}

QWidget* MainWindow::buildBottomTabs() {
  m_bottomTabs = new QTabWidget;
  m_bottomTabs->setDocumentMode(true);
  m_bottomTabs->addTab(buildTimingPage(), "Timing");
  m_sweep = new SweepPane(*m_controller);
  connect(m_sweep, &SweepPane::sweepRequested, this, &MainWindow::startSweep);
  connect(m_sweep, &SweepPane::logLine, this, &MainWindow::log);
  m_bottomTabs->addTab(m_sweep, "Block-size sweep");
  m_roofline = new RooflineView;
  m_bottomTabs->addTab(m_roofline, "Roofline");
  m_verify = new VerificationTable;
  m_bottomTabs->addTab(m_verify, "Verification");
  m_bottomTabs->addTab(buildTablePage(), "Results table");
  m_log = new LogView;
  m_bottomTabs->addTab(m_log, "Log");
  m_history = new HistoryPane(*m_controller);
  connect(m_history, &HistoryPane::logLine, this, &MainWindow::log);
  m_bottomTabs->addTab(m_history, "History");
  m_bottomTabs->addTab(buildKernelEditor(), "My kernel");
  // A tab widget asks for the tallest page's minimum (the sweep's controls, the editor): the outputs above would
  // shrink for pages not even shown. Only the timing page keeps its own (its rows never overlap); the others
  // squeeze, and the splitter gives them room when wanted.
  for (int i = 1; i < m_bottomTabs->count(); ++i) m_bottomTabs->widget(i)->setMinimumHeight(100);
  return m_bottomTabs;
}

void MainWindow::buildActions() {
  auto* tb = addToolBar("Main");
  tb->setObjectName("mainToolbar");
  tb->setMovable(false);
  tb->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
  m_runAct = new QAction(style()->standardIcon(QStyle::SP_MediaPlay), "Run", this);
  m_runAct->setShortcut(QKeySequence("Ctrl+R"));
  m_runAct->setToolTip("Run the selected implementations (Ctrl+R)");
  m_cancelAct = new QAction(style()->standardIcon(QStyle::SP_MediaStop), "Cancel", this);
  m_cancelAct->setShortcut(QKeySequence(Qt::Key_Escape));
  m_cancelAct->setToolTip("Stop at the next repetition (Esc)");
  m_cancelAct->setEnabled(false);
  m_exportAct = new QAction(style()->standardIcon(QStyle::SP_DialogSaveButton), "Export\xE2\x80\xA6", this);
  m_exportAct->setShortcut(QKeySequence("Ctrl+E"));
  m_exportAct->setToolTip("Export a plot (PNG, PDF, SVG) or the data (CSV, JSON, .npy) (Ctrl+E)");
  m_presentAct = new QAction("Presentation", this);
  m_presentAct->setCheckable(true);
  m_presentAct->setShortcut(QKeySequence(Qt::Key_F5));
  m_presentAct->setToolTip("Projector mode: large fonts, thick lines, high contrast, full screen (F5)");
  m_panelAct = new QAction("Parameters", this);
  m_panelAct->setCheckable(true);
  m_panelAct->setChecked(true);
  m_panelAct->setShortcut(QKeySequence(Qt::Key_F4));
  m_panelAct->setToolTip("Show or hide the parameter panel (F4); presentation mode hides it so the plots get the room");
  m_fullAct = new QAction("Full screen", this);
  m_fullAct->setShortcut(QKeySequence(Qt::Key_F11));
  m_fullAct->setToolTip("Full screen (F11)");
  for (QAction* a : {m_runAct, m_cancelAct, m_exportAct, m_panelAct, m_presentAct, m_fullAct})
    a->setShortcutContext(Qt::WindowShortcut);
  tb->addAction(m_runAct);
  tb->addAction(m_cancelAct);
  addCountersAction(tb);
  addLiveAction(tb);
  tb->addSeparator();
  tb->addAction(m_exportAct);
  addRunFileActions(tb);
  addPresetButton(tb);
  tb->addSeparator();
  tb->addAction(m_panelAct);
  tb->addAction(m_presentAct);
  tb->addAction(m_fullAct);
  addGlAction(tb);
  addDevicePicker(tb);

  connect(m_runAct, &QAction::triggered, this, &MainWindow::run);
  connect(m_cancelAct, &QAction::triggered, this, &MainWindow::cancel);
  connect(m_exportAct, &QAction::triggered, this, &MainWindow::openExport);
  connect(m_panelAct, &QAction::toggled, this, &MainWindow::togglePanel);
  connect(m_presentAct, &QAction::toggled, this, &MainWindow::setPresentationMode);
  connect(m_fullAct, &QAction::triggered, this, &MainWindow::toggleFullScreen);
  auto* quit = new QAction("Quit", this);
  quit->setShortcut(QKeySequence::Quit);
  connect(quit, &QAction::triggered, this, &QWidget::close);
  addAction(quit);
  buildStageActions();
}

void MainWindow::addPresetButton(QToolBar* tb) {
  auto* button = new QToolButton;
  button->setText("Presets");
  button->setPopupMode(QToolButton::InstantPopup);
  button->setToolTip("Save and load named parameter sets (JSON)");
  const QString folder = m_options.presetFolder.isEmpty() ? PresetStore::defaultFolder() : m_options.presetFolder;
  m_presets = new PresetMenu(
      folder, m_backend->registry(), *m_settings, [this] { return m_panel->form(); }, button);
  button->setMenu(m_presets);
  connect(m_presets, &PresetMenu::presetChosen, this, &MainWindow::applyPreset);
  connect(m_presets, &PresetMenu::logLine, this, &MainWindow::log);
  connect(m_presets, &PresetMenu::failed, this,
          [this](const QString& m) { m_errorBanner->showMessage(Banner::Level::Error, m); });
  connect(m_presets, &PresetMenu::failureResolved, this, [this](const QString& m) {
    if (m_errorBanner->text() == m) m_errorBanner->hide();
  });
  tb->addWidget(button);
}

void MainWindow::addDevicePicker(QToolBar* tb) {
  m_remoteAct = new QAction("GPU server\xE2\x80\xA6", this);
  m_remoteAct->setToolTip("Run on this machine or on a GPU server over SSH (launchlab --remote)");
  connect(m_remoteAct, &QAction::triggered, this, &MainWindow::openRemoteDialog);
  tb->addAction(m_remoteAct);
  m_devicePicker = new DevicePicker(*m_backend);
  QAction* pickerAct = tb->addWidget(m_devicePicker);
  pickerAct->setVisible(m_devicePicker->hasChoice());
  connect(m_devicePicker, &DevicePicker::failed, this, [this](const QString& why) {
    m_errorBanner->showMessage(Banner::Level::Error, why.toHtmlEscaped());
    log(why);
  });
  connect(m_devicePicker, &DevicePicker::deviceChanged, this, [this](const QString& device) {
    showDeviceStatus();
    m_panel->setForm(m_panel->form());  // checked again, against this device's limits
    log("runs use " + device);
  });
  connect(m_controller, &RunController::deviceStatusChanged, this, [this, pickerAct] {  // a remote server answered
    m_devicePicker->refresh();
    pickerAct->setVisible(m_devicePicker->hasChoice());
    showDeviceStatus();
    m_panel->setForm(m_panel->form());
    const std::string who = m_backend->remoteHost().empty() ? "the GPU worker" : "the GPU server";
    log(QString::fromStdString(m_backend->deviceStatus().available ? who + " answered"
                                                                   : who + ": " + m_backend->deviceStatus().reason));
  });
}

void MainWindow::showDeviceStatus() {
  const DeviceStatus d = m_backend->deviceStatus();
  m_deviceBanner->showMessage(d.available ? Banner::Level::Info : Banner::Level::Warning,
                              deviceBannerText(d, m_backend->remoteHost()));
  if (m_style.presentation) {  // a device that answered while on stage: the banner waits for the desk
    m_deviceBannerBeforePresentation = true;
    m_deviceBanner->hide();
  }
  if (m_roofline) updateCeilings(false);
}

void MainWindow::selectWorkload(const QString& id) {
  const Workload* w = m_backend->registry().find(id.toStdString());
  if (!w) return;
  if (m_panel->form().workload == w->info().id) return;
  // Remember the form being left, then show the one remembered for this workload (or its defaults).
  if (!m_panel->form().workload.empty()) m_settings->setLastForm(m_panel->form());
  FormState f = m_settings->lastForm(id).value_or(defaultForm(*w));
  m_panel->setForm(f);
  fitPanelWidth();
  QTimer::singleShot(0, this, &MainWindow::fitPanelWidth);  // again once the new panel's layout has settled
  m_settings->setLastWorkload(id);
  m_browser->select(id);
  setWindowTitle("LaunchLab \xE2\x80\x94 " + q(w->info().title));
  m_sweep->setWorkload(*w);
  m_kernelEditor->setWorkload(id);
  updateSweepControls();
  // The views for this workload's arrays are made now, not when its first result arrives (that moment is
  // spent during a run, and creating plots costs the GUI thread).
  m_outputs->setWorkload(*w, "Press Run (Ctrl+R) to run " + q(w->info().title));
  chooseStageView(*w);
  if (m_style.presentation) layoutStage();
  markResultsStale("press Run (Ctrl+R) to run " + q(w->info().title));
}

/// The previous run's timing, tables and plots go: what is on screen belongs to the form as it is now.
void MainWindow::markResultsStale(const QString& what) {
  m_timing->markStale("Timing: " + what);
  m_outputs->markStale(what.left(1).toUpper() + what.mid(1));
  m_table->setRowCount(0);
  m_verify->setRowCount(0);
}

void MainWindow::fitPanelWidth() {
  // Wide enough for the panel (no horizontal scrolling), within reason.
  const int want = m_panel->minimumSizeHint().width() + m_panelScroll->verticalScrollBar()->sizeHint().width() +
                   2 * m_panelScroll->frameWidth() + 4;
  m_panelScroll->setMinimumWidth(std::clamp(want, 300, m_style.presentation ? 640 : 440));
}

void MainWindow::updateRunEnabled() {
  const FormCheck& c = m_panel->check();
  m_runAct->setEnabled(c.ok());
  m_runAct->setToolTip(runActionTip(c));
}

void MainWindow::updateSweepControls() { m_sweep->updateControls(m_panel->check().ok()); }

void MainWindow::onBusy(bool busy) {
  const bool live = m_live && m_live->active();  // Esc stops live mode between frames too
  m_cancelAct->setEnabled(busy || live);
  m_progress->setValue(0);
  m_progress->setVisible(busy && !live);
  updateSweepControls();
}

void MainWindow::log(const QString& line) { m_log->append(line); }

void MainWindow::startFirstRun() {
  const Workload* w = m_backend->registry().find(m_panel->form().workload);
  if (!w) return;
  FormState f = m_panel->form();
  // Start fast: the first screen (and each experiment walked on the stage) must come up in about a second.
  const int passes = 2 * (f.warmup + f.reps) + 2;
  const std::uint64_t quick = chooseQuickSize(*w, passes, m_options.quickRunSeconds);
  if (auto n = parseSize(f.size); n && *n > quick && m_panel->check().ok()) {
    m_firstRunNote = firstRunNote(quick, f.size);
    m_firstRunN = quick;
    m_previewNote = previewNote(quick, *n);
  }
  m_waitingFirstPlot = true;
  run();
}

void MainWindow::run() {
  const FormCheck& c = m_panel->check();
  if (!c.ok() || !c.request) {
    m_errorBanner->showMessage(Banner::Level::Error, cannotRunText(c));
    return;
  }
  if (c.request->userKernel) return compileThenRun(*c.request);
  startRequest(*c.request);
}

void MainWindow::startRequest(RunRequest req) {
  if (m_firstRunN)
    req.n = std::exchange(m_firstRunN, std::nullopt);
  else
    m_previewNote.clear();  // the form's own size: no longer a preview
  std::string note;
  req.keepInputs = req.keepOutputs = mayKeepArraysOf(*m_backend->registry().find(req.workload), req, note);
  if (!req.keepOutputs) {
    log(q(note));
    m_errorBanner->showMessage(Banner::Level::Warning, q(note).toHtmlEscaped());
  }
  m_settings->setLastForm(m_panel->form());
  m_settings->setLastWorkload(q(req.workload));
  m_jobClock.start();
  const quint64 id = m_controller->startRun(req);
  log(runStartLine(id, req, m_panel->form().dtype));
  m_outputs->showRunning();
  if (!m_firstRunNote.isEmpty()) {
    log(m_firstRunNote);
    m_firstRunNote.clear();
  }
  m_statusText->setText("Running\xE2\x80\xA6");
}

void MainWindow::cancel() {
  if (m_live->active()) return m_live->stop("stopped (Esc)");
  if (!m_controller->busy()) return;
  m_controller->cancel();
  m_statusText->setText("Cancelling at the next repetition\xE2\x80\xA6");
  log("cancel requested");
}

quint64 MainWindow::startSweepOf(const QString& implId) {
  const FormCheck& c = m_panel->check();
  if (!c.ok() || !c.request) return 0;
  const Workload* w = m_backend->registry().find(c.request->workload);
  const quint64 id = m_sweep->start(*w, *c.request, implId,
                                    QString("n = %1 %2").arg(q(m_panel->form().size), q(m_panel->form().dtype)));
  if (id == 0) return 0;
  m_bottomTabs->setCurrentIndex(1);
  m_statusText->setText("Sweeping\xE2\x80\xA6");
  return id;
}

void MainWindow::startSweep() {
  if (!m_sweep->button()->isEnabled()) return;
  startSweepOf(m_sweep->selectedImpl());
}

void MainWindow::logRun(quint64 id, const RunOutcome& o, qint64 shownMs) {
  for (const auto& i : o.result.impls) log(implResultLine(i));
  for (const QString& line : programOutputLines(o.programOutput)) log(line);
  log(jobFinishedLine(id, o.result, m_jobClock.elapsed() / 1000.0, o.seconds, shownMs));
}

void MainWindow::measureFirstPlot() {
  m_waitingFirstPlot = false;
  // The first plot is on screen when its replot (queued) has happened and the window painted it.
  QTimer::singleShot(0, this, [this] {
    m_outputs->replotFirstNow();
    m_firstPlotMs = m_options.startClock ? m_options.startClock->elapsed() : -1;
    if (m_firstPlotMs >= 0) log(coldStartLine(m_firstPlotMs));
    emit firstPlotShown(m_firstPlotMs);
  });
}

ExportDialog* MainWindow::exportDialog() {
  if (!m_export) {
    m_export = new ExportDialog(this);
    m_export->setFolder(m_settings->exportFolder());
    connect(m_export, &ExportDialog::exported, this, [this](bool ok, const QString& msg) {
      log(msg);
      m_settings->setExportFolder(m_export->folder());
      if (!ok) m_errorBanner->showMessage(Banner::Level::Error, msg.toHtmlEscaped());
    });
  }
  return m_export;
}

void MainWindow::openExport() {
  ExportDialog* d = exportDialog();
  QList<ExportDialog::Target> targets;
  for (int i = 0; i < m_outputs->viewCount(); ++i) targets.push_back({m_outputs->tabText(i), m_outputs->view(i)});
  targets.push_back({"Timing comparison", m_timing.get()});
  targets.push_back({"Block-size sweep", m_sweep->chart()});
  targets.push_back({"Sweep heatmap", m_sweep->heatmap()});
  targets.push_back({"Roofline", m_roofline});
  targets.push_back({"CPU/GPU crossover", m_sweep->crossover()});
  // The plot in front: the output tab shown, or the sweep (curve or heatmap) when its tab is open.
  int current = std::max(0, m_outputs->currentIndex());
  if (m_bottomTabs->currentIndex() == 1)
    current = m_outputs->viewCount() + (m_sweep->crossoverShown() ? 4 : m_sweep->heatmapShown() ? 2 : 1);
  if (m_bottomTabs->currentWidget() == m_roofline) current = m_outputs->viewCount() + 3;
  d->setTargets(targets, current);
  d->setRun(m_last, m_sweep->points());
  d->show();
  d->raise();
  d->activateWindow();
}

void MainWindow::toggleFullScreen() {
  if (isFullScreen())
    showNormal();
  else
    showFullScreen();
}

void MainWindow::applyPreset(const Preset& p) {
  selectWorkload(q(p.form.workload));
  m_panel->setForm(p.form);
  markResultsStale("preset \u201C" + p.name + "\u201D loaded: press Run (Ctrl+R)");
}

bool MainWindow::openCourseExperiment(const QString& id) {
  QString why;
  const auto p = coursePreset(id.toStdString(), m_backend->registry(), &why);
  if (!p) {
    m_errorBanner->showMessage(Banner::Level::Error, why.toHtmlEscaped());
    return false;
  }
  applyPreset(*p);
  m_browser->showCourseExperiment(id);
  m_courseId = id;
  m_previewNote.clear();
  chooseStageView(*m_backend->registry().find(p->form.workload));  // the experiment's own view, now it is known
  if (m_style.presentation) layoutStage();
  updateStageHeader();
  return true;
}

void MainWindow::closeEvent(QCloseEvent* e) {
  if (m_controller->busy()) m_controller->cancel();
  if (!m_style.presentation) {
    m_settings->setWindowLayout(saveGeometry(), saveState());
    m_settings->setDesk({m_panelAct->isChecked(), m_mainSplit->saveState(), m_resultsSplit->saveState()});
  }
  if (!m_panel->form().workload.empty()) m_settings->setLastForm(m_panel->form());
  m_settings->sync();
  QMainWindow::closeEvent(e);
}

}  // namespace launchlab::ui
