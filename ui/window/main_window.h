#pragma once
/// The LaunchLab window: a shell over its parts. The Desk lays the panes out; StageWiring is presentation mode and
/// the course's stage; RunLauncher starts runs and sweeps; ResultsPresenter puts results on screen; LiveWiring is live
/// mode and the OpenGL toggle; RunFiles opens and saves run and sweep files; DeviceControls is where the runs go;
/// RooflineWiring and EditorWiring serve their tabs. The window itself opens workloads, presets and course experiments,
/// and sequences the start. Everything that runs goes through the RunController; the wording lives in log_text.h.
#include <QMainWindow>
#include <functional>
#include <memory>

#include "runs/controller.h"
#include "window/desk.h"
#include "window/device_controls.h"
#include "window/editor_wiring.h"
#include "window/live_wiring.h"
#include "window/main_actions.h"
#include "window/results_presenter.h"
#include "window/roofline_wiring.h"
#include "window/run_files.h"
#include "window/run_launcher.h"
#include "window/stage_wiring.h"
#include "window/window_options.h"

namespace launchlab::ui {

class AppSettings;
class PresetMenu;
struct Preset;

class MainWindow : public QMainWindow {
  Q_OBJECT
 public:
  MainWindow(std::shared_ptr<Backend> backend, std::unique_ptr<AppSettings> settings, MainWindowOptions options = {});
  ~MainWindow() override;

  /// The workload picked for a new user: pulse_waveform when present, else vector_add, else the first.
  static QString defaultWorkload(const Registry& r);

  // The window's parts (tests, --screenshot, --measure-stalls).
  RunController& controller() { return *m_controller; }
  Desk& desk() const { return *m_desk; }
  StageWiring& stage() const { return *m_stage; }
  ResultsPresenter& results() const { return *m_results; }
  LiveWiring& live() const { return *m_live; }
  RunFiles& runFiles() const { return *m_runFiles; }
  DeviceControls& devices() const { return *m_devices; }
  EditorWiring& editor() const { return *m_editor; }
  AppSettings& appSettings() const { return *m_settings; }
  QAction* runAction() const { return m_actions.run; }
  QAction* cancelAction() const { return m_actions.cancel; }
  QAction* presentationAction() const { return m_actions.present; }
  QAction* panelAction() const { return m_actions.panel; }
  /// The course experiment on screen ("" when a workload was picked by hand).
  QString currentCourseExperiment() const { return QString::fromStdString(m_stage->course().id()); }
  void selectWorkload(const QString& id);

 public slots:
  void run() { m_launcher->run(); }
  /// The form at a size that answers in about MainWindowOptions::quickRunSeconds (RunLauncher::startFirstRun).
  void startFirstRun() { m_launcher->startFirstRun(); }
  void cancel() { m_launcher->cancel(); }
  void startSweep() { m_launcher->startSweep(); }
  /// A sweep without the button's device check (--measure-stalls on machines without a GPU).
  quint64 startSweepOf(const QString& implId) { return m_launcher->startSweepOf(implId); }
  /// Selects the preset's workload, fills the form, and marks what is on screen as the earlier run's.
  void applyPreset(const Preset& p);
  /// Loads course experiment `id`'s form (built-in or --course-dir) and shows it in the browser's Course tab; false
  /// (error banner) when the course has no such id or its workload is not in this build.
  bool openCourseExperiment(const QString& id);

 signals:
  /// A run's result is on screen (views, charts, tables updated).
  void runDisplayed(quint64 id);
  /// The first plot was drawn (cold start measured).
  void firstPlotShown(qint64 ms);

 protected:
  void closeEvent(QCloseEvent* e) override;
  void resizeEvent(QResizeEvent* e) override;

 private:
  void buildParts();
  void buildToolbar();
  void connectParts();
  void connectController();
  void selectStartWorkload();
  /// Runs `then` once the backend knows its device (at once, or when a worker asked off the GUI thread answers).
  void whenDeviceKnown(std::function<void()> then);
  /// What the command line asked the window to do first: open a run file, go live, or run the form.
  void startFirstAction(bool waitedForDevice);

  std::shared_ptr<Backend> m_backend;
  std::unique_ptr<AppSettings> m_settings;
  MainWindowOptions m_options;
  RunController* m_controller = nullptr;
  Desk* m_desk = nullptr;
  ResultsPresenter* m_results = nullptr;
  StageWiring* m_stage = nullptr;
  LiveWiring* m_live = nullptr;
  RunFiles* m_runFiles = nullptr;
  DeviceControls* m_devices = nullptr;
  RooflineWiring* m_roofline = nullptr;
  EditorWiring* m_editor = nullptr;
  RunLauncher* m_launcher = nullptr;
  PresetMenu* m_presets = nullptr;
  MainActions m_actions;
};

}  // namespace launchlab::ui
