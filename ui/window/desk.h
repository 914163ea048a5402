#pragma once
/// The window's desk: every pane in its place (banners, the stage header and prompt, the workload browser, the
/// parameter panel, the outputs over or beside the bottom tabs, the stage's key line) and how they share the room:
/// side by side on a wide window, stacked otherwise, the stage's arrangement, the editor's height. Bottom tabs are
/// found by their page, never by position. The desk lays out; what runs and what is shown is the window's
/// controllers' (stage_wiring.h, results_presenter.h, live_wiring.h, run_files.h).
#include <QList>
#include <QWidget>
#include <memory>
#include <string>

#include "dialogs/export_dialog.h"

class QLabel;
class QProgressBar;
class QScrollArea;
class QSplitter;
class QTabWidget;

namespace launchlab::ui {

class Backend;
class Banner;
class HistoryPane;
class KernelEditor;
class LogView;
class OutputsPane;
class ParamPanel;
class ResultsTable;
class RooflineView;
class RunController;
class StageHeader;
class StagePoll;
class StagePrompt;
class SweepPane;
class TimingChart;
class VerificationTable;
class WorkloadBrowser;
struct ViewStyle;

/// How the desk is shown: the desk, the stage (presentation mode with the desk folded), or the stage with the
/// desk open (F4).
struct DeskLayout {
  bool presentation = false;
  bool stage = false;        ///< presentation mode with the desk folded: one plot fills the window
  bool panelShown = true;    ///< the parameter panel (F4)
  bool asking = false;       ///< the stage's question holds the plot's place until it is answered
  bool liveOnStage = false;  ///< live mode draws on the stage: no timing pane beside it
  std::string stageView;     ///< the plot on the stage: an output's name or kStageTiming
};

class Desk : public QWidget {
  Q_OBJECT
 public:
  Desk(Backend& backend, RunController& controller, const QString& exerciseFolder, QWidget* parent = nullptr);
  ~Desk() override;

  Banner* deviceBanner() const { return m_deviceBanner; }
  Banner* errorBanner() const { return m_errorBanner; }
  /// "Recorded on <GPU>, <date> — opened from F.llrun" while an opened run file is on screen; hidden otherwise.
  Banner* recordedBanner() const { return m_recordedBanner; }
  StageHeader* stageHeader() const { return m_stageHeader; }
  StagePrompt* stagePrompt() const { return m_prompt; }
  /// The class poll on the stage (A); null in a build without one.
  StagePoll* stagePoll() const { return m_poll; }
  QLabel* keyHintsLabel() const { return m_keyHints; }
  WorkloadBrowser* browser() const { return m_browser; }
  ParamPanel* paramPanel() const { return m_panel; }
  QScrollArea* panelScroll() const { return m_panelScroll; }
  QSplitter* mainSplit() const { return m_mainSplit; }
  QSplitter* resultsSplit() const { return m_resultsSplit; }
  OutputsPane* outputsPane() const { return m_outputs; }
  QTabWidget* bottomTabs() const { return m_bottomTabs; }
  TimingChart* timingChart() const { return m_timing.get(); }
  QLabel* timingNote() const { return m_timingNote; }
  SweepPane* sweepPane() const { return m_sweep; }
  RooflineView* rooflineView() const { return m_roofline; }
  VerificationTable* verificationTable() const { return m_verify; }
  ResultsTable* resultsTable() const { return m_table; }
  HistoryPane* historyPane() const { return m_history; }
  /// The "My kernel" tab (kernel_editor.h).
  KernelEditor* kernelEditor() const { return m_kernelEditor; }
  QWidget* timingPage() const { return m_timingPage; }
  /// The status bar's text and progress (the window places them).
  QLabel* statusText() const { return m_statusText; }
  QProgressBar* progress() const { return m_progress; }

  void log(const QString& line);
  void setStatus(const QString& text);
  /// Brings the bottom tab holding `page` to the front.
  void showTab(QWidget* page);
  bool tabShown(const QWidget* page) const;
  /// Brings the bottom tab whose name starts with `name` (any case) to the front; false when there is none.
  bool showTab(const QString& name);
  /// The sweep tab in front with the larger share of the results column (a heatmap or crossover needs the height).
  void showSweepLarge();

  /// The plots the export window offers, and the one in front: the output tab shown, or the sweep (curve,
  /// heatmap or crossover) or the roofline when its tab is open.
  QList<ExportDialog::Target> exportTargets(int* current) const;
  /// The previous run's timing, tables and plots go: what is on screen belongs to the form as it is now.
  void markResultsStale(const QString& what);
  /// Wide enough for the panel (no horizontal scrolling), within reason (wider in presentation mode).
  void fitPanelWidth(bool presentation);
  void setViewStyle(const ViewStyle& style);

  /// Shows and hides the panes for `l`.
  void arrange(const DeskLayout& l);
  /// A wide desk window (`window` its size, `windowMinimum` its minimum width) puts the timing chart beside the
  /// output plot; a narrower one, or presentation mode, under it. True when they were put on top of each other now
  /// (the timing chart's height is then to fit: fitResultsSplit).
  bool arrangeResults(QSize window, int windowMinimum, bool presentation);
  /// At a desk the timing chart gets the height its rows need, the output plot above all the rest
  /// (`windowHeight`: at least 42 % of it stays the plot's).
  void fitResultsSplit(int windowHeight);
  /// The desk as the student left it: the parameter panel folded or not, the splitters' sizes.
  void restore(bool panelShown, const QByteArray& mainSplit, const QByteArray& resultsSplit);
  /// Splitter sizes kept while presentation mode rearranges them, and given back when it ends.
  void keepSizes();
  void restoreKeptSizes();

 private:
  QWidget* buildResults(Backend& backend, RunController& controller, const QString& exerciseFolder);
  QWidget* buildBottomTabs(RunController& controller, Backend& backend, const QString& exerciseFolder);
  QWidget* buildTimingPage();
  QWidget* buildTablePage();
  void fitEditorHeight(int tab);

  Banner* m_deviceBanner = nullptr;
  Banner* m_errorBanner = nullptr;
  Banner* m_recordedBanner = nullptr;
  StageHeader* m_stageHeader = nullptr;
  StagePrompt* m_prompt = nullptr;
  StagePoll* m_poll = nullptr;
  QLabel* m_keyHints = nullptr;
  WorkloadBrowser* m_browser = nullptr;
  QSplitter* m_mainSplit = nullptr;
  QScrollArea* m_panelScroll = nullptr;
  ParamPanel* m_panel = nullptr;
  QSplitter* m_resultsSplit = nullptr;
  OutputsPane* m_outputs = nullptr;
  QTabWidget* m_bottomTabs = nullptr;
  std::unique_ptr<TimingChart> m_timing;
  QLabel* m_timingNote = nullptr;
  QWidget* m_timingPage = nullptr;
  SweepPane* m_sweep = nullptr;
  RooflineView* m_roofline = nullptr;
  VerificationTable* m_verify = nullptr;
  ResultsTable* m_table = nullptr;
  LogView* m_log = nullptr;
  HistoryPane* m_history = nullptr;
  KernelEditor* m_kernelEditor = nullptr;
  QLabel* m_statusText = nullptr;
  QProgressBar* m_progress = nullptr;
  QList<int> m_resultsSizesBeforeEditor, m_resultsSizesKept, m_mainSizesKept;
};

}  // namespace launchlab::ui
