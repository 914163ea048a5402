#pragma once
/// Run and sweep files in the window: Open run and Save run (Ctrl+O, Ctrl+S; launchlab/files/run_file.h, shared with
/// launchlab-cli's --save-run and show), a run file read off the GUI thread and shown like a live run, labelled with
/// where it was measured, its request back in the form; and a sweep file shown in the sweep tab.
#include <QObject>
#include <functional>
#include <memory>

#include "runs/background_read.h"
#include "runs/controller.h"

class QAction;
class QToolBar;
class QWidget;

namespace launchlab::ui {

class AppSettings;
class Desk;
class ResultsPresenter;

class RunFiles : public QObject {
  Q_OBJECT
 public:
  /// `selectWorkload` brings a workload's form to the panel before a run file's request fills it.
  RunFiles(Desk& desk, ResultsPresenter& results, const Registry& registry, AppSettings& settings,
           std::function<void(const QString&)> selectWorkload, QWidget* window);

  /// Open run… and Save run… on `tb`.
  void addActions(QToolBar* tb);
  QAction* openAction() const { return m_openAct; }
  QAction* saveAction() const { return m_saveAct; }

  /// Shows the run saved in `path` like a live one and fills the form with its request; false (error banner, what
  /// is on screen kept) for a bad file.
  bool open(const QString& path);
  /// Reads the run file off the GUI thread, then shows it (or why not); `then` learns which.
  void openInBackground(const QString& path, std::function<void(bool)> then = {});
  /// Saves the result on screen, with its kept arrays, as a run file; false (error banner) when it cannot.
  bool save(const QString& path);
  /// Reads the sweep saved in `path` (launchlab.sweep JSON) off the GUI thread and shows it in the sweep tab,
  /// labelled as recorded, or one inline message on the tab for a bad file.
  void openSweep(const QString& path);

  void openDialog();
  void saveDialog();

 private:
  bool show(const QString& path, std::shared_ptr<RunOutcome> outcome, const QString& why);

  Desk& m_desk;
  ResultsPresenter& m_results;
  const Registry& m_registry;
  AppSettings& m_settings;
  std::function<void(const QString&)> m_selectWorkload;
  QWidget* m_window;
  QAction* m_openAct = nullptr;
  QAction* m_saveAct = nullptr;
  BackgroundRead m_read;  ///< last: destroyed first, waiting for a run file being read
};

}  // namespace launchlab::ui
