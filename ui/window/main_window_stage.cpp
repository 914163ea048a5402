// Presentation mode and the stage: one plot fills the window, the rest folds into the stage header; F4 brings the
// desk (form, bottom tabs) back, F6 puts another plot on the stage, Page Down / Page Up (and the arrows on the
// stage) walk the course, loading and running each experiment at a size that answers in about a second.
#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QImage>
#include <QLabel>
#include <QScreen>
#include <QScrollArea>
#include <QSplitter>
#include <QTabBar>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTimer>

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
#include "qcp_view_base.h"
#include "roofline_view.h"
#include "settings.h"
#include "stage.h"
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
  connect(this, &MainWindow::runDisplayed, this, &MainWindow::updateStageHeader);
  connect(this, &MainWindow::runDisplayed, this, &MainWindow::fitResultsSplit);
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
  m_stageHeader->setVisible(present);
  m_browser->setVisible(!present);
  m_panelScroll->setVisible(m_panelAct->isChecked());
  m_outputs->setBarVisible(!stage);
  m_outputs->setVisible(!stage || !timing);
  m_bottomTabs->setVisible((!stage || timing) && !m_liveOnStage);
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
  for (QAction* a : {m_nextArrowAct, m_prevArrowAct}) a->setEnabled(stage);
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
  startFirstRun();
}

void MainWindow::updateStageHeader() {
  const auto* e = m_courseId.isEmpty() ? nullptr : findCourseExperiment(m_courseId.toStdString());
  const Workload* w = m_backend->registry().find(m_panel->form().workload);
  QString title = w ? q(w->info().title) : QString();
  if (e) {
    const CoursePosition p = coursePosition(m_backend->registry(), e->id);
    title = QString("%1 / %2 \xE2\x80\x94 %3").arg(p.index + 1).arg(p.count).arg(q(e->title));
  }
  m_stageHeader->setTitle(title);
  QString launch, timing, counters;
  if (m_last && w && m_last->result.workload == w->info().id) {
    const RunResult& r = m_last->result;
    launch = QString("n = %1 %2, %3").arg(countText(r.n), q(r.dtype), q(launchText(r)));
    timing = headlineTiming(r);
    counters = countersLine(r);  // the lesson's counter stays on stage, where the tables are folded away
  }
  m_stageHeader->setRun(timing);
  const QString note = counters.isEmpty() || m_previewNote.isEmpty() ? counters + m_previewNote
                                                                     : counters + "  \u00B7  " + m_previewNote;
  m_stageHeader->setLesson(launch, e ? q(e->lookFor) : QString(), note);
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
