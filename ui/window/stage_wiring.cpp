#include "window/stage_wiring.h"

#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QFileDialog>
#include <QImage>
#include <QLabel>
#include <QMainWindow>
#include <QMessageBox>
#include <QPushButton>
#include <QResizeEvent>
#include <QScreen>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QTimer>
#include <QToolBar>
#include <algorithm>

#include "models/chart_data.h"
#include "models/log_text.h"
#include "models/settings.h"
#include "models/stage_text.h"
#include "models/text.h"
#include "plots/charts.h"
#include "plots/export.h"
#include "plots/outputs_pane.h"
#include "window/banner.h"
#include "window/desk.h"
#include "window/param_panel.h"
#include "window/prediction_store.h"
#include "window/results_presenter.h"
#include "window/stage.h"
#include "window/stage_controller.h"
#include "window/stage_prompt.h"

namespace launchlab::ui {

namespace {}  // namespace

StageWiring::StageWiring(QMainWindow& window, Desk& desk, const Registry& registry, AppSettings& settings,
                         ResultsPresenter& results, const QString& predictionsFile, const QString& askBind, Hooks hooks)
    : QObject(&window),
      m_window(window),
      m_desk(desk),
      m_registry(registry),
      m_settings(settings),
      m_results(results),
      m_hooks(std::move(hooks)),
      m_course(registry),
      m_baseFont(QApplication::font()),
      m_basePalette(QApplication::palette()) {
  const QString file = predictionsFile.isEmpty() ? PredictionStore::defaultPath() : predictionsFile;
  m_predictions = std::make_unique<PredictionStore>(file == "-" ? QString() : file);
  if (const QString why = m_predictions->load(); !why.isEmpty()) m_desk.log("predictions: " + why);
  m_stage = new StageController(m_desk.stageHeader(), m_desk.stagePrompt(), m_desk.keyHintsLabel(), m_predictions.get(),
                                this);
  connect(m_stage, &StageController::runRequested, this, &StageWiring::runForStage);
  m_stage->attachPoll(m_desk.stagePoll(), askBind);
  connect(m_desk.outputsPane(), &OutputsPane::currentViewChanged, this, &StageWiring::followOutputTab);
  connect(&m_results, &ResultsPresenter::runDisplayed, this, &StageWiring::updateStageHeader);
  // Rows that appear above the results (a banner, the question, the reveal) shrink them without resizing the window:
  // the split is fitted again whenever its height changes, once the splitter has shared out its new size.
  m_resultsSplit = m_desk.resultsSplit();
  m_resultsSplit->installEventFilter(this);
  connect(&m_results, &ResultsPresenter::runDisplayed, this, &StageWiring::fitResultsSplit);
}

StageWiring::~StageWiring() = default;

void StageWiring::addActions(QAction* present, QAction* panel, QWidget* toolbar) {
  m_presentAct = present;
  m_panelAct = panel;
  buildCourseActions();
  buildQuestionKeys(toolbar);
}

void StageWiring::buildCourseActions() {
  m_nextAct = new QAction("Next experiment", &m_window);
  m_nextAct->setShortcuts({QKeySequence(Qt::Key_PageDown)});
  m_nextAct->setToolTip("Presentation: load and run the next course experiment (Page Down; → on the stage)");
  m_prevAct = new QAction("Previous experiment", &m_window);
  m_prevAct->setShortcuts({QKeySequence(Qt::Key_PageUp)});
  m_prevAct->setToolTip("Presentation: load and run the previous course experiment (Page Up; ← on the stage)");
  // The arrows are the stage's only while the desk is folded: with the form shown they move in its fields.
  m_nextArrowAct = new QAction(&m_window);
  m_nextArrowAct->setShortcut(QKeySequence(Qt::Key_Right));
  m_prevArrowAct = new QAction(&m_window);
  m_prevArrowAct->setShortcut(QKeySequence(Qt::Key_Left));
  m_stageAct = new QAction("Next plot on the stage", &m_window);
  m_stageAct->setShortcut(QKeySequence(Qt::Key_F6));
  m_stageAct->setToolTip("Presentation: put the next plot (or the timing chart) on the stage (F6)");
  m_copyStageAct = new QAction("Copy the stage's plot", &m_window);
  m_copyStageAct->setShortcut(QKeySequence("Ctrl+Shift+C"));
  m_copyStageAct->setToolTip("Copy the plot on the stage to the clipboard as an image, as projected (Ctrl+Shift+C)");
  m_copyStageAct->setShortcutContext(Qt::WindowShortcut);
  m_window.addAction(m_copyStageAct);
  connect(m_copyStageAct, &QAction::triggered, this, &StageWiring::copyStagePlot);
  for (QAction* a : {m_nextAct, m_prevAct, m_nextArrowAct, m_prevArrowAct, m_stageAct}) {
    a->setShortcutContext(Qt::WindowShortcut);
    a->setEnabled(false);
    m_window.addAction(a);
  }
  connect(m_nextAct, &QAction::triggered, this, [this] { stepCourse(1); });
  connect(m_nextArrowAct, &QAction::triggered, this, [this] { stepCourse(1); });
  connect(m_prevAct, &QAction::triggered, this, [this] { stepCourse(-1); });
  connect(m_prevArrowAct, &QAction::triggered, this, [this] { stepCourse(-1); });
  connect(m_stageAct, &QAction::triggered, this, &StageWiring::nextStageView);
}

void StageWiring::buildQuestionKeys(QWidget* toolbar) {
  // Single keys are the stage's alone: at the desk they would be typed into the form.
  m_predictAct = new QAction("Predict", &m_window);
  m_predictAct->setShortcut(QKeySequence(Qt::Key_P));
  connect(m_predictAct, &QAction::triggered, m_stage, &StageController::predict);
  m_stageRunAct = new QAction("Run and reveal", &m_window);
  m_stageRunAct->setShortcut(QKeySequence(Qt::Key_R));
  connect(m_stageRunAct, &QAction::triggered, m_stage, &StageController::run);
  m_lookForAct = new QAction("Look for", &m_window);
  m_lookForAct->setShortcut(QKeySequence(Qt::Key_L));
  connect(m_lookForAct, &QAction::triggered, m_stage, &StageController::toggleLookFor);
  m_skipAct = new QAction("Skip the question", &m_window);
  m_skipAct->setShortcut(QKeySequence(Qt::Key_Escape));
  connect(m_skipAct, &QAction::triggered, m_stage, &StageController::skip);
  for (QAction* a : {m_predictAct, m_stageRunAct, m_lookForAct, m_skipAct}) {
    a->setShortcutContext(Qt::WindowShortcut);
    a->setEnabled(false);
    m_window.addAction(a);
  }
  m_window.addActions({m_stage->askAction(), m_stage->exportAnswersAction()});
  auto* myPredictions = new QAction("My predictions\u2026", &m_window);
  myPredictions->setToolTip("What you predicted in the course, how close, by chapter; export as CSV");
  connect(myPredictions, &QAction::triggered, this, &StageWiring::showMyPredictions);
  toolbar->addAction(myPredictions);
  // The toolbar hides on the stage: its keys (F4, F5, Ctrl+R, …) stay the window's.
  for (QAction* a : toolbar->actions())
    if (!a->shortcut().isEmpty()) m_window.addAction(a);
}

/// A tab clicked on the stage puts that plot there; a traced run's Gantt (Blocks on SMs) is what it was asked for.
void StageWiring::followOutputTab(int i) {
  const std::string name = m_desk.outputsPane()->viewName(i);
  if (name == "block_trace" && m_stageView != name) {
    m_stageView = name;
    if (onStage()) QTimer::singleShot(0, this, &StageWiring::layoutStage);
  } else if (onStage() && m_stageView != kStageTiming && i >= 0) {
    m_stageView = name;
  }
}

void StageWiring::runForStage() {
  layoutStage();  // the plot comes back in place of the question
  if (presentation())
    m_hooks.runPreview();  // the stage's preview size, as Page Down runs
  else
    m_hooks.run();
}

void StageWiring::showMyPredictions() {
  QMessageBox box(&m_window);
  box.setWindowTitle("My predictions");
  box.setText(m_predictions->summaryText());
  QPushButton* csv = box.addButton("Export CSV\u2026", QMessageBox::ActionRole);
  box.addButton(QMessageBox::Close);
  csv->setEnabled(!m_predictions->records().empty());
  box.exec();
  if (box.clickedButton() != csv) return;
  const QString path =
      QFileDialog::getSaveFileName(&m_window, "Export my predictions", "predictions.csv", "CSV (*.csv)");
  if (path.isEmpty()) return;
  const ExportResult r = exportBytes(path, m_predictions->csv());
  if (!r.ok)
    m_desk.errorBanner()->showMessage(Banner::Level::Error, ("could not export: " + r.message).toHtmlEscaped());
  else
    m_desk.setStatus("Predictions exported to " + path);
}

void StageWiring::foldLessonBanner() {
  Banner* banner = m_desk.errorBanner();
  if (banner->level() != Banner::Level::Lesson) return void(m_lessonFolded = false);
  const bool fold = onStage() && !m_stage->headline().isEmpty();
  if (fold && banner->isVisible()) {
    banner->hide();
    m_lessonFolded = true;
  } else if (!fold && m_lessonFolded) {
    banner->show();
    m_lessonFolded = false;
  }
}

void StageWiring::dropLessonBanner() {
  if (m_desk.errorBanner()->level() == Banner::Level::Lesson) m_desk.errorBanner()->hide();
  m_lessonFolded = false;
}

bool StageWiring::onStage() const { return m_style.presentation && m_panelAct && !m_panelAct->isChecked(); }

QWidget* StageWiring::stageWidget() const {
  if (m_stageView == kStageTiming) return m_desk.timingChart()->widget();
  const OutputsPane* outputs = m_desk.outputsPane();
  const int i = outputs->indexOfView(m_stageView);
  return i >= 0 ? outputs->view(i)->widget() : outputs->view(std::max(0, outputs->currentIndex()))->widget();
}

void StageWiring::chooseStageView(const Workload& w) {
  // The open course experiment's declared view and implementation (its "stage"), else the workload's.
  OutputsPane* outputs = m_desk.outputsPane();
  const StageView declared = m_course.stageFor(w.info().id);
  m_stageView = teachingView(w.info());
  if (declared.view == kStageTiming || outputs->indexOfView(declared.view) >= 0) m_stageView = declared.view;
  outputs->preferImpl(declared.impl);
  m_desk.timingChart()->setKernelFirst(declared.timing == "kernel");
  m_desk.timingChart()->setGpuFit(declared.timing == "gpu");
  // At the desk too, the experiment opens on the view that teaches it (the timing chart is always below).
  if (const int i = outputs->indexOfView(m_stageView); i >= 0) outputs->setCurrentIndex(i);
}

void StageWiring::nextStageView() {
  std::vector<std::string> names;
  for (int i = 0; i < m_desk.outputsPane()->viewCount(); ++i) names.push_back(m_desk.outputsPane()->viewName(i));
  names.push_back(kStageTiming);
  auto it = std::find(names.begin(), names.end(), m_stageView);
  m_stageView = it == names.end() || it + 1 == names.end() ? names.front() : *(it + 1);
  layoutStage();
}

void StageWiring::askAtStart(bool present) {
  // The poll is the stage's: presentation mode first, whichever of the two start-up events came first.
  if (present) setPresentationMode(true);
  m_stage->askFromCommandLine();
}

void StageWiring::setPresentationMode(bool on) {
  if (on == m_style.presentation && m_presentAct->isChecked() == on) return;
  {
    QSignalBlocker b(m_presentAct);
    m_presentAct->setChecked(on);
  }
  const int screenHeight = m_window.screen()->geometry().height();
  m_style = on ? ViewStyle::presentationStyle(screenHeight) : ViewStyle::normal();
  applyApplicationStyle(*qApp, m_style, m_baseFont, m_basePalette);
  // Widgets under a style sheet do not follow application font changes: hand the font down explicitly.
  const QFont appFont = QApplication::font();
  for (QWidget* w : m_window.findChildren<QWidget*>()) w->setFont(appFont);
  m_desk.fitPanelWidth(on);
  m_desk.setViewStyle(m_style);
  m_stage->setPresentation(on, screenHeight);
  arrangeForPresentation(on);
  // Presentation mode stacks the plots; a wide desk puts them side by side again.
  if (m_desk.arrangeResults(m_window.size(), m_window.minimumSizeHint().width(), on)) fitResultsSplit();
  if (on) {
    m_statesBeforePresentation = m_window.windowState();
    m_window.showFullScreen();
  } else if (m_statesBeforePresentation & Qt::WindowMaximized) {
    m_window.showMaximized();
  } else {
    m_window.showNormal();
  }
  m_settings.setPresentation(on);
  m_desk.log(on ? "presentation mode on (F5 to leave; F4 the form and tabs; F6 another plot; Page Down the next "
                  "experiment)"
                : "presentation mode off");
}

/// On a projector the plot that teaches is the stage: the browser, the form and the bottom tabs fold away (F4 brings
/// the form and tabs back), the header says what is shown.
void StageWiring::arrangeForPresentation(bool on) {
  m_desk.timingNote()->setVisible(!on);  // its words are for the desk, not the room
  if (on) m_deviceBannerBeforePresentation = m_desk.deviceBanner()->isVisible();
  m_desk.deviceBanner()->setVisible(!on && m_deviceBannerBeforePresentation);
  if (on) m_desk.keepSizes();
  {
    QSignalBlocker b(m_panelAct);
    m_panelAct->setChecked(!on);
  }
  layoutStage();
  if (!on) m_desk.restoreKeptSizes();
  updateStageHeader();
}

void StageWiring::holdDeviceBanner() {
  if (!m_style.presentation) return;
  m_deviceBannerBeforePresentation = true;
  m_desk.deviceBanner()->hide();
}

void StageWiring::layoutStage() {
  const bool present = m_style.presentation, stage = onStage();
  const bool asking = stage && m_stage->holdsRun();  // the question has the stage until it is answered
  if (auto* tb = m_window.findChild<QToolBar*>("mainToolbar")) tb->setVisible(!present);
  m_window.statusBar()->setVisible(!present);
  m_desk.arrange({present, stage, m_panelAct->isChecked(), asking, m_liveOnStage, m_stageView});
  for (QAction* a : {m_nextAct, m_prevAct, m_stageAct}) a->setEnabled(present);
  for (QAction* a : {m_nextArrowAct, m_prevArrowAct, m_predictAct, m_stageRunAct, m_lookForAct}) a->setEnabled(stage);
  m_skipAct->setEnabled(asking);
  m_stage->askAction()->setEnabled(m_desk.stagePoll() && (asking || (stage && m_stage->polling())));
  foldLessonBanner();
}

void StageWiring::stageForLive(bool on) {
  m_liveOnStage = on;
  if (on) m_stageView = m_desk.outputsPane()->viewName(m_desk.outputsPane()->currentIndex());  // the frames' view
  layoutStage();
}

void StageWiring::fitResultsSplit() {
  if (m_style.presentation || m_liveOnStage) return;
  m_desk.fitResultsSplit(m_window.height());
}

bool StageWiring::eventFilter(QObject* watched, QEvent* e) {
  // The splitter is compared as it was recorded, never asked of the Desk: its events still come while the Desk is
  // being destroyed around it; and the queued fit runs only while the splitter (a child of the Desk) lives.
  if (m_resultsSplit && watched == m_resultsSplit && e->type() == QEvent::Resize) {
    const auto* r = static_cast<QResizeEvent*>(e);
    if (r->size().height() != r->oldSize().height())
      QMetaObject::invokeMethod(
          this,
          [this] {
            if (m_resultsSplit) fitResultsSplit();
          },
          Qt::QueuedConnection);
  }
  return QObject::eventFilter(watched, e);
}

void StageWiring::togglePanel(bool on) {
  if (m_style.presentation) return layoutStage();  // F4 on a projector: the desk (form and bottom tabs)
  m_desk.panelScroll()->setVisible(on);
}

void StageWiring::stepCourse(int step) {
  const std::string next = m_course.neighbour(step);
  if (next.empty()) {
    m_desk.setStatus(step > 0 ? "The last experiment of the course" : "The first experiment of the course");
    return;
  }
  if (!m_hooks.openExperiment(q(next))) return;
  if (m_stage->holdsRun()) return layoutStage();  // the question first: Enter, Esc or R runs
  m_hooks.runPreview();
}

void StageWiring::updateStageHeader() {
  const CourseExperiment* e = m_course.experiment();
  const Workload* w = m_registry.find(m_desk.paramPanel()->form().workload);
  const auto last = m_results.last();
  const RunResult* shown = last ? &last->result : nullptr;
  const QString title = e ? q(e->headerTitle()) : w ? q(w->info().title) : QString();
  m_stage->setExperiment(e, positionText(m_course.position()), title, shown);
  const StageRunText run = stageRunText(shown, w ? w->info().id : std::string(), !m_previewNote.isEmpty());
  m_stage->showRun(run.current ? shown : nullptr, run.launch, run.note);
  if (run.current && runLessonsText(*shown).isEmpty()) m_lessonFolded = false;  // no lesson now: none to bring back
  if (m_style.presentation) layoutStage();  // the reveal gives the plot back its place
  foldLessonBanner();
}

bool StageWiring::copyStagePlot() {
  Renderable* plot = m_desk.timingChart();
  if (m_stageView != kStageTiming) {
    OutputsPane* outputs = m_desk.outputsPane();
    const int i = outputs->indexOfView(m_stageView);
    plot = outputs->view(i >= 0 ? i : std::max(0, outputs->currentIndex()));
  }
  // As projected: the presentation style whatever the window's mode, the caption stamped under it as in an export.
  ExportOptions o;
  o.asProjected = true;
  if (const auto last = m_results.last()) o.caption = q(captionText(last->result, plot->exportTitle().toStdString()));
  QTemporaryDir dir;
  const QString path = dir.filePath("stage.png");
  const ExportResult r = exportPlot(*plot, path, o);
  const QImage image(path);
  if (!r.ok || image.isNull()) {
    m_desk.errorBanner()->showMessage(Banner::Level::Error, ("could not copy the plot: " + r.message).toHtmlEscaped());
    return false;
  }
  QGuiApplication::clipboard()->setImage(image);
  m_desk.setStatus(QString("Copied \u201C%1\u201D (%2 x %3 px) to the clipboard")
                       .arg(plot->exportTitle())
                       .arg(image.width())
                       .arg(image.height()));
  return true;
}

}  // namespace launchlab::ui
