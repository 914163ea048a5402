// Presentation mode and the stage: one plot fills the window, the rest folds into the stage header; F4 brings the
// desk (form, bottom tabs) back, F6 puts another plot on the stage, Page Down / Page Up (and the arrows on the
// stage) walk the course, loading and running each experiment at a size that answers in about a second.
#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QFileDialog>
#include <QImage>
#include <QLabel>
#include <QMessageBox>
#include <QPushButton>
#include <QScreen>
#include <QScrollArea>
#include <QSplitter>
#include <QStatusBar>
#include <QTabBar>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTimer>
#include <QToolBar>

#include "banner.h"
#include "chart_data.h"
#include "charts.h"
#include "counters_text.h"
#include "export.h"
#include "launchlab/course.h"
#include "launchlab/parse.h"
#include "log_text.h"
#include "main_window.h"
#include "outputs_pane.h"
#include "param_panel.h"
#include "prediction_store.h"
#include "qcp_view_base.h"
#include "roofline_view.h"
#include "settings.h"
#include "stage.h"
#include "stage_controller.h"
#include "stage_prompt.h"
#include "sweep_pane.h"
#include "workload_browser.h"

namespace launchlab::ui {

namespace {
QString q(const std::string& s) { return QString::fromStdString(s); }
}  // namespace

void MainWindow::buildStageActions() {
  m_nextAct = new QAction("Next experiment", this);
  m_nextAct->setShortcuts({QKeySequence(Qt::Key_PageDown)});
  m_nextAct->setToolTip("Presentation: load and run the next course experiment (Page Down; → on the stage)");
  m_prevAct = new QAction("Previous experiment", this);
  m_prevAct->setShortcuts({QKeySequence(Qt::Key_PageUp)});
  m_prevAct->setToolTip("Presentation: load and run the previous course experiment (Page Up; ← on the stage)");
  // The arrows are the stage's only while the desk is folded: with the form shown they move in its fields.
  m_nextArrowAct = new QAction(this);
  m_nextArrowAct->setShortcut(QKeySequence(Qt::Key_Right));
  m_prevArrowAct = new QAction(this);
  m_prevArrowAct->setShortcut(QKeySequence(Qt::Key_Left));
  m_stageAct = new QAction("Next plot on the stage", this);
  m_stageAct->setShortcut(QKeySequence(Qt::Key_F6));
  m_stageAct->setToolTip("Presentation: put the next plot (or the timing chart) on the stage (F6)");
  m_copyStageAct = new QAction("Copy the stage's plot", this);
  m_copyStageAct->setShortcut(QKeySequence("Ctrl+Shift+C"));
  m_copyStageAct->setToolTip("Copy the plot on the stage to the clipboard as an image, as projected (Ctrl+Shift+C)");
  m_copyStageAct->setShortcutContext(Qt::WindowShortcut);
  addAction(m_copyStageAct);
  connect(m_copyStageAct, &QAction::triggered, this, &MainWindow::copyStagePlot);
  for (QAction* a : {m_nextAct, m_prevAct, m_nextArrowAct, m_prevArrowAct, m_stageAct}) {
    a->setShortcutContext(Qt::WindowShortcut);
    a->setEnabled(false);
    addAction(a);
  }
  connect(m_nextAct, &QAction::triggered, this, [this] { stepCourse(1); });
  connect(m_nextArrowAct, &QAction::triggered, this, [this] { stepCourse(1); });
  connect(m_prevAct, &QAction::triggered, this, [this] { stepCourse(-1); });
  connect(m_prevArrowAct, &QAction::triggered, this, [this] { stepCourse(-1); });
  connect(m_stageAct, &QAction::triggered, this, &MainWindow::nextStageView);
  connect(m_outputs, &OutputsPane::currentViewChanged, this, [this](int i) {
    // A tab clicked on the stage puts that plot there; a traced run's Gantt (Blocks on SMs) is what it was asked for.
    const std::string name = m_outputs->viewName(i);
    if (name == "block_trace" && m_stageView != name) {
      m_stageView = name;
      if (onStage()) QTimer::singleShot(0, this, &MainWindow::layoutStage);
    } else if (onStage() && m_stageView != kStageTiming && i >= 0) {
      m_stageView = name;
    }
  });
  buildStageKeys();
  connect(this, &MainWindow::runDisplayed, this, &MainWindow::updateStageHeader);
  connect(this, &MainWindow::runDisplayed, this, &MainWindow::fitResultsSplit);
}

void MainWindow::buildStageKeys() {
  const QString file = m_options.predictionsFile.isEmpty() ? PredictionStore::defaultPath() : m_options.predictionsFile;
  m_predictions = std::make_unique<PredictionStore>(file == "-" ? QString() : file);
  if (const QString why = m_predictions->load(); !why.isEmpty()) log("predictions: " + why);
  m_stage = new StageController(m_stageHeader, m_prompt, m_keyHints, m_predictions.get(), this);
  connect(m_stage, &StageController::runRequested, this, &MainWindow::runForStage);
  m_stage->attachPoll(m_poll, m_options.askBind);
  addActions({m_stage->askAction(), m_stage->exportAnswersAction()});
  // Single keys are the stage's alone: at the desk they would be typed into the form.
  m_predictAct = new QAction("Predict", this);
  m_predictAct->setShortcut(QKeySequence(Qt::Key_P));
  connect(m_predictAct, &QAction::triggered, m_stage, &StageController::predict);
  m_stageRunAct = new QAction("Run and reveal", this);
  m_stageRunAct->setShortcut(QKeySequence(Qt::Key_R));
  connect(m_stageRunAct, &QAction::triggered, m_stage, &StageController::run);
  m_lookForAct = new QAction("Look for", this);
  m_lookForAct->setShortcut(QKeySequence(Qt::Key_L));
  connect(m_lookForAct, &QAction::triggered, m_stage, &StageController::toggleLookFor);
  m_skipAct = new QAction("Skip the question", this);
  m_skipAct->setShortcut(QKeySequence(Qt::Key_Escape));
  connect(m_skipAct, &QAction::triggered, m_stage, &StageController::skip);
  for (QAction* a : {m_predictAct, m_stageRunAct, m_lookForAct, m_skipAct}) {
    a->setShortcutContext(Qt::WindowShortcut);
    a->setEnabled(false);
    addAction(a);
  }
  m_myPredictionsAct = new QAction("My predictions\u2026", this);
  m_myPredictionsAct->setToolTip("What you predicted in the course, how close, by chapter; export as CSV");
  connect(m_myPredictionsAct, &QAction::triggered, this, &MainWindow::showMyPredictions);
  if (auto* tb = findChild<QToolBar*>("mainToolbar")) {
    tb->addAction(m_myPredictionsAct);
    // The toolbar hides on the stage: its keys (F4, F5, Ctrl+R, …) stay the window's.
    for (QAction* a : tb->actions())
      if (!a->shortcut().isEmpty()) addAction(a);
  }
}

void MainWindow::runForStage() {
  layoutStage();  // the plot comes back in place of the question
  if (m_style.presentation)
    startFirstRun();  // the stage's preview size, as Page Down runs
  else
    run();
}

void MainWindow::showMyPredictions() {
  QMessageBox box(this);
  box.setWindowTitle("My predictions");
  box.setText(m_predictions->summaryText());
  QPushButton* csv = box.addButton("Export CSV\u2026", QMessageBox::ActionRole);
  box.addButton(QMessageBox::Close);
  csv->setEnabled(!m_predictions->records().empty());
  box.exec();
  if (box.clickedButton() != csv) return;
  const QString path = QFileDialog::getSaveFileName(this, "Export my predictions", "predictions.csv", "CSV (*.csv)");
  if (path.isEmpty()) return;
  const ExportResult r = exportBytes(path, m_predictions->csv());
  if (!r.ok)
    m_errorBanner->showMessage(Banner::Level::Error, ("could not export: " + r.message).toHtmlEscaped());
  else
    m_statusText->setText("Predictions exported to " + path);
}

void MainWindow::foldLessonBanner() {
  if (m_errorBanner->level() != Banner::Level::Lesson) return void(m_lessonFolded = false);
  const bool fold = onStage() && !m_stage->headline().isEmpty();
  if (fold && m_errorBanner->isVisible()) {
    m_errorBanner->hide();
    m_lessonFolded = true;
  } else if (!fold && m_lessonFolded) {
    m_errorBanner->show();
    m_lessonFolded = false;
  }
}

bool MainWindow::onStage() const { return m_style.presentation && !m_panelAct->isChecked(); }

QWidget* MainWindow::stageWidget() const {
  if (m_stageView == kStageTiming) return m_timing->widget();
  const int i = m_outputs->indexOfView(m_stageView);
  return i >= 0 ? m_outputs->view(i)->widget() : m_outputs->view(std::max(0, m_outputs->currentIndex()))->widget();
}

void MainWindow::chooseStageView(const Workload& w) {
  // The open course experiment's declared view and implementation (its "stage"), else the workload's.
  const auto* e = m_courseId.isEmpty() ? nullptr : findCourseExperiment(m_courseId.toStdString());
  const StageView declared = e && e->request.workload == w.info().id ? e->stage : StageView{};
  m_stageView = teachingView(w.info());
  if (declared.view == kStageTiming || m_outputs->indexOfView(declared.view) >= 0) m_stageView = declared.view;
  m_outputs->preferImpl(declared.impl);
  m_timing->setKernelFirst(declared.timing == "kernel");
  m_timing->setGpuFit(declared.timing == "gpu");
  // At the desk too, the experiment opens on the view that teaches it (the timing chart is always below).
  if (const int i = m_outputs->indexOfView(m_stageView); i >= 0) m_outputs->setCurrentIndex(i);
}

void MainWindow::nextStageView() {
  std::vector<std::string> names;
  for (int i = 0; i < m_outputs->viewCount(); ++i) names.push_back(m_outputs->viewName(i));
  names.push_back(kStageTiming);
  auto it = std::find(names.begin(), names.end(), m_stageView);
  m_stageView = it == names.end() || it + 1 == names.end() ? names.front() : *(it + 1);
  layoutStage();
}

void MainWindow::setPresentationMode(bool on) {
  if (on == m_style.presentation && m_presentAct->isChecked() == on) return;
  {
    QSignalBlocker b(m_presentAct);
    m_presentAct->setChecked(on);
  }
  m_style = on ? ViewStyle::presentationStyle(screen()->geometry().height()) : ViewStyle::normal();
  applyApplicationStyle(*qApp, m_style, m_baseFont, m_basePalette);
  // Widgets under a style sheet do not follow application font changes: hand the font down explicitly.
  const QFont appFont = QApplication::font();
  for (QWidget* w : findChildren<QWidget*>()) w->setFont(appFont);
  fitPanelWidth();
  m_outputs->setViewStyle(m_style);
  m_timing->setViewStyle(m_style);
  m_sweep->setViewStyle(m_style);
  m_roofline->setViewStyle(m_style);
  m_stage->setPresentation(on, screen()->geometry().height());
  arrangeForPresentation(on);
  arrangeResults();  // presentation mode stacks the plots; a wide desk puts them side by side again
  if (on) {
    m_statesBeforePresentation = windowState();
    showFullScreen();
  } else {
    if (m_statesBeforePresentation & Qt::WindowMaximized)
      showMaximized();
    else
      showNormal();
  }
  m_settings->setPresentation(on);
  log(on ? "presentation mode on (F5 to leave; F4 the form and tabs; F6 another plot; Page Down the next experiment)"
         : "presentation mode off");
}

/// On a projector the plot that teaches is the stage: the browser, the form and the bottom tabs fold away (F4 brings
/// the form and tabs back), the header says what is shown.
void MainWindow::arrangeForPresentation(bool on) {
  m_timingNote->setVisible(!on);  // its words are for the desk, not the room
  if (on) m_deviceBannerBeforePresentation = m_deviceBanner->isVisible();
  m_deviceBanner->setVisible(!on && m_deviceBannerBeforePresentation);
  if (on) {
    m_resultsSizesBeforePresentation = m_resultsSplit->sizes();
    m_mainSizesBeforePresentation = m_mainSplit->sizes();
  }
  {
    QSignalBlocker b(m_panelAct);
    m_panelAct->setChecked(!on);
  }
  layoutStage();
  if (!on && !m_resultsSizesBeforePresentation.isEmpty()) {
    m_resultsSplit->setSizes(m_resultsSizesBeforePresentation);
    m_mainSplit->setSizes(m_mainSizesBeforePresentation);
  }
  updateStageHeader();
}

/// Shows and hides the panes for the mode: the desk (normal window), the stage, or the stage with the desk open.
void MainWindow::layoutStage() {
  const bool present = m_style.presentation, stage = onStage(), timing = m_stageView == kStageTiming;
  const bool asking = stage && m_stage->holdsRun();  // the question has the stage until it is answered
  m_stageHeader->setVisible(present);
  m_browser->setVisible(!present);
  if (auto* tb = findChild<QToolBar*>("mainToolbar")) tb->setVisible(!present);
  statusBar()->setVisible(!present);
  m_panelScroll->setVisible(m_panelAct->isChecked());
  m_outputs->setBarVisible(!stage);
  m_outputs->setVisible((!stage || !timing) && !asking);
  m_bottomTabs->setVisible((!stage || timing) && !m_liveOnStage && !asking);
  m_bottomTabs->tabBar()->setVisible(!stage);
  if (stage && timing) m_bottomTabs->setCurrentIndex(0);
  if (stage && !timing) m_outputs->setCurrentIndex(m_outputs->indexOfView(m_stageView));
  if (stage) m_mainSplit->setSizes({0, 0, std::max(1000, m_mainSplit->width())});
  if (present && !stage) {
    const int h = std::max(400, m_resultsSplit->height());
    m_resultsSplit->setSizes({h * 60 / 100, h * 40 / 100});
    const int w = std::max(1000, m_mainSplit->width());
    const int panel = std::max(m_panelScroll->minimumWidth(), w * 31 / 100);
    m_mainSplit->setSizes({0, panel, w - panel});
  }
  for (QAction* a : {m_nextAct, m_prevAct, m_stageAct}) a->setEnabled(present);
  for (QAction* a : {m_nextArrowAct, m_prevArrowAct, m_predictAct, m_stageRunAct, m_lookForAct}) a->setEnabled(stage);
  m_skipAct->setEnabled(asking);
  m_stage->askAction()->setEnabled(m_poll && (asking || (stage && m_stage->polling())));
  foldLessonBanner();
}

void MainWindow::stageForLive(bool on) {
  m_liveOnStage = on;
  if (on) m_stageView = m_outputs->viewName(m_outputs->currentIndex());  // the view the frames are drawn in
  layoutStage();
}

/// At a desk, the timing chart gets the height its rows need (it asks for at most a third of the window; more rows
/// scroll), the output plot above all the rest: the picture keeps its room and the chart is never cut.
void MainWindow::fitResultsSplit() {
  if (m_style.presentation || m_liveOnStage || !m_bottomTabs->isVisible()) return;
  if (m_resultsSplit->orientation() == Qt::Horizontal) return;  // side by side: both have the full height
  const QList<int> sizes = m_resultsSplit->sizes();
  if (sizes.size() != 2) return;
  const int total = sizes[0] + sizes[1];
  const int chrome =
      m_bottomTabs->height() - m_bottomTabs->currentWidget()->height() + m_timingNote->sizeHint().height() + 12;
  // The output plot keeps at least two fifths of the window (and a little more): past that the timing rows scroll.
  const QWidget* plot =
      m_outputs->viewCount() ? m_outputs->view(std::max(0, m_outputs->currentIndex()))->widget() : nullptr;
  const int outputsChrome = plot ? m_outputs->height() - plot->height() : 0;
  const int room = total - height() * 42 / 100 - outputsChrome;
  const int want = std::max(120, std::min({m_timing->widget()->minimumHeight() + chrome, total / 2, room}));
  if (m_bottomTabs->currentIndex() == 0 && sizes[1] != want) m_resultsSplit->setSizes({total - want, want});
}

void MainWindow::restoreDesk() {
  const auto desk = m_settings->desk();
  if (!desk) return;
  m_mainSplit->restoreState(desk->mainSplit);
  m_resultsSplit->restoreState(desk->resultsSplit);
  m_panelAct->setChecked(desk->panelShown);
  m_panelScroll->setVisible(desk->panelShown);
}

void MainWindow::arrangeResults() {
  // Wide and at a desk: a 1920 x 1080 window has room for both side by side at full height. Side by side, the window
  // is at least as wide as both minimums together: "wide" starts above that, so a window that narrows always gets
  // back under the threshold (and the plots back on top of each other).
  const int results = m_resultsSplit->minimumSizeHint().width();
  const int sideBySide = minimumSizeHint().width() - results + m_outputs->minimumSizeHint().width() +
                         m_bottomTabs->minimumSizeHint().width() + m_resultsSplit->handleWidth();
  const bool wide =
      !m_style.presentation && width() >= std::max(1600, sideBySide + 100) && width() * 10 >= height() * 16;
  const Qt::Orientation want = wide ? Qt::Horizontal : Qt::Vertical;
  if (m_resultsSplit->orientation() == want) return;
  m_resultsSplit->setOrientation(want);
  const int total = wide ? m_resultsSplit->width() : m_resultsSplit->height();
  m_resultsSplit->setSizes({total * 62 / 100, total - total * 62 / 100});
  if (!wide) fitResultsSplit();
}

void MainWindow::resizeEvent(QResizeEvent* e) {
  QMainWindow::resizeEvent(e);
  arrangeResults();
}

void MainWindow::togglePanel(bool on) {
  if (m_style.presentation) return layoutStage();  // F4 on a projector: the desk (form and bottom tabs)
  m_panelScroll->setVisible(on);
}

void MainWindow::stepCourse(int step) {
  const std::string next = courseNeighbour(m_backend->registry(), m_courseId.toStdString(), step);
  if (next.empty()) {
    m_statusText->setText(step > 0 ? "The last experiment of the course" : "The first experiment of the course");
    return;
  }
  if (!openCourseExperiment(q(next))) return;
  if (m_stage->holdsRun()) return layoutStage();  // the question first: Enter, Esc or R runs
  startFirstRun();
}

void MainWindow::updateStageHeader() {
  const auto* e = m_courseId.isEmpty() ? nullptr : findCourseExperiment(m_courseId.toStdString());
  const Workload* w = m_backend->registry().find(m_panel->form().workload);
  QString position;
  if (e) {
    const CoursePosition p = coursePosition(m_backend->registry(), e->id);
    position = QString("%1 / %2").arg(p.index + 1).arg(p.count);
  }
  const RunResult* shown = m_last ? &m_last->result : nullptr;
  m_stage->setExperiment(e, position, e ? q(e->headerTitle()) : w ? q(w->info().title) : QString(), shown);
  QString launch, counters;
  const bool current = shown && w && shown->workload == w->info().id;
  if (current) {
    launch = QString("n = %1 %2, %3").arg(countText(shown->n), q(shown->dtype), q(launchText(*shown)));
    counters = countersLine(*shown);  // the lesson's counter stays on stage, where the tables are folded away
  }
  // A preview is said on the header line (its size is there): the caption's lines are the plot's height.
  if (current && !m_previewNote.isEmpty()) launch += "  \u00B7  preview (Ctrl+R: full size)";
  m_stage->showRun(current ? shown : nullptr, launch, counters);
  if (current && runLessonsText(*shown).isEmpty()) m_lessonFolded = false;  // no lesson now: none to bring back
  if (m_style.presentation) layoutStage();                                  // the reveal gives the plot back its place
  foldLessonBanner();
}

QString MainWindow::currentCourseExperiment() const { return m_courseId; }

bool MainWindow::copyStagePlot() {
  Renderable* plot = m_timing.get();
  if (m_stageView != kStageTiming) {
    const int i = m_outputs->indexOfView(m_stageView);
    plot = m_outputs->view(i >= 0 ? i : std::max(0, m_outputs->currentIndex()));
  }
  // As projected: the presentation style whatever the window's mode, the caption stamped under it as in an export.
  ExportOptions o;
  o.asProjected = true;
  if (m_last) o.caption = q(captionText(m_last->result, plot->exportTitle().toStdString()));
  QTemporaryDir dir;
  const QString path = dir.filePath("stage.png");
  const ExportResult r = exportPlot(*plot, path, o);
  const QImage image(path);
  if (!r.ok || image.isNull()) {
    m_errorBanner->showMessage(Banner::Level::Error, ("could not copy the plot: " + r.message).toHtmlEscaped());
    return false;
  }
  QGuiApplication::clipboard()->setImage(image);
  m_statusText->setText(QString("Copied \u201C%1\u201D (%2 x %3 px) to the clipboard")
                            .arg(plot->exportTitle())
                            .arg(image.width())
                            .arg(image.height()));
  return true;
}

}  // namespace launchlab::ui
