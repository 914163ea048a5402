#pragma once
/// What the command line asks of the window (app/launchlab_gui.cpp): the start, the files, the modes.
#include <QElapsedTimer>
#include <QString>
#include <optional>

namespace launchlab::ui {

struct MainWindowOptions {
  QString startWorkload;  ///< overrides the remembered/default workload when set
  QString
      startCourse;  ///< a course experiment id (launchlab/course/course.h) to open at start; wins over startWorkload
  bool firstRun = true;  ///< run once at start (at a size that takes under a second)
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
  /// cross the pipe (docs/evidence/architecture-history.md, "Device imports").
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

}  // namespace launchlab::ui
