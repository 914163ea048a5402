#pragma once
/// The LaunchLab window: lays out the workload browser, parameter panel, outputs pane, timing chart, sweep pane,
/// verification, results table and log, the device and error banners and the toolbar (run, cancel, export,
/// presets, presentation mode); starts runs (with the memory policy for kept arrays) and puts results on
/// screen. Everything that runs goes through the RunController; the wording lives in log_text.h.
#include <QElapsedTimer>
#include <QFont>
#include <QMainWindow>
#include <QPalette>
#include <functional>
#include <memory>
#include <optional>
#include <vector>

#include "background_read.h"
#include "controller.h"
#include "output_view.h"
#include "view_style.h"

class QAction;
class QDialog;
class QLabel;
class QProgressBar;
class QPushButton;
class QScrollArea;
class QSplitter;
class QTabWidget;
class QToolBar;

namespace launchlab::ui {

class AppSettings;
class Banner;
class ExportDialog;
class HistoryPane;
class KernelEditor;
class LiveMode;
class LiveOverlay;
class LogView;
class OutputsPane;
class ParamPanel;
class PresetMenu;
class ResultsTable;
class RooflineView;
class StageHeader;
class StageController;
class StagePoll;
class StagePrompt;
class PredictionStore;
class SweepChart;
class SweepPane;
struct Preset;
class TimingChart;
class VerificationTable;
class WorkloadBrowser;

struct MainWindowOptions {
  QString startWorkload;  ///< overrides the remembered/default workload when set
  QString startCourse;    ///< a course experiment id (launchlab/course.h) to open at start; wins over startWorkload
  bool firstRun = true;   ///< run once at start (at a size that takes under a second)
  bool forcePresentation = false;
  QString presetFolder;                       ///< default: PresetStore::defaultFolder()
  const QElapsedTimer* startClock = nullptr;  ///< process start, for "cold start to first plot"
  QString backendNote;                        ///< where the engine runs (logged at start)
  std::optional<int>
      startDevice;         ///< the CUDA device to select at start (launchlab --device N); a bad one is shown inline
  QString openRun;         ///< a run file (.llrun) to open at start instead of the first run (launchlab --open F)
  QString openSweep;       ///< a sweep file (launchlab.sweep JSON) to show in the sweep tab at start (--open-sweep F)
  QString exerciseFolder;  ///< where the kernel editor saves (default: ExerciseStore::defaultFolder())
  QString startTab;        ///< the bottom tab in front at start, by the start of its name ("roofline"; --tab)
  bool live = false;       ///< start in live mode instead of the first run (launchlab --live)
  bool noGl = false;       ///< QCustomPlot draws every plot this session, whatever the setting (launchlab --no-gl)
  /// GL views draw a local worker's GPU outputs from its device memory (CUDA IPC, device_imports.h) rather than from
  /// the host copies it returns (launchlab --device-imports). Off by default: no gain while the host copies still
  /// cross the pipe (docs/ARCHITECTURE.md, "No host round trip for display").
  bool deviceImports = false;
  /// The time the first run, and each experiment walked on the stage, aims at (a smaller N when the form's is larger).
  double quickRunSeconds = 0.6;
  /// Where the student's predictions are kept (default: PredictionStore::defaultPath()); "-": in memory only.
  QString predictionsFile;
  /// Start the class poll for the start course experiment's question at once (launchlab --ask): its URL is printed
  /// on stdout as "poll: http://ADDRESS:PORT/CODE"; the run waits for R.
  bool ask = false;
  QString askBind;  ///< the address the class poll listens on ("": the room's network)
};

class DevicePicker;

class MainWindow : public QMainWindow {
  Q_OBJECT
 public:
  MainWindow(std::shared_ptr<Backend> backend, std::unique_ptr<AppSettings> settings, MainWindowOptions options = {});
  ~MainWindow() override;

  /// The workload picked for a new user: pulse_waveform when present, else vector_add, else the first.
  static QString defaultWorkload(const Registry& r);

  // Used by tests, --screenshot and --measure-stalls.
  RunController& controller() { return *m_controller; }
  ParamPanel* paramPanel() const { return m_panel; }
  WorkloadBrowser* browser() const { return m_browser; }
  Banner* deviceBanner() const { return m_deviceBanner; }
  DevicePicker* devicePicker() const { return m_devicePicker; }
  Banner* errorBanner() const { return m_errorBanner; }
  /// "Recorded on <GPU>, <date> — opened from F.llrun" while an opened run file is on screen; hidden otherwise.
  Banner* recordedBanner() const { return m_recordedBanner; }
  QAction* saveRunAction() const { return m_saveRunAct; }
  QAction* openRunAction() const { return m_openRunAct; }
  /// "GPU serverâ¦": where the runs go (this machine or a GPU server over SSH); opens a RemoteDialog.
  QAction* remoteAction() const { return m_remoteAct; }
  /// The open "GPU server" dialog, else null.
  QDialog* remoteDialog() const { return m_remoteDialog; }
  QAction* runAction() const { return m_runAct; }
  QAction* cancelAction() const { return m_cancelAct; }
  QAction* presentationAction() const { return m_presentAct; }
  /// "Live": runs the selected implementation again and again, a new seed per frame (main_window_live.cpp).
  QAction* liveAction() const { return m_liveAct; }
  LiveMode* liveMode() const { return m_live; }
  /// The box over the plots while live mode runs (fps, kernel time, drawing path).
  LiveOverlay* liveOverlay() const { return m_liveOverlay; }
  /// "OpenGL plots": the setting Draw plots with OpenGL (gl_views.h); disabled under --no-gl.
  QAction* glAction() const { return m_glAct; }
  QAction* panelAction() const { return m_panelAct; }
  AppSettings& appSettings() const { return *m_settings; }
  QPushButton* sweepButton() const;
  int outputViewCount() const;
  OutputView* outputView(int i) const;
  OutputsPane* outputsPane() const { return m_outputs; }
  TimingChart* timingChart() const { return m_timing.get(); }
  ResultsTable* resultsTable() const { return m_table; }
  SweepChart* sweepChart() const;
  SweepPane* sweepPane() const { return m_sweep; }
  HistoryPane* historyPane() const { return m_history; }
  /// The "My kernel" tab (kernel_editor.h).
  KernelEditor* kernelEditor() const { return m_kernelEditor; }
  /// Brings the "My kernel" tab to the front, with room for the editor.
  void showKernelEditor();
  RooflineView* rooflineView() const { return m_roofline; }
  /// Brings the bottom tab whose name starts with `name` (any case) to the front; false when there is none.
  bool showBottomTab(const QString& name);
  ExportDialog* exportDialog();
  std::shared_ptr<const RunOutcome> lastOutcome() const { return m_last; }
  /// Milliseconds from process start to the first plot on screen (-1 until then).
  qint64 firstPlotMs() const { return m_firstPlotMs; }
  /// GUI-thread milliseconds the last result took to put on screen (views, charts, tables).
  qint64 lastDisplayMs() const { return m_lastDisplayMs; }
  bool presentationMode() const { return m_style.presentation; }
  /// Presentation mode with the desk folded: one plot, the stage, fills the window under the stage header.
  bool onStage() const;
  /// The plot on the stage (presentation mode), or the one that would be: an output view's plot or the timing chart.
  QWidget* stageWidget() const;
  /// The stage's plot by name: an output array's, "input:NAME", or "timing" (stage.h).
  std::string stageView() const { return m_stageView; }
  StageHeader* stageHeader() const { return m_stageHeader; }
  /// The stage's state: the question, its answer, the reveal (presentation mode and the course at the desk).
  StageController* stageController() const { return m_stage; }
  StagePrompt* stagePrompt() const { return m_prompt; }
  QLabel* keyHintsLabel() const { return m_keyHints; }
  PredictionStore& predictions() const { return *m_predictions; }
  /// "My predictions": the summary, with a CSV export.
  void showMyPredictions();
  /// The course experiment on screen ("" when a workload was picked by hand).
  QString currentCourseExperiment() const;
  /// Page Down / Page Up in presentation mode: load and run the next or previous course experiment.
  QAction* nextExperimentAction() const { return m_nextAct; }
  QAction* previousExperimentAction() const { return m_prevAct; }
  /// F6 in presentation mode: the next plot on the stage.
  QAction* stageViewAction() const { return m_stageAct; }
  /// Ctrl+Shift+C: the stage's plot to the clipboard as an image in the presentation style, with the caption.
  QAction* copyStageAction() const { return m_copyStageAct; }
  void selectWorkload(const QString& id);
  /// Starts a sweep of `implId` (first CUDA variant that honours the block size when empty) without the
  /// device check the button makes (--measure-stalls on machines without a GPU).
  quint64 startSweepOf(const QString& implId);

 public slots:
  void run();
  /// Runs the form at a size that answers in about MainWindowOptions::quickRunSeconds when the form's is larger (the
  /// first run, each experiment walked on the stage); the stage says it is a preview.
  void startFirstRun();
  void whenDeviceKnown(std::function<void()> then);
  void addCountersAction(QToolBar* tb);
  void startFirstAction(bool waitedForDevice);
  void cancel();
  void startSweep();
  void openExport();
  void setPresentationMode(bool on);
  void toggleFullScreen();
  /// Selects the preset's workload, fills the form, and marks what is on screen as the earlier run's.
  void applyPreset(const Preset& p);
  /// Loads course experiment `id`'s form (coursePreset: built-in or --course-dir) and shows it in the browser's
  /// Course tab; false (error banner) when the course has no such id or its workload is not in this build.
  bool openCourseExperiment(const QString& id);
  /// Shows the run saved in `path` (main_window_runfile.cpp) like a live one, labelled with where it was measured,
  /// and fills the form with its request; false (error banner, what is on screen kept) for a bad file.
  bool openRunFile(const QString& path);
  /// Reads the run file off the GUI thread, then shows it (or why not); `then` learns which.
  void openRunFileInBackground(const QString& path, std::function<void(bool)> then = {});
  /// Reads the sweep saved in `path` (launchlab.sweep JSON) off the GUI thread and shows it in the sweep tab,
  /// labelled as recorded, or one inline message on the tab for a bad file.
  void openSweepFile(const QString& path);
  /// Saves the result on screen, with its kept arrays, as a run file; false (error banner) when it cannot.
  bool saveRunFile(const QString& path);
  void openRunDialog();
  /// Copies the stage's plot (copyStageAction); false, with the reason in the error banner, when it cannot.
  bool copyStagePlot();
  void saveRunDialog();

 signals:
  /// A run's result is on screen (views, charts, tables updated).
  void runDisplayed(quint64 id);
  void sweepDone(quint64 id, bool cancelled);
  /// The first plot was drawn (cold start measured).
  void firstPlotShown(qint64 ms);

 protected:
  void closeEvent(QCloseEvent* e) override;
  void resizeEvent(QResizeEvent* e) override;

 private:
  void buildUi();
  QWidget* buildBottomTabs();
  QWidget* buildTimingPage();
  QWidget* buildTablePage();
  void buildActions();
  void addPresetButton(QToolBar* tb);
  /// The Live toggle and its wiring (main_window_live.cpp).
  void addLiveAction(QToolBar* tb);
  /// The OpenGL plots toggle (the setting; main_window_live.cpp); turns GL views on or off.
  void addGlAction(QToolBar* tb);
  /// Device import on while the GL views draw through interop and runs go to a local worker (device_imports.h).
  void updateDeviceImport();
  /// The next live frame's request: the form as it is, with the implementation live mode runs; nullopt and `why`.
  std::optional<RunRequest> liveRequest(QString& why) const;
  void showLiveFrame(std::shared_ptr<const RunOutcome> outcome);
  void connectController();
  void selectStartWorkload();
  void showDeviceStatus();
  /// The roofline's ceilings: asked of the device (measured once per device) when the Roofline tab is first shown,
  /// a datasheet's without a GPU (main_window_roofline.cpp).
  void updateCeilings(bool ask);
  void connectRoofline();
  void showRooflineRun(const RunResult& r);
  void addDevicePicker(QToolBar* tb);
  void addRunFileActions(QToolBar* tb);
  void openRemoteDialog();
  /// Runs again on the part of the image in view (region_zoom.h).
  void runRegion(const ImageWindow& view);
  void startWithRunFile();
  bool showRunFile(const QString& path, std::shared_ptr<RunOutcome> outcome, const QString& why);
  /// The views, charts, tables and export window show `outcome`; the previous one is freed off the GUI thread.
  void showOutcome(std::shared_ptr<const RunOutcome> outcome);
  static void prepareOutcome(RunOutcome& o, const Registry& registry);
  void display(quint64 id, std::shared_ptr<const RunOutcome> outcome);
  void showRunProblems(const RunResult& r);
  void logRun(quint64 id, const RunOutcome& o, qint64 shownMs);
  void measureFirstPlot();
  void updateRunEnabled();
  void fitPanelWidth();
  void markResultsStale(const QString& what);
  void updateSweepControls();
  void onBusy(bool busy);
  void arrangeForPresentation(bool on);
  // The stage (main_window_stage.cpp).
  void buildStageActions();
  void buildStageKeys();
  /// The stage controller asks for the run (the question answered or skipped, or R).
  void runForStage();
  /// On the stage the headline states the lesson's count: the amber lesson banner folds away (back at the desk).
  void foldLessonBanner();
  void layoutStage();
  void togglePanel(bool on);
  void chooseStageView(const Workload& w);
  void nextStageView();
  void stepCourse(int step);
  void updateStageHeader();
  /// Live mode takes the stage: the live plot, no timing pane beside it (blank while frames run).
  void stageForLive(bool on);
  void fitResultsSplit();
  /// The desk as the student left it (settings): the parameter panel folded or not, the splitters' sizes.
  void restoreDesk();
  /// A wide desk window puts the timing chart beside the output plot (they share the width); a narrower one, or
  /// presentation mode, under it.
  void arrangeResults();

  /// Starts `req` (checked) on the controller; run() gets here directly, or after compiling the user's kernel.
  void startRequest(RunRequest req);
  /// Runs of my-kernel: compiles the editor's file, then starts `req` with it (main_window_editor.cpp).
  void compileThenRun(RunRequest req);
  QWidget* buildKernelEditor();
  void log(const QString& line);

  std::shared_ptr<Backend> m_backend;
  std::unique_ptr<AppSettings> m_settings;
  MainWindowOptions m_options;
  RunController* m_controller = nullptr;
  ViewStyle m_style;
  QFont m_baseFont;
  QPalette m_basePalette;
  Qt::WindowStates m_statesBeforePresentation;

  WorkloadBrowser* m_browser = nullptr;
  QSplitter* m_mainSplit = nullptr;
  QScrollArea* m_panelScroll = nullptr;
  QSplitter* m_resultsSplit = nullptr;
  QLabel* m_timingNote = nullptr;
  bool m_deviceBannerBeforePresentation = false;
  QList<int> m_resultsSizesBeforePresentation, m_mainSizesBeforePresentation;
  ParamPanel* m_panel = nullptr;
  Banner* m_deviceBanner = nullptr;
  Banner* m_errorBanner = nullptr;
  Banner* m_recordedBanner = nullptr;
  DevicePicker* m_devicePicker = nullptr;
  OutputsPane* m_outputs = nullptr;
  QTabWidget* m_bottomTabs = nullptr;
  std::unique_ptr<TimingChart> m_timing;
  SweepPane* m_sweep = nullptr;
  HistoryPane* m_history = nullptr;
  KernelEditor* m_kernelEditor = nullptr;
  QList<int> m_resultsSizesBeforeEditor;
  RooflineView* m_roofline = nullptr;
  bool m_ceilingsAsked = false;
  VerificationTable* m_verify = nullptr;
  ResultsTable* m_table = nullptr;
  LogView* m_log = nullptr;
  QProgressBar* m_progress = nullptr;
  QLabel* m_statusText = nullptr;
  PresetMenu* m_presets = nullptr;
  ExportDialog* m_export = nullptr;

  QAction* m_runAct = nullptr;
  QAction* m_cancelAct = nullptr;
  QAction* m_exportAct = nullptr;
  QAction* m_saveRunAct = nullptr;
  QAction* m_openRunAct = nullptr;
  QAction* m_remoteAct = nullptr;
  QDialog* m_remoteDialog = nullptr;
  QAction* m_panelAct = nullptr;
  QAction* m_presentAct = nullptr;
  QAction* m_fullAct = nullptr;
  QAction* m_liveAct = nullptr;
  QAction* m_glAct = nullptr;
  LiveMode* m_live = nullptr;
  LiveOverlay* m_liveOverlay = nullptr;

  std::shared_ptr<const RunOutcome> m_last;
  QElapsedTimer m_jobClock;
  qint64 m_firstPlotMs = -1;
  qint64 m_lastDisplayMs = 0;
  bool m_waitingFirstPlot = false;
  QString m_firstRunNote;
  std::optional<std::uint64_t> m_firstRunN;
  StageHeader* m_stageHeader = nullptr;
  StagePrompt* m_prompt = nullptr;
  QLabel* m_keyHints = nullptr;
  StageController* m_stage = nullptr;
  StagePoll* m_poll = nullptr;  // the class poll on the stage (A); null in a build without one
  std::unique_ptr<PredictionStore> m_predictions;
  /// The stage's keys: P predict, R run, L look for, Esc skip the question.
  QAction *m_predictAct = nullptr, *m_stageRunAct = nullptr, *m_lookForAct = nullptr, *m_skipAct = nullptr;
  QAction* m_myPredictionsAct = nullptr;
  bool m_lessonFolded = false;  ///< the amber lesson banner, hidden on the stage where the headline carries it
  std::string m_stageView;
  QString m_courseId;
  bool m_liveOnStage = false;
  QString m_previewNote;  ///< "preview at N = … of the experiment's …" while the shown run is a quick one
  QAction* m_nextAct = nullptr;
  QAction* m_prevAct = nullptr;
  QAction* m_nextArrowAct = nullptr;
  QAction* m_prevArrowAct = nullptr;
  QAction* m_stageAct = nullptr;
  QAction* m_copyStageAct = nullptr;  ///< the quick N of the first run; the form keeps the user's size
  QAction* m_countersAct = nullptr;   ///< the Counters toggle (the panel's "Counters" box)
  BackgroundRead m_runFileRead;       ///< last: destroyed first, waiting for a run file being read
};

}  // namespace launchlab::ui
