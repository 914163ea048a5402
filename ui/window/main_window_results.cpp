// How a result gets on screen: the timing and table pages, a live run's (display) and a run file's (openRunFile),
// and saving the one shown as a run file (launchlab/io/run_file.h, shared with launchlab-cli's --save-run and show).
#include <QAction>
#include <QCheckBox>
#include <QCoreApplication>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QProcess>
#include <QPushButton>
#include <QScrollArea>
#include <QSignalBlocker>
#include <QSplitter>
#include <QStyle>
#include <QTimer>
#include <QToolBar>
#include <QVBoxLayout>
#include <new>
#include <stdexcept>

#include "banner.h"
#include "charts.h"
#include "device_imports.h"
#include "export_dialog.h"
#include "form_state.h"
#include "kernel_editor.h"
#include "launchlab/errors.h"
#include "launchlab/io/run_file.h"
#include "live_mode.h"
#include "log_text.h"
#include "main_window.h"
#include "outputs_pane.h"
#include "param_panel.h"
#include "remote_dialog.h"
#include "results_tables.h"
#include "settings.h"
#include "stage_controller.h"
#include "sweep_pane.h"

namespace launchlab::ui {

namespace {
QString q(const std::string& s) { return QString::fromStdString(s); }
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
}  // namespace

QWidget* MainWindow::buildTimingPage() {
  auto* timingPage = new QWidget;
  auto* tl = new QVBoxLayout(timingPage);
  tl->setContentsMargins(0, 2, 0, 0);
  m_timing = std::make_unique<TimingChart>(timingPage);
  auto* timingLog = new QCheckBox("Log scale");
  timingLog->setToolTip("Logarithmic time axis: CPU and GPU times often differ by 100x or more");
  connect(timingLog, &QCheckBox::toggled, this, [this](bool on) { m_timing->setLogScale(on); });
  auto* trow = new QHBoxLayout;
  auto* tnote = m_timingNote = new QLabel("Stacked by phase (CUDA: H2D, kernel, D2H); speedups against cpu-serial");
  tnote->setToolTip(
      "Each bar is the median total time over the repetitions, stacked by phase: H2D copy, kernel and "
      "D2H copy for CUDA, one CPU loop for CPU. Speedups are against cpu-serial, total time.");
  tnote->setStyleSheet("color: palette(mid);");
  trow->addWidget(tnote, 1);
  trow->addWidget(timingLog);
  tl->addLayout(trow);
  // Many rows (a workload with every variant ticked) scroll instead of squeezing the output plots above.
  auto* timingScroll = new QScrollArea;
  timingScroll->setWidgetResizable(true);
  timingScroll->setFrameShape(QFrame::NoFrame);
  timingScroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
  timingScroll->setWidget(m_timing->widget());
  tl->addWidget(timingScroll, 1);
  return timingPage;
}

QWidget* MainWindow::buildTablePage() {
  auto* tablePage = new QWidget;
  auto* rl = new QVBoxLayout(tablePage);
  rl->setContentsMargins(0, 2, 0, 0);
  m_table = new ResultsTable;
  auto* copy = new QPushButton("Copy table");
  copy->setToolTip("Copies the table as tab-separated text (only the selected cells when you selected some)");
  connect(copy, &QPushButton::clicked, this, [this] {
    m_table->copyToClipboard();
    m_statusText->setText("Results table copied");
  });
  auto* crow = new QHBoxLayout;
  crow->addStretch();
  crow->addWidget(copy);
  rl->addLayout(crow);
  rl->addWidget(m_table, 1);
  return tablePage;
}

void MainWindow::prepareOutcome(RunOutcome& o, const Registry& registry) {
  if (const Workload* w = registry.find(o.result.workload)) o.prepared = prepareRun(o.result, w->info(), 512);
}

void MainWindow::showOutcome(std::shared_ptr<const RunOutcome> outcome) {
  std::shared_ptr<const RunOutcome> previousRun = std::exchange(m_last, std::move(outcome));
  const RunResult& r = m_last->result;
  if (const Workload* w = m_backend->registry().find(r.workload)) m_outputs->setWorkload(*w, {});
  m_outputs->setOutcome(m_last);
  m_timing->setResult(r);
  m_verify->setResult(r);
  m_table->setResult(r);
  showRooflineRun(r);
  showRunProblems(r);
  m_kernelEditor->showRunCounters(r);  // my-kernel's lines, under the editor
  if (m_export) m_export->setRun(m_last, m_sweep->points());
  // Views and the export window now hold the new result: the old one is freed off the GUI thread.
  m_controller->disposeLater(std::move(previousRun));
}

void MainWindow::display(quint64 id, std::shared_ptr<const RunOutcome> outcome) {
  if (m_live->ownsJob(id)) return;  // live frames are drawn by showLiveFrame
  QElapsedTimer t;
  t.start();
  m_recordedBanner->hide();  // measured here and now
  showOutcome(std::move(outcome));
  logRun(id, *m_last, t.elapsed());
  if (m_last->deviceImports) log("plots: " + m_last->deviceImports->note());
  m_statusText->setText(runStatusText(m_last->result, m_jobClock.elapsed() / 1000.0));
  m_lastDisplayMs = t.elapsed();
  if (m_waitingFirstPlot) measureFirstPlot();
  emit runDisplayed(id);
}

void MainWindow::showRunProblems(const RunResult& r) {
  const QString problems = runProblemsText(r), sharing = runSharingText(r);
  QStringList warnings;
  for (const QString& w : {runLessonsText(r), sharing})
    if (!w.isEmpty()) warnings << w;
  // Red for what went wrong; amber with a lesson's icon for a demonstration's wrong result, which is the lesson, not
  // a failure; amber with a warning's for times measured beside another process on the GPU.
  const Banner::Level shown = m_errorBanner->level();
  if (!problems.isEmpty())
    m_errorBanner->showMessage(Banner::Level::Error, problems);
  else if (!warnings.isEmpty())
    m_errorBanner->showMessage(sharing.isEmpty() ? Banner::Level::Lesson : Banner::Level::Warning,
                               warnings.join("<br>"));
  else if (shown == Banner::Level::Error || shown == Banner::Level::Lesson || isRunWarningText(m_errorBanner->text()))
    m_errorBanner->hide();
}

void MainWindow::addRunFileActions(QToolBar* tb) {
  m_openRunAct = new QAction(style()->standardIcon(QStyle::SP_DialogOpenButton), "Open run\xE2\x80\xA6", this);
  m_openRunAct->setShortcut(QKeySequence::Open);
  m_openRunAct->setToolTip("Open a saved run (.llrun), measured here or on another machine (Ctrl+O)");
  m_saveRunAct = new QAction(style()->standardIcon(QStyle::SP_DriveFDIcon), "Save run\xE2\x80\xA6", this);
  m_saveRunAct->setShortcut(QKeySequence::Save);
  m_saveRunAct->setToolTip(
      "Save the run on screen (request, device, timings, verification, arrays) as one .llrun "
      "file (Ctrl+S)");
  for (QAction* a : {m_openRunAct, m_saveRunAct}) {
    a->setShortcutContext(Qt::WindowShortcut);
    tb->addAction(a);
  }
  connect(m_openRunAct, &QAction::triggered, this, &MainWindow::openRunDialog);
  connect(m_saveRunAct, &QAction::triggered, this, &MainWindow::saveRunDialog);
}

void MainWindow::runRegion(const ImageWindow& view) {
  FormState f = m_panel->form();
  const Workload* w = m_backend->registry().find(f.workload);
  const auto params = w ? zoomedRegion(w->info(), f.params, view) : std::nullopt;
  if (!params) {
    m_errorBanner->showMessage(Banner::Level::Warning,
                               "Zoom into the image first (wheel, or right-drag a box): the whole image is in view.");
    return;
  }
  f.params = *params;
  m_panel->setForm(f);
  log(q("region: x_min " + params->at("x_min") + ", y_min " + params->at("y_min") + ", step " + params->at("step")));
  run();
}

void MainWindow::openRemoteDialog() {
  if (m_remoteDialog) {
    m_remoteDialog->raise();
    return;
  }
  auto* d = new RemoteDialog(*m_settings, q(m_backend->remoteHost()), this);
  d->setAttribute(Qt::WA_DeleteOnClose);
  m_remoteDialog = d;
  connect(d, &QObject::destroyed, this, [this] { m_remoteDialog = nullptr; });
  connect(d, &QDialog::accepted, this, [this] {
    const QString host = m_settings->remoteHost();
    log("GPU server saved: " + (host.isEmpty() ? QString("this machine") : host) + " (used from the next start)");
  });
  connect(d, &RemoteDialog::restartRequested, this, [this] {
    // The backend is chosen at start: a new LaunchLab on the saved settings, then this one closes (and saves its
    // layout as usual). Arguments are not passed on: --remote would override what was just saved.
    if (QProcess::startDetached(QCoreApplication::applicationFilePath(), {}))
      close();
    else
      m_errorBanner->showMessage(Banner::Level::Error, "Could not start LaunchLab again: restart it yourself.");
  });
  d->open();
}

void MainWindow::openRunDialog() {
  const QString path = QFileDialog::getOpenFileName(this, "Open run", m_settings->exportFolder(), kRunFileFilter);
  if (!path.isEmpty()) openRunFileInBackground(path);
}

void MainWindow::saveRunDialog() {
  if (!m_last) {
    m_errorBanner->showMessage(Banner::Level::Warning, "Nothing to save yet: run something first (Ctrl+R).");
    return;
  }
  const QString name = q(m_last->result.workload + "-" + m_last->result.timestamp.substr(0, 10)) + ".llrun";
  QString path =
      QFileDialog::getSaveFileName(this, "Save run", m_settings->exportFolder() + "/" + name, kRunFileFilter);
  if (path.isEmpty()) return;
  if (!path.endsWith(".llrun")) path += ".llrun";
  saveRunFile(path);
}

bool MainWindow::saveRunFile(const QString& path) {
  if (!m_last) return false;
  try {
    runfile::save(path.toStdString(), m_last->result);  // atomic: temporary file, then rename
  } catch (const std::exception& e) {
    m_errorBanner->showMessage(Banner::Level::Error, ("Could not save the run: " + q(e.what())).toHtmlEscaped());
    log("could not save the run: " + q(e.what()));
    return false;
  }
  m_settings->setExportFolder(QFileInfo(path).absolutePath());
  const bool arrays = !m_last->result.inputs.empty();
  log("saved the run to " + path + (arrays ? "" : " (without arrays: this run did not keep them)"));
  return true;
}

namespace {

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

bool MainWindow::openRunFile(const QString& path) {
  QString why;
  return showRunFile(path, readRunFile(path, why), why);
}

void MainWindow::openRunFileInBackground(const QString& path, std::function<void(bool)> then) {
  auto outcome = std::make_shared<std::shared_ptr<RunOutcome>>();
  auto why = std::make_shared<QString>();
  const bool started = m_runFileRead.start([path, outcome, why] { *outcome = readRunFile(path, *why); },
                                           [this, path, outcome, why, then] {
                                             const bool shown = showRunFile(path, std::move(*outcome), *why);
                                             if (then) then(shown);
                                           });
  if (!started) {
    log("still opening the previous run file; " + path + " was not opened");
    if (then) then(false);
    return;
  }
  m_statusText->setText("Opening " + QFileInfo(path).fileName() + "\u2026");
}

bool MainWindow::showRunFile(const QString& path, std::shared_ptr<RunOutcome> outcome, const QString& why) {
  if (!outcome) {  // what is on screen stays
    m_errorBanner->showMessage(Banner::Level::Error, ("Cannot open the run: " + why).toHtmlEscaped());
    log("cannot open the run: " + why);
    m_statusText->setText({});
    return false;
  }
  const RunResult& r = outcome->result;
  const Workload* w = m_backend->registry().find(r.workload);
  if (!w) {
    m_errorBanner->showMessage(Banner::Level::Error, ("Cannot open " + path + ": it is a run of workload \u201C" +
                                                      q(r.workload) + "\u201D, which this build lacks")
                                                         .toHtmlEscaped());
    return false;
  }
  selectWorkload(q(r.workload));
  m_panel->setForm(formOf(r, *w));
  outcome->workload = &w->info();
  prepareOutcome(*outcome, m_backend->registry());
  showOutcome(outcome);
  const QString where = q(runfile::recordedOn(r));
  m_recordedBanner->showMessage(
      Banner::Level::Info, "<b>Recorded on " + where.toHtmlEscaped() + "</b> \u2014 opened from " +
                               QFileInfo(path).fileName().toHtmlEscaped() + " (host: " + q(r.host).toHtmlEscaped() +
                               "). Run (Ctrl+R) measures it again on this machine.");
  log("opened " + path + ": recorded on " + where);
  m_statusText->setText("Opened " + QFileInfo(path).fileName());
  m_settings->setExportFolder(QFileInfo(path).absolutePath());
  if (m_waitingFirstPlot) measureFirstPlot();
  return true;
}

/// The Counters toggle beside Run: the parameter panel's "Counters" box, one click away (a memory lesson turns it on
/// with its own counters).
void MainWindow::addCountersAction(QToolBar* tb) {
  auto* act = tb->addAction("Counters");
  act->setCheckable(true);
  act->setToolTip(
      "Counters for every CUDA implementation: sectors per request, bank conflicts, DRAM bytes, occupancy... in the "
      "Results table, the lesson's own on the stage; measured on one more, untimed run, by the hardware counters "
      "(CUPTI) where the driver allows it, else from the kernel's own accesses (no admin rights; per source line)");
  connect(act, &QAction::toggled, this, [this](bool on) {
    if (QCheckBox* box = m_panel->countersBox(); box && box->isChecked() != on) box->setChecked(on);
  });
  connect(m_panel, &ParamPanel::changed, act, [this, act] {
    const QSignalBlocker quiet(act);
    act->setChecked(!m_panel->form().counters.empty());
  });
  m_countersAct = act;
}

/// Runs `then` once the backend knows its device: at once (next event loop turn), or when a worker asked off the
/// GUI thread answers, so the first run is formed and checked against the GPU it goes to, while the window is
/// already on screen.
void MainWindow::whenDeviceKnown(std::function<void()> then) {
  if (!m_backend->deviceQueryPending()) return void(QTimer::singleShot(0, this, std::move(then)));
  auto once = std::make_shared<QMetaObject::Connection>();
  *once = connect(m_controller, &RunController::deviceStatusChanged, this, [once, then = std::move(then)] {
    QObject::disconnect(*once);
    then();
  });
}

/// What the command line asked the window to do first: open a run file, go live, or run the form.
void MainWindow::startFirstAction(bool waitedForDevice) {
  if (waitedForDevice && !m_options.startCourse.isEmpty() && !m_courseId.isEmpty())
    openCourseExperiment(m_options.startCourse);  // its form again, checked against the device now known
  if (!m_options.openRun.isEmpty()) {
    startWithRunFile();
  } else if (m_options.live) {
    m_waitingFirstPlot = true;
    m_liveAct->setChecked(true);
  } else if (m_options.ask) {
    // The poll is the stage's: presentation mode first, whichever of the two start-up events came first.
    if (m_options.forcePresentation) setPresentationMode(true);
    m_stage->askFromCommandLine();  // the class answers first; R runs
  } else if (m_options.firstRun) {
    startFirstRun();
  }
}

/// launchlab --open F: the file instead of the first run; a bad file is reported and the first run goes ahead.
void MainWindow::startWithRunFile() {
  m_waitingFirstPlot = true;
  openRunFileInBackground(m_options.openRun, [this](bool shown) {
    if (shown) return;
    m_waitingFirstPlot = false;
    if (m_options.firstRun) startFirstRun();
  });
}

void MainWindow::openSweepFile(const QString& path) {
  m_bottomTabs->setCurrentWidget(m_sweep);
  // The sweep asked for gets the larger share of the results column (a heatmap or crossover needs the height).
  const QList<int> sizes = m_resultsSplit->sizes();
  if (sizes.size() == 2 && sizes[1] < sizes[0])
    m_resultsSplit->setSizes({(sizes[0] + sizes[1]) * 2 / 5, (sizes[0] + sizes[1]) * 3 / 5});
  m_sweep->openSweepFileInBackground(path);
}

}  // namespace launchlab::ui
