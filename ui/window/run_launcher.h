#pragma once
/// Starting runs from the window: the form checked and run (my-kernel compiled first), the first run and each
/// experiment walked on the stage at a size that answers in about a second (a preview), the memory policy for kept
/// arrays, a zoomed region run again, block-size sweeps, Cancel (Esc) and the Run and Cancel actions' state.
#include <QObject>
#include <cstdint>
#include <optional>

#include "runs/controller.h"

class QAction;

namespace launchlab::ui {

class AppSettings;
class Backend;
class Desk;
class EditorWiring;
class LiveWiring;
class ResultsPresenter;
class StageWiring;
struct ImageWindow;

class RunLauncher : public QObject {
  Q_OBJECT
 public:
  struct Parts {
    Desk& desk;
    RunController& controller;
    Backend& backend;
    AppSettings& settings;
    ResultsPresenter& results;
    StageWiring& stage;
    EditorWiring& editor;
    LiveWiring& live;
  };
  /// `quickRunSeconds`: the time a preview aims at; `runAct` and `cancelAct` follow the form and the jobs.
  RunLauncher(Parts parts, double quickRunSeconds, QAction* runAct, QAction* cancelAct, QObject* parent);

  void run();
  /// Runs the form at a size that answers in about `quickRunSeconds` when the form's is larger; the stage says
  /// it is a preview.
  void startFirstRun();
  void cancel();
  /// Starts a sweep of `implId` (first CUDA variant that honours the block size when empty) without the device
  /// check the button makes; 0 when it did not start.
  quint64 startSweepOf(const QString& implId);
  /// The sweep pane's button: the implementation it shows, when the button is enabled.
  void startSweep();
  /// Runs again on the part of the image in view (region_zoom.h).
  void runRegion(const ImageWindow& view);
  /// Run follows the form's check; Cancel, the jobs and live mode.
  void updateRunEnabled();
  void onBusy(bool busy);

 private:
  /// Starts `req` (checked) on the controller; run() gets here directly, or after compiling the user's kernel.
  void startRequest(RunRequest req);

  Parts m_p;
  double m_quickRunSeconds;
  QAction* m_runAct;
  QAction* m_cancelAct;
  QString m_firstRunNote;                    ///< logged when the quick first run starts
  std::optional<std::uint64_t> m_firstRunN;  ///< the quick N of the first run; the form keeps the user's size
};

}  // namespace launchlab::ui
