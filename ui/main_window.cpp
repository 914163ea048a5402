#include "main_window.h"

#include <QAction>
#include <QApplication>
#include <QCheckBox>
#include <QCloseEvent>
#include <QComboBox>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QInputDialog>
#include <QLabel>
#include <QMenu>
#include <QMenuBar>
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

#include <qcustomplot.h>

#include <utility>

#include "banner.h"
#include "charts.h"
#include "export_dialog.h"
#include "param_panel.h"
#include "presets.h"
#include "results_tables.h"
#include "settings.h"
#include "workload_browser.h"
#include "launchlab/parse.h"

namespace launchlab::ui {

namespace {
QString q(const std::string& s) { return QString::fromStdString(s); }

QString deviceLine(const DeviceStatus& d) {
  const auto& i = d.info;
  return QString("GPU: <b>%1</b> (compute capability %2.%3, %4 SMs, %5 GiB, driver %6.%7) runs the CUDA implementations.")
      .arg(q(i.name).toHtmlEscaped())
      .arg(i.ccMajor)
      .arg(i.ccMinor)
      .arg(i.multiprocessors)
      .arg(double(i.totalGlobalMem) / double(1ull << 30), 0, 'f', 1)
      .arg(i.driverVersion / 1000)
      .arg((i.driverVersion % 1000) / 10);
}
}  // namespace

QString MainWindow::defaultWorkload(const Registry& r) {
  for (const char* id : {"pulse_waveform", "vector_add"})
    if (r.find(id)) return id;
  return r.all().empty() ? QString() : q(r.all().front()->info().id);
}

MainWindow::MainWindow(std::shared_ptr<Backend> backend, std::unique_ptr<AppSettings> settings, MainWindowOptions options)
    : m_backend(std::move(backend)),
      m_settings(std::move(settings)),
      m_presets(std::make_unique<PresetStore>(options.presetFolder.isEmpty() ? PresetStore::defaultFolder() : options.presetFolder)),
      m_options(std::move(options)),
      m_baseFont(QApplication::font()),
      m_basePalette(QApplication::palette()) {
  setWindowTitle("LaunchLab");
  m_controller = new RunController(m_backend, this);
  m_controller->setPostProcess([registry = &m_backend->registry()](RunOutcome& o) {
    if (const Workload* w = registry->find(o.result.workload)) o.prepared = prepareRun(o.result, w->info(), 512);
  });
  buildUi();
  buildActions();
  showDeviceStatus();
  if (!m_options.backendNote.isEmpty()) log(m_options.backendNote);

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
  connect(m_controller, &RunController::staleDropped, this,
          [this](quint64 id) { log(QString("dropped the result of superseded job %1").arg(id)); });
  connect(m_controller, &RunController::sweepPoint, this, [this](quint64, int i, int n, const SweepPoint& p) {
    m_sweep->addPoint(p);
    QString line = QString("sweep %1/%2: block %3: ").arg(i + 1).arg(n).arg(q(formatDim3(p.block)));
    if (p.status == Status::Ok)
      line += QString("%1 ms, %2 GB/s").arg(p.kernelMs, 0, 'g', 4).arg(p.bandwidthGBs, 0, 'g', 4);
    else
      line += q(std::string(statusName(p.status))) + ": " + q(p.reason);
    log(line);
    QStringList notes;
    for (const auto& pt : m_sweep->points())
      if (pt.status != Status::Ok) notes << QString("%1: %2").arg(pt.threads).arg(q(pt.reason));
    m_sweepNotes->setText(notes.isEmpty() ? QString() : "Points without a measurement: " + notes.mid(0, 3).join("; ") +
                                                            (notes.size() > 3 ? QString(" (+%1 more, see the log)").arg(notes.size() - 3) : ""));
  });
  connect(m_controller, &RunController::sweepFinished, this, [this](quint64 id, bool cancelled) {
    log(QString("sweep %1 in %2 s").arg(cancelled ? "cancelled" : "finished").arg(m_jobClock.elapsed() / 1000.0, 0, 'f', 2));
    m_statusText->setText(cancelled ? "Sweep cancelled" : "Sweep finished");
    emit sweepDone(id, cancelled);
  });
  connect(m_browser, &WorkloadBrowser::workloadSelected, this, &MainWindow::selectWorkload);
  connect(m_panel, &ParamPanel::changed, this, [this] {
    updateRunEnabled();
    updateSweepControls();
  });
  connect(m_panel, &ParamPanel::submit, this, &MainWindow::run);

  // Workload: asked for, remembered, or the default for a new user.
  const Registry& reg = m_backend->registry();
  QString id = m_options.startWorkload;
  if (id.isEmpty() || !reg.find(id.toStdString())) id = m_settings->lastWorkload();
  if (id.isEmpty() || !reg.find(id.toStdString())) id = defaultWorkload(reg);
  if (!id.isEmpty()) {
    m_browser->select(id);
    selectWorkload(id);
  }

  if (!restoreGeometry(m_settings->windowGeometry())) resize(1600, 1000);
  restoreState(m_settings->windowState());
  if (m_options.forcePresentation || m_settings->presentation()) QTimer::singleShot(0, this, [this] { setPresentationMode(true); });
  if (m_options.firstRun) QTimer::singleShot(0, this, &MainWindow::startFirstRun);
}

MainWindow::~MainWindow() {
  // The controller (a child) joins its thread before the views it might still reference go away.
  delete m_controller;
  m_controller = nullptr;
  // Views delete their plots, which removes tabs: no signal may reach this half-destroyed window.
  m_outputTabs->disconnect(this);
  m_views.clear();
}

void MainWindow::buildUi() {
  auto* central = new QWidget(this);
  auto* lay = new QVBoxLayout(central);
  lay->setContentsMargins(6, 4, 6, 4);
  lay->setSpacing(4);
  m_deviceBanner = new Banner(central);
  m_errorBanner = new Banner(central);
  lay->addWidget(m_deviceBanner);
  lay->addWidget(m_errorBanner);

  auto* split = m_mainSplit = new QSplitter(Qt::Horizontal, central);
  split->setObjectName("mainSplit");
  m_browser = new WorkloadBrowser(m_backend->registry(), split);
  m_browser->setMinimumWidth(220);
  auto* scroll = m_panelScroll = new QScrollArea(split);
  scroll->setWidgetResizable(true);
  scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAsNeeded);
  m_panel = new ParamPanel(*m_backend, scroll);
  scroll->setWidget(m_panel);
  scroll->setMinimumWidth(340);
  auto* results = m_resultsSplit = new QSplitter(Qt::Vertical, split);
  results->addWidget(buildOutputsArea());
  results->addWidget(buildBottomTabs());
  results->setStretchFactor(0, 5);
  results->setStretchFactor(1, 4);
  results->setChildrenCollapsible(false);
  results->setSizes({480, 420});
  split->addWidget(m_browser);
  split->addWidget(scroll);
  split->addWidget(results);
  split->setStretchFactor(0, 0);
  split->setStretchFactor(1, 0);
  split->setStretchFactor(2, 1);
  split->setSizes({250, 380, 970});
  split->setChildrenCollapsible(false);
  lay->addWidget(split, 1);
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

QWidget* MainWindow::buildOutputsArea() {
  auto* w = new QWidget;
  auto* lay = new QVBoxLayout(w);
  lay->setContentsMargins(0, 0, 0, 0);
  auto* bar = new QHBoxLayout;
  m_showImpl = new QComboBox;
  m_showImpl->setToolTip("Which implementation's outputs the plots show");
  m_showImpl->setSizeAdjustPolicy(QComboBox::AdjustToContents);
  m_showImpl->setMinimumContentsLength(16);
  m_overlayRef = new QCheckBox("Overlay reference");
  m_overlayRef->setChecked(true);
  m_overlayRef->setToolTip("Draw cpu-serial (the reference) under the shown implementation: any difference shows");
  m_logY = new QCheckBox("Log y");
  m_logY->setToolTip("Logarithmic value axis");
  auto* reset = new QPushButton("Reset zoom");
  reset->setToolTip("Wheel: zoom; drag: pan. Waveforms stay min/max decimated per pixel at every zoom.");
  m_viewSummary = new QLabel;
  m_viewSummary->setStyleSheet("color: palette(mid);");
  m_viewSummary->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);  // never widens the window
  bar->addWidget(new QLabel("Show"));
  bar->addWidget(m_showImpl);
  bar->addWidget(m_overlayRef);
  bar->addWidget(m_logY);
  bar->addWidget(reset);
  bar->addWidget(m_viewSummary, 1);
  lay->addLayout(bar);
  m_outputTabs = new QTabWidget;
  m_outputTabs->setDocumentMode(true);
  m_outputTabs->setElideMode(Qt::ElideRight);
  m_outputTabs->setUsesScrollButtons(true);
  lay->addWidget(m_outputTabs, 1);
  connect(m_showImpl, &QComboBox::currentIndexChanged, this, [this] { refreshViews(); });
  connect(m_overlayRef, &QCheckBox::toggled, this, [this] { refreshViews(); });
  connect(m_logY, &QCheckBox::toggled, this, [this](bool on) {
    for (auto& s : m_views) s.view->setLogY(on);
  });
  connect(reset, &QPushButton::clicked, this, [this] {
    for (auto& s : m_views) s.view->resetZoom();
  });
  connect(m_outputTabs, &QTabWidget::currentChanged, this, [this](int i) {
    m_viewSummary->setText(i >= 0 && i < int(m_views.size()) ? m_views[std::size_t(i)].view->summary() : QString());
  });
  return w;
}

QWidget* MainWindow::buildBottomTabs() {
  m_bottomTabs = new QTabWidget;
  m_bottomTabs->setDocumentMode(true);

  auto* timingPage = new QWidget;
  auto* tl = new QVBoxLayout(timingPage);
  tl->setContentsMargins(0, 2, 0, 0);
  m_timing = std::make_unique<TimingChart>(timingPage);
  m_timingLog = new QCheckBox("Log scale");
  m_timingLog->setToolTip("Logarithmic time axis: CPU and GPU times often differ by 100x or more");
  connect(m_timingLog, &QCheckBox::toggled, this, [this](bool on) { m_timing->setLogScale(on); });
  auto* trow = new QHBoxLayout;
  auto* tnote = new QLabel("Stacked by phase: H2D copy, kernel, D2H copy for CUDA; one CPU loop for CPU. "
                           "Speedups are against cpu-serial, total time.");
  tnote->setStyleSheet("color: palette(mid);");
  tnote->setWordWrap(true);
  trow->addWidget(tnote, 1);
  trow->addWidget(m_timingLog);
  tl->addLayout(trow);
  tl->addWidget(m_timing->widget(), 1);
  m_bottomTabs->addTab(timingPage, "Timing");

  auto* sweepPage = new QWidget;
  auto* sl = new QVBoxLayout(sweepPage);
  sl->setContentsMargins(0, 2, 0, 0);
  auto* srow = new QHBoxLayout;
  m_sweepImpl = new QComboBox;
  m_sweepImpl->setToolTip("The CUDA implementation to time at every block size");
  m_sweepBtn = new QPushButton("Sweep 32\xE2\x80\xA6" "1024 threads per block");
  m_sweepBtn->setToolTip("Runs the selected CUDA variant at 32, 64, \xE2\x80\xA6, 1024 threads per block (whole warps) "
                         "and plots time and GB/s against block size.");
  srow->addWidget(new QLabel("Implementation"));
  srow->addWidget(m_sweepImpl, 1);
  srow->addWidget(m_sweepBtn);
  sl->addLayout(srow);
  m_sweep = std::make_unique<SweepChart>(sweepPage);
  sl->addWidget(m_sweep->widget(), 1);
  m_sweepNotes = new QLabel;
  m_sweepNotes->setWordWrap(true);
  m_sweepNotes->setStyleSheet("color: #8a5a00;");
  sl->addWidget(m_sweepNotes);
  connect(m_sweepBtn, &QPushButton::clicked, this, &MainWindow::startSweep);
  m_bottomTabs->addTab(sweepPage, "Block-size sweep");

  m_verify = new VerificationTable;
  m_bottomTabs->addTab(m_verify, "Verification");

  auto* tablePage = new QWidget;
  auto* rl = new QVBoxLayout(tablePage);
  rl->setContentsMargins(0, 2, 0, 0);
  m_table = new ResultsTable;
  auto* copy = new QPushButton("Copy table");
  copy->setToolTip("Copies the table as tab-separated text (Ctrl+C copies the selected rows)");
  connect(copy, &QPushButton::clicked, this, [this] {
    m_table->copyToClipboard();
    m_statusText->setText("Results table copied");
  });
  auto* crow = new QHBoxLayout;
  crow->addStretch();
  crow->addWidget(copy);
  rl->addLayout(crow);
  rl->addWidget(m_table, 1);
  m_bottomTabs->addTab(tablePage, "Results table");

  m_log = new LogView;
  m_bottomTabs->addTab(m_log, "Log");
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
  m_fullAct = new QAction("Full screen", this);
  m_fullAct->setShortcut(QKeySequence(Qt::Key_F11));
  m_fullAct->setToolTip("Full screen (F11)");
  for (QAction* a : {m_runAct, m_cancelAct, m_exportAct, m_presentAct, m_fullAct}) a->setShortcutContext(Qt::WindowShortcut);
  tb->addAction(m_runAct);
  tb->addAction(m_cancelAct);
  tb->addSeparator();
  tb->addAction(m_exportAct);
  m_presetBtn = new QToolButton;
  m_presetBtn->setText("Presets");
  m_presetBtn->setPopupMode(QToolButton::InstantPopup);
  m_presetBtn->setToolTip("Save and load named parameter sets (JSON)");
  auto* presetMenu = new QMenu(m_presetBtn);
  m_presetBtn->setMenu(presetMenu);
  connect(presetMenu, &QMenu::aboutToShow, this, &MainWindow::fillPresetMenu);
  tb->addWidget(m_presetBtn);
  tb->addSeparator();
  tb->addAction(m_presentAct);
  tb->addAction(m_fullAct);

  connect(m_runAct, &QAction::triggered, this, &MainWindow::run);
  connect(m_cancelAct, &QAction::triggered, this, &MainWindow::cancel);
  connect(m_exportAct, &QAction::triggered, this, &MainWindow::openExport);
  connect(m_presentAct, &QAction::toggled, this, &MainWindow::setPresentationMode);
  connect(m_fullAct, &QAction::triggered, this, &MainWindow::toggleFullScreen);
  auto* quit = new QAction("Quit", this);
  quit->setShortcut(QKeySequence::Quit);
  connect(quit, &QAction::triggered, this, &QWidget::close);
  addAction(quit);
}

void MainWindow::showDeviceStatus() {
  const DeviceStatus d = m_backend->deviceStatus();
  if (d.available) {
    m_deviceBanner->showMessage(Banner::Level::Info, deviceLine(d));
  } else {
    m_deviceBanner->showMessage(Banner::Level::Warning,
                                "<b>CUDA implementations are off on this machine:</b> " + q(d.reason).toHtmlEscaped() +
                                    ". CPU implementations run; CUDA rows say why they were skipped.");
  }
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
  m_settings->setLastWorkload(id);
  m_browser->select(id);
  setWindowTitle("LaunchLab \xE2\x80\x94 " + q(w->info().title));
  // The sweep list: CUDA variants that honour the user's block size.
  m_sweepImpl->clear();
  for (const auto& impl : w->impls())
    if (impl.isGpu() && impl.usesLaunchConfig) m_sweepImpl->addItem(q(impl.title), q(impl.id));
  updateSweepControls();
  // The views for this workload's arrays are made now, not when its first result arrives (that moment is
  // spent during a run, and creating plots costs the GUI thread).
  if (m_viewsWorkload != w->info().id) {
    rebuildViews(*w);
    for (auto& s : m_views) s.view->showMessage("Press Run (Ctrl+R) to run " + q(w->info().title));
  }
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
  m_runAct->setToolTip(c.ok() ? QString("Run the selected implementations (Ctrl+R)")
                              : "Fix the marked fields first: " + q(c.firstError()));
}

void MainWindow::updateSweepControls() {
  const DeviceStatus d = m_backend->deviceStatus();
  QString why;
  if (!d.available) why = "No GPU here: " + q(d.reason);
  else if (m_sweepImpl->count() == 0) why = "This workload has no CUDA implementation that takes a block size";
  else if (!m_panel->check().ok()) why = "Fix the marked parameters first";
  else if (m_controller->busy()) why = "A job is running";
  m_sweepBtn->setEnabled(why.isEmpty());
  m_sweepImpl->setEnabled(m_sweepImpl->count() > 0);
  m_sweepBtn->setToolTip(why.isEmpty() ? "Runs the selected CUDA variant at 32, 64, \xE2\x80\xA6, 1024 threads per block "
                                         "(whole warps) and plots time and GB/s against block size."
                                       : why);
}

void MainWindow::onBusy(bool busy) {
  m_cancelAct->setEnabled(busy);
  m_progress->setValue(0);
  m_progress->setVisible(busy);
  updateSweepControls();
}

void MainWindow::log(const QString& line) { m_log->append(line); }

void MainWindow::startFirstRun() {
  const Workload* w = m_backend->registry().find(m_panel->form().workload);
  if (!w) return;
  FormState f = m_panel->form();
  // Start fast: the first screen must come up in about a second on any machine.
  const int passes = 2 * (f.warmup + f.reps) + 2;
  const std::uint64_t quick = chooseQuickSize(*w, passes);
  if (auto n = parseSize(f.size); n && *n > quick) {
    m_firstRunNote = QString("first run at N = %1 so that it takes under a second; your size was %2")
                         .arg(q(sizeText(quick)), q(f.size));
    f.size = sizeText(quick);
    m_panel->setForm(f);
  }
  m_waitingFirstPlot = true;
  run();
}

void MainWindow::run() {
  const FormCheck& c = m_panel->check();
  if (!c.ok() || !c.request) {
    m_errorBanner->showMessage(Banner::Level::Error, "Cannot run: " + q(c.firstError()).toHtmlEscaped());
    return;
  }
  const Workload* w = m_backend->registry().find(c.request->workload);
  RunRequest req = *c.request;
  std::string err;
  std::string note;
  auto params = resolveParams(w->info().params, req.params, err);
  bool keep = true;
  if (params && req.n && req.dtype) {
    const double est = keptBytesEstimate(*w, *req.n, *req.dtype, *params, int(req.impls.size()));
    keep = mayKeepArrays(est, keptBytesCap(hostAvailableMemory()), note);
  }
  req.keepInputs = req.keepOutputs = keep;
  if (!keep) {
    log(q(note));
    m_errorBanner->showMessage(Banner::Level::Warning, q(note).toHtmlEscaped());
  }
  m_settings->setLastForm(m_panel->form());
  m_settings->setLastWorkload(q(req.workload));
  m_jobClock.start();
  const quint64 id = m_controller->startRun(req);
  log(QString("job %1: run %2, n = %3 %4, block %5, grid %6, %7 implementation(s), %8 reps")
          .arg(id)
          .arg(q(req.workload))
          .arg(req.n ? *req.n : 0)
          .arg(q(m_panel->form().dtype))
          .arg(req.launch.block ? q(formatDim3(*req.launch.block)) : QString("auto"))
          .arg(req.launch.grid ? q(formatDim3(*req.launch.grid)) : QString("auto"))
          .arg(req.impls.size())
          .arg(req.reps));
  if (!m_firstRunNote.isEmpty()) {
    log(m_firstRunNote);
    m_firstRunNote.clear();
  }
  m_statusText->setText("Running\xE2\x80\xA6");
}

void MainWindow::cancel() {
  if (!m_controller->busy()) return;
  m_controller->cancel();
  m_statusText->setText("Cancelling at the next repetition\xE2\x80\xA6");
  log("cancel requested");
}

quint64 MainWindow::startSweepOf(const QString& implIdIn) {
  const FormCheck& c = m_panel->check();
  if (!c.ok() || !c.request) return 0;
  const Workload* w = m_backend->registry().find(c.request->workload);
  QString implId = implIdIn;
  if (implId.isEmpty())
    for (const auto& impl : w->impls())
      if (impl.isGpu() && impl.usesLaunchConfig) {
        implId = q(impl.id);
        break;
      }
  if (implId.isEmpty()) return 0;
  const ImplSpec* spec = w->findImpl(implId.toStdString());
  const auto blocks = sweepBlocks(w->info().launchDims, m_backend->launchLimits().maxThreadsPerBlock);
  m_sweep->begin(q(spec ? spec->title : implId.toStdString()),
                 QString("n = %1 %2").arg(q(m_panel->form().size), q(m_panel->form().dtype)));
  m_sweepNotes->clear();
  m_bottomTabs->setCurrentIndex(1);
  m_jobClock.start();
  const quint64 id = m_controller->startSweep(*c.request, implId.toStdString(), blocks);
  log(QString("job %1: block-size sweep of %2 over %3 block sizes").arg(id).arg(implId).arg(blocks.size()));
  m_statusText->setText("Sweeping\xE2\x80\xA6");
  return id;
}

void MainWindow::startSweep() {
  if (!m_sweepBtn->isEnabled()) return;
  startSweepOf(m_sweepImpl->currentData().toString());
}

std::string MainWindow::shownImpl() const { return m_showImpl->currentData().toString().toStdString(); }

void MainWindow::rebuildViews(const Workload& w) {
  m_outputTabs->clear();
  m_views.clear();
  const auto& info = w.info();
  for (const auto& spec : info.outputs) {
    ViewSlot s{spec, "", createOutputView(spec.plot, m_outputTabs)};
    const QString title = q(spec.title.empty() ? spec.name : spec.title);
    const int tab = m_outputTabs->addTab(s.view->widget(), title.size() > 40 ? q(spec.name) : title);
    m_outputTabs->setTabToolTip(tab, title);
    m_views.push_back(std::move(s));
  }
  for (const auto& spec : info.inputs) {
    if (spec.plot == PlotKind::Scalar) continue;
    ArraySpec in = spec;
    if (in.plot != PlotKind::Image) in.plot = PlotKind::Waveform;
    ViewSlot s{in, "input", createOutputView(in.plot, m_outputTabs)};
    m_outputTabs->addTab(s.view->widget(), "input: " + q(spec.name));
    m_views.push_back(std::move(s));
  }
  for (auto& s : m_views) {
    s.view->setViewStyle(m_style);
    s.view->setLogY(m_logY->isChecked());
  }
  m_viewsWorkload = info.id;
}

void MainWindow::refreshViews() {
  if (!m_last) return;
  const auto& r = m_last->result;
  const std::string shown = shownImpl();
  int colorIndex = 0;
  for (std::size_t i = 0; i < r.impls.size(); ++i)
    if (r.impls[i].implId == shown) colorIndex = int(i);
  const bool kept = !r.inputs.empty() || std::any_of(r.impls.begin(), r.impls.end(), [](const ImplResult& i) { return !i.outputs.empty(); });
  for (auto& s : m_views) {
    if (!kept) {
      s.view->showMessage(r.status == Status::Ok ? "Outputs were not kept for this size (see the log)"
                                                 : "No outputs: " + q(r.reason));
      continue;
    }
    ViewData d;
    d.spec = s.spec;
    d.outcome = m_last;
    d.source = s.source == "input" ? "input" : shown;
    d.reference = s.source == "input" || !m_overlayRef->isChecked() ? "" : std::string(kCpuSerial);
    d.colorIndex = s.source == "input" ? 0 : colorIndex;
    if (d.source.empty()) {
      s.view->showMessage("No implementation produced outputs" + (r.reason.empty() ? QString() : ": " + q(r.reason)));
      continue;
    }
    s.view->setData(d);
  }
  const int cur = m_outputTabs->currentIndex();
  m_viewSummary->setText(cur >= 0 && cur < int(m_views.size()) ? m_views[std::size_t(cur)].view->summary() : QString());
}

void MainWindow::display(quint64 id, std::shared_ptr<const RunOutcome> outcome) {
  QElapsedTimer t;
  t.start();
  std::shared_ptr<const RunOutcome> previousRun = std::exchange(m_last, std::move(outcome));
  const RunResult& r = m_last->result;
  const Workload* w = m_backend->registry().find(r.workload);
  if (w && m_viewsWorkload != r.workload) rebuildViews(*w);

  // Which implementation the plots show: the first CUDA variant that ran, else cpu-parallel, else cpu-serial.
  const QString previous = m_showImpl->currentData().toString();
  {
    QSignalBlocker block(m_showImpl);
    m_showImpl->clear();
    for (const auto& i : r.impls)
      if (i.status == Status::Ok && !i.outputs.empty()) m_showImpl->addItem(q(i.title), q(i.implId));
    int pick = m_showImpl->findData(previous);
    if (pick < 0)
      for (const auto& i : r.impls)
        if (i.status == Status::Ok && !i.outputs.empty() && i.gpu) {
          pick = m_showImpl->findData(q(i.implId));
          break;
        }
    if (pick < 0) pick = m_showImpl->findData("cpu-parallel");
    m_showImpl->setCurrentIndex(std::max(0, pick));
  }
  refreshViews();
  m_timing->setResult(r);
  m_verify->setResult(r);
  m_table->setResult(r);

  if (r.status != Status::Ok) {
    m_errorBanner->showMessage(Banner::Level::Error, "The run failed: " + q(r.reason).toHtmlEscaped());
  } else {
    QStringList bad;
    for (const auto& i : r.impls) {
      if (i.status == Status::Failed) bad << q(i.title) + ": " + q(i.reason);
      else if (i.status == Status::Ok && i.verification.outcome == Verification::Outcome::Fail)
        bad << q(i.title) + QString(": %1 mismatches against cpu-serial").arg(i.verification.mismatches);
    }
    if (!bad.isEmpty()) m_errorBanner->showMessage(Banner::Level::Error, bad.join("<br>").toHtmlEscaped().replace("&lt;br&gt;", "<br>"));
    else if (m_errorBanner->level() == Banner::Level::Error) m_errorBanner->hide();
  }
  for (const auto& i : r.impls) {
    QString line = QString("  %1: %2").arg(q(i.implId), q(std::string(statusName(i.status))));
    if (i.status == Status::Ok) {
      line += QString(", total %1").arg(q(durationText(i.totalMedianMs())));
      if (i.bandwidthGBs > 0) line += QString(", %1 GB/s").arg(i.bandwidthGBs, 0, 'g', 4);
      line += ", " + q(std::string(outcomeName(i.verification.outcome)));
      if (!i.launchNote.empty()) line += " (" + q(i.launchNote) + ")";
    } else {
      line += ": " + q(i.reason);
    }
    log(line);
  }
  log(QString("job %1 %2 in %3 s (compute thread %4 s); shown in %5 ms")
          .arg(id)
          .arg(r.status == Status::Ok ? "finished" : "failed")
          .arg(m_jobClock.elapsed() / 1000.0, 0, 'f', 2)
          .arg(m_last->seconds, 0, 'f', 2)
          .arg(t.elapsed()));
  m_statusText->setText(r.status == Status::Ok ? QString("Done in %1 s").arg(m_jobClock.elapsed() / 1000.0, 0, 'f', 2)
                                               : "Failed: " + q(r.reason));
  if (m_export) m_export->setRun(m_last, m_sweep->points());
  // Views and the export window now hold the new result: the old one is freed off the GUI thread.
  m_controller->disposeLater(std::move(previousRun));
  m_lastDisplayMs = t.elapsed();

  if (m_waitingFirstPlot) {
    m_waitingFirstPlot = false;
    // The first plot is on screen when its replot (queued) has happened and the window painted it.
    QTimer::singleShot(0, this, [this] {
      if (!m_views.empty()) {
        if (auto* plot = qobject_cast<QCustomPlot*>(m_views.front().view->widget())) plot->replot(QCustomPlot::rpImmediateRefresh);
      }
      m_firstPlotMs = m_options.startClock ? m_options.startClock->elapsed() : -1;
      if (m_firstPlotMs >= 0) log(QString("cold start to first plot: %1 ms").arg(m_firstPlotMs));
      emit firstPlotShown(m_firstPlotMs);
    });
  }
  emit runDisplayed(id);
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
  for (int i = 0; i < int(m_views.size()); ++i) targets.push_back({m_outputTabs->tabText(i), m_views[std::size_t(i)].view.get()});
  targets.push_back({"Timing comparison", m_timing.get()});
  targets.push_back({"Block-size sweep", m_sweep.get()});
  // The plot in front: the output tab shown, or the sweep when its tab is open.
  int current = std::max(0, m_outputTabs->currentIndex());
  if (m_bottomTabs->currentIndex() == 1) current = int(m_views.size()) + 1;
  d->setTargets(targets, current);
  d->setRun(m_last, m_sweep->points());
  d->show();
  d->raise();
  d->activateWindow();
}

void MainWindow::setPresentationMode(bool on) {
  if (on == m_style.presentation && m_presentAct->isChecked() == on) return;
  {
    QSignalBlocker b(m_presentAct);
    m_presentAct->setChecked(on);
  }
  m_style = on ? ViewStyle::presentationStyle() : ViewStyle::normal();
  applyApplicationStyle(*qApp, on, m_baseFont, m_basePalette);
  // Widgets under a style sheet do not follow application font changes: hand the font down explicitly.
  const QFont appFont = QApplication::font();
  for (QWidget* w : findChildren<QWidget*>()) w->setFont(appFont);
  fitPanelWidth();
  for (auto& s : m_views) s.view->setViewStyle(m_style);
  m_timing->setViewStyle(m_style);
  m_sweep->setViewStyle(m_style);
  // On a projector the plots and the knobs matter: the browser steps aside, the charts get more room.
  m_browser->setVisible(!on);
  if (on) {
    m_resultsSizesBeforePresentation = m_resultsSplit->sizes();
    m_mainSizesBeforePresentation = m_mainSplit->sizes();
    const int h = std::max(400, m_resultsSplit->height());
    m_resultsSplit->setSizes({h * 45 / 100, h * 55 / 100});
    const int w = std::max(1000, m_mainSplit->width());
    const int panel = std::max(m_panelScroll->minimumWidth(), w * 31 / 100);
    m_mainSplit->setSizes({0, panel, w - panel});
  } else if (!m_resultsSizesBeforePresentation.isEmpty()) {
    m_resultsSplit->setSizes(m_resultsSizesBeforePresentation);
    m_mainSplit->setSizes(m_mainSizesBeforePresentation);
  }
  if (on) {
    m_statesBeforePresentation = windowState();
    showFullScreen();
  } else {
    if (m_statesBeforePresentation & Qt::WindowMaximized) showMaximized();
    else showNormal();
  }
  m_settings->setPresentation(on);
  log(on ? "presentation mode on (F5 to leave)" : "presentation mode off");
}

void MainWindow::toggleFullScreen() {
  if (isFullScreen()) showNormal();
  else showFullScreen();
}

void MainWindow::fillPresetMenu() {
  QMenu* m = m_presetBtn->menu();
  m->clear();
  const QStringList names = m_presets->names();
  for (const auto& n : names) m->addAction(n, this, [this, n] { applyPreset(n); });
  if (names.isEmpty()) m->addAction("(no presets yet)")->setEnabled(false);
  m->addSeparator();
  m->addAction("Save current parameters as\xE2\x80\xA6", this, &MainWindow::savePreset);
  m->addAction("Import preset file\xE2\x80\xA6", this, &MainWindow::importPreset);
  m->addAction("Export preset file\xE2\x80\xA6", this, &MainWindow::exportPreset);
}

void MainWindow::applyPreset(const QString& name) {
  QString err;
  auto p = m_presets->load(name, &err);
  if (!p) {
    m_errorBanner->showMessage(Banner::Level::Error, err.toHtmlEscaped());
    return;
  }
  if (!m_backend->registry().find(p->form.workload)) {
    m_errorBanner->showMessage(Banner::Level::Error, "Preset " + name.toHtmlEscaped() + " is for workload " +
                                                         q(p->form.workload).toHtmlEscaped() + ", which this build does not have");
    return;
  }
  selectWorkload(q(p->form.workload));
  m_panel->setForm(p->form);
  log("loaded preset " + name);
}

void MainWindow::savePreset() {
  bool ok = false;
  const QString name = QInputDialog::getText(this, "Save preset", "Name:", QLineEdit::Normal,
                                             q(m_panel->form().workload) + " ", &ok);
  if (!ok) return;
  QString err;
  if (m_presets->save({name.trimmed(), m_panel->form()}, &err)) log("saved preset " + name.trimmed() + " in " + m_presets->folder());
  else m_errorBanner->showMessage(Banner::Level::Error, err.toHtmlEscaped());
}

void MainWindow::importPreset() {
  const QString path = QFileDialog::getOpenFileName(this, "Import preset", m_settings->exportFolder(), "*.json");
  if (path.isEmpty()) return;
  QString err;
  auto p = loadPresetFile(path, &err);
  if (!p || !m_presets->save(*p, &err)) {
    m_errorBanner->showMessage(Banner::Level::Error, err.toHtmlEscaped());
    return;
  }
  applyPreset(p->name);
}

void MainWindow::exportPreset() {
  const QString path = QFileDialog::getSaveFileName(this, "Export preset",
                                                    m_settings->exportFolder() + "/" + q(m_panel->form().workload) + "_preset.json", "*.json");
  if (path.isEmpty()) return;
  QString err;
  if (savePresetFile(path, {q(m_panel->form().workload), m_panel->form()}, &err)) log("wrote preset " + path);
  else m_errorBanner->showMessage(Banner::Level::Error, err.toHtmlEscaped());
}

void MainWindow::closeEvent(QCloseEvent* e) {
  if (m_controller->busy()) m_controller->cancel();
  if (!m_style.presentation) m_settings->setWindowLayout(saveGeometry(), saveState());
  if (!m_panel->form().workload.empty()) m_settings->setLastForm(m_panel->form());
  m_settings->sync();
  QMainWindow::closeEvent(e);
}

}  // namespace launchlab::ui
