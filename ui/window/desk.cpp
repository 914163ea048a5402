#include "window/desk.h"

#include <QCheckBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QScrollArea>
#include <QScrollBar>
#include <QSplitter>
#include <QTabBar>
#include <QTabWidget>
#include <QVBoxLayout>
#include <algorithm>
#include <utility>

#include "editor/kernel_editor.h"
#include "explorer/crossover_view.h"
#include "explorer/roofline_view.h"
#include "models/backend.h"
#include "plots/charts.h"
#include "plots/outputs_pane.h"
#include "plots/results_tables.h"
#include "plots/sweep_chart.h"
#include "runs/controller.h"
#include "runs/history_pane.h"
#include "window/banner.h"
#include "window/param_panel.h"
#include "window/stage.h"
#include "window/stage_prompt.h"
#if LAUNCHLAB_HAVE_POLL
#include "window/stage_poll.h"
#endif
#include "explorer/sweep_heatmap.h"
#include "explorer/sweep_pane.h"
#include "plots/view_style.h"
#include "window/workload_browser.h"

namespace launchlab::ui {

namespace {
/// Each column's minimum width with the results side by side (Desk::arrangeResults).
constexpr int kSideBySideColumnFloor = 300;
}  // namespace

Desk::Desk(Backend& backend, RunController& controller, const QString& exerciseFolder, QWidget* parent)
    : QWidget(parent) {
  auto* lay = new QVBoxLayout(this);
  lay->setContentsMargins(6, 4, 6, 4);
  lay->setSpacing(4);
  m_deviceBanner = new Banner(this);
  m_errorBanner = new Banner(this);
  m_recordedBanner = new Banner(this, false);
  lay->addWidget(m_deviceBanner);
  lay->addWidget(m_recordedBanner);
  // Errors take their own line: a banner over the form, the tabs or a plot's title would hide what it is about.
  lay->addWidget(m_errorBanner);
  m_stageHeader = new StageHeader(this);
  m_stageHeader->setVisible(false);  // presentation mode's
  lay->addWidget(m_stageHeader);
  m_prompt = new StagePrompt(this);  // the course's question: at the desk and on the stage
  lay->addWidget(m_prompt);
#if LAUNCHLAB_HAVE_POLL
  m_poll = new StagePoll(this);  // A on the stage: the class answers the question too
  lay->addWidget(m_poll);
#endif
  lay->addWidget(buildResults(backend, controller, exerciseFolder), 1);
  m_keyHints = new QLabel(stageKeyHints(false), this);  // the stage's toolbar: its keys, one slim line
  m_keyHints->setObjectName("stageKeyHints");
  m_keyHints->setVisible(false);
  lay->addWidget(m_keyHints);

  m_progress = new QProgressBar;
  m_progress->setRange(0, 1000);
  m_progress->setMaximumWidth(260);
  m_progress->setTextVisible(false);
  m_progress->setVisible(false);
  m_statusText = new QLabel("Ready");
}

Desk::~Desk() = default;

/// The browser, the panel and the results column, side by side.
QWidget* Desk::buildResults(Backend& backend, RunController& controller, const QString& exerciseFolder) {
  auto* split = m_mainSplit = new QSplitter(Qt::Horizontal, this);
  split->setObjectName("mainSplit");
  m_browser = new WorkloadBrowser(backend.registry(), split);
  m_browser->setMinimumWidth(220);
  auto* scroll = m_panelScroll = new QScrollArea(split);
  scroll->setWidgetResizable(true);
  scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);  // the panel fits its width
  m_panel = new ParamPanel(backend, scroll);
  scroll->setWidget(m_panel);
  scroll->setMinimumWidth(340);
  auto* results = m_resultsSplit = new QSplitter(Qt::Vertical, split);
  m_outputs = new OutputsPane;
  results->addWidget(m_outputs);
  results->addWidget(buildBottomTabs(controller, backend, exerciseFolder));
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
  return split;
}

QWidget* Desk::buildBottomTabs(RunController& controller, Backend& backend, const QString& exerciseFolder) {
  m_bottomTabs = new QTabWidget;
  m_bottomTabs->setDocumentMode(true);
  m_bottomTabs->addTab(m_timingPage = buildTimingPage(), "Timing");
  m_sweep = new SweepPane(controller);
  connect(m_sweep, &SweepPane::logLine, this, &Desk::log);
  m_bottomTabs->addTab(m_sweep, "Block-size sweep");
  m_roofline = new RooflineView;
  m_bottomTabs->addTab(m_roofline, "Roofline");
  m_verify = new VerificationTable;
  m_bottomTabs->addTab(m_verify, "Verification");
  m_bottomTabs->addTab(buildTablePage(), "Results table");
  m_log = new LogView;
  m_bottomTabs->addTab(m_log, "Log");
  m_history = new HistoryPane(controller);
  connect(m_history, &HistoryPane::logLine, this, &Desk::log);
  m_bottomTabs->addTab(m_history, "History");
  m_kernelEditor = new KernelEditor(backend, nullptr, exerciseFolder);
  m_bottomTabs->addTab(m_kernelEditor, "My kernel");
  // A tab widget asks for the tallest page's minimum (the sweep's controls, the editor): the outputs above would
  // shrink for pages not even shown. Only the timing page keeps its own (its rows never overlap); the others
  // squeeze, and the splitter gives them room when wanted.
  for (int i = 0; i < m_bottomTabs->count(); ++i)
    if (m_bottomTabs->widget(i) != m_timingPage) m_bottomTabs->widget(i)->setMinimumHeight(50);
  connect(m_bottomTabs, &QTabWidget::currentChanged, this, &Desk::fitEditorHeight);
  return m_bottomTabs;
}

QWidget* Desk::buildTimingPage() {
  auto* page = new QWidget;
  auto* tl = new QVBoxLayout(page);
  tl->setContentsMargins(0, 2, 0, 0);
  m_timing = std::make_unique<TimingChart>(page);
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
  timingScroll->setMinimumHeight(40);  // a row's height: below a banner and the reveal the plot above keeps its share
  tl->addWidget(timingScroll, 1);
  return page;
}

QWidget* Desk::buildTablePage() {
  auto* page = new QWidget;
  auto* rl = new QVBoxLayout(page);
  rl->setContentsMargins(0, 2, 0, 0);
  m_table = new ResultsTable;
  auto* copy = new QPushButton("Copy table");
  copy->setToolTip("Copies the table as tab-separated text (only the selected cells when you selected some)");
  connect(copy, &QPushButton::clicked, this, [this] {
    m_table->copyToClipboard();
    setStatus("Results table copied");
  });
  auto* crow = new QHBoxLayout;
  crow->addStretch();
  crow->addWidget(copy);
  rl->addLayout(crow);
  rl->addWidget(m_table, 1);
  return page;
}

/// The editor wants height: while its tab is in front the bottom part of the results takes most of it.
void Desk::fitEditorHeight(int tab) {
  const bool editor = m_bottomTabs->widget(tab) == m_kernelEditor;
  if (editor && m_resultsSizesBeforeEditor.isEmpty()) {
    m_resultsSizesBeforeEditor = m_resultsSplit->sizes();
    const int h = std::max(300, m_resultsSplit->height());
    m_resultsSplit->setSizes({h * 28 / 100, h * 72 / 100});
  } else if (!editor && !m_resultsSizesBeforeEditor.isEmpty()) {
    m_resultsSplit->setSizes(std::exchange(m_resultsSizesBeforeEditor, {}));
  }
}

void Desk::log(const QString& line) { m_log->append(line); }

void Desk::setStatus(const QString& text) { m_statusText->setText(text); }

void Desk::showTab(QWidget* page) { m_bottomTabs->setCurrentWidget(page); }

bool Desk::tabShown(const QWidget* page) const { return m_bottomTabs->currentWidget() == page; }

bool Desk::showTab(const QString& name) {
  for (int i = 0; i < m_bottomTabs->count(); ++i)
    if (m_bottomTabs->tabText(i).startsWith(name, Qt::CaseInsensitive)) {
      m_bottomTabs->setCurrentIndex(i);
      return true;
    }
  return false;
}

void Desk::showSweepLarge() {
  showTab(m_sweep);
  const QList<int> sizes = m_resultsSplit->sizes();
  if (sizes.size() == 2 && sizes[1] < sizes[0])
    m_resultsSplit->setSizes({(sizes[0] + sizes[1]) * 2 / 5, (sizes[0] + sizes[1]) * 3 / 5});
}

QList<ExportDialog::Target> Desk::exportTargets(int* current) const {
  QList<ExportDialog::Target> targets;
  for (int i = 0; i < m_outputs->viewCount(); ++i) targets.push_back({m_outputs->tabText(i), m_outputs->view(i)});
  targets.push_back({"Timing comparison", m_timing.get()});
  targets.push_back({"Block-size sweep", m_sweep->chart()});
  targets.push_back({"Sweep heatmap", m_sweep->heatmap()});
  targets.push_back({"Roofline", m_roofline});
  targets.push_back({"CPU/GPU crossover", m_sweep->crossover()});
  const Renderable* front = nullptr;
  if (tabShown(m_sweep))
    front = m_sweep->crossoverShown() ? static_cast<const Renderable*>(m_sweep->crossover())
            : m_sweep->heatmapShown() ? static_cast<const Renderable*>(m_sweep->heatmap())
                                      : static_cast<const Renderable*>(m_sweep->chart());
  else if (tabShown(m_roofline))
    front = m_roofline;
  *current = std::max(0, m_outputs->currentIndex());
  for (int i = 0; i < targets.size(); ++i)
    if (front && targets[i].plot == front) *current = i;
  return targets;
}

void Desk::markResultsStale(const QString& what) {
  m_timing->markStale("Timing: " + what);
  m_outputs->markStale(what.left(1).toUpper() + what.mid(1));
  m_table->setRowCount(0);
  m_verify->setRowCount(0);
}

void Desk::fitPanelWidth(bool presentation) {
  const int want = m_panel->minimumSizeHint().width() + m_panelScroll->verticalScrollBar()->sizeHint().width() +
                   2 * m_panelScroll->frameWidth() + 4;
  m_panelScroll->setMinimumWidth(std::clamp(want, 300, presentation ? 640 : 440));
}

void Desk::setViewStyle(const ViewStyle& style) {
  m_outputs->setViewStyle(style);
  m_timing->setViewStyle(style);
  m_sweep->setViewStyle(style);
  m_roofline->setViewStyle(style);
}

void Desk::arrange(const DeskLayout& l) {
  const bool timing = l.stageView == kStageTiming;
  m_stageHeader->setVisible(l.presentation);
  m_browser->setVisible(!l.presentation);
  m_panelScroll->setVisible(l.panelShown);
  m_outputs->setBarVisible(!l.stage);
  m_outputs->setVisible((!l.stage || !timing) && !l.asking);
  m_bottomTabs->setVisible((!l.stage || timing) && !l.liveOnStage && !l.asking);
  m_bottomTabs->tabBar()->setVisible(!l.stage);
  if (l.stage && timing) showTab(m_timingPage);
  if (l.stage && !timing) m_outputs->setCurrentIndex(m_outputs->indexOfView(l.stageView));
  if (l.stage) m_mainSplit->setSizes({0, 0, std::max(1000, m_mainSplit->width())});
  if (l.presentation && !l.stage) {
    const int h = std::max(400, m_resultsSplit->height());
    m_resultsSplit->setSizes({h * 60 / 100, h * 40 / 100});
    const int w = std::max(1000, m_mainSplit->width());
    const int panel = std::max(m_panelScroll->minimumWidth(), w * 31 / 100);
    m_mainSplit->setSizes({0, panel, w - panel});
  }
}

bool Desk::arrangeResults(QSize window, int windowMinimum, bool presentation) {
  // Wide and at a desk: a 1920 x 1080 window has room for both side by side at full height. Side by side, the window
  // is at least as wide as both minimums together: "wide" starts above that, so a window that narrows always gets
  // back under the threshold (and the plots back on top of each other).
  const int results = m_resultsSplit->minimumSizeHint().width();
  const int sideBySide = windowMinimum - results + m_outputs->minimumSizeHint().width() +
                         m_bottomTabs->minimumSizeHint().width() + m_resultsSplit->handleWidth();
  const bool wide = !presentation && window.width() >= std::max(1600, sideBySide + 100) &&
                    window.width() * 10 >= window.height() * 16;
  const Qt::Orientation want = wide ? Qt::Horizontal : Qt::Vertical;
  // Side by side, the two columns' minimums would add up to the window's, and grow when a wider view opens (the
  // coalescing lesson's two sector maps): the window could then never narrow back under the threshold. So there
  // each column's minimum is a fixed floor (the room a 1920-pixel window gives it is far more).
  const int floor = wide ? kSideBySideColumnFloor : 0;
  m_outputs->setMinimumWidth(floor);
  m_bottomTabs->setMinimumWidth(floor);
  if (m_resultsSplit->orientation() == want) return false;
  m_resultsSplit->setOrientation(want);
  const int total = wide ? m_resultsSplit->width() : m_resultsSplit->height();
  m_resultsSplit->setSizes({total * 62 / 100, total - total * 62 / 100});
  return !wide;
}

/// The timing chart asks for at most a third of the window (more rows scroll); the picture keeps its room and the
/// chart is never cut.
void Desk::fitResultsSplit(int windowHeight) {
  if (!m_bottomTabs->isVisible()) return;
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
  const int room = total - windowHeight * 42 / 100 - outputsChrome;
  // Where rows above the results (a banner, the question, the reveal) leave little, the bottom tabs shrink to their
  // tab bar and a row or two, and scroll.
  const int want = std::max(80, std::min({m_timing->widget()->minimumHeight() + chrome, total / 2, room}));
  if (tabShown(m_timingPage) && sizes[1] != want) m_resultsSplit->setSizes({total - want, want});
}

void Desk::restore(bool panelShown, const QByteArray& mainSplit, const QByteArray& resultsSplit) {
  m_mainSplit->restoreState(mainSplit);
  m_resultsSplit->restoreState(resultsSplit);
  m_panelScroll->setVisible(panelShown);
}

void Desk::keepSizes() {
  m_resultsSizesKept = m_resultsSplit->sizes();
  m_mainSizesKept = m_mainSplit->sizes();
}

void Desk::restoreKeptSizes() {
  if (m_resultsSizesKept.isEmpty()) return;
  m_resultsSplit->setSizes(m_resultsSizesKept);
  m_mainSplit->setSizes(m_mainSizesKept);
}

}  // namespace launchlab::ui
