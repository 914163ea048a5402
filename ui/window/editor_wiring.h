#pragma once
/// The window's "My kernel" tab (kernel_editor.h): the editor's kernel handed to the parameter panel, its compiles
/// and checks in the log, and runs of my-kernel compiled first.
#include <QObject>
#include <functional>

#include "runs/controller.h"

namespace launchlab::ui {

class Desk;

class EditorWiring : public QObject {
  Q_OBJECT
 public:
  EditorWiring(Desk& desk, QObject* parent);

  /// Brings the "My kernel" tab to the front, with room for the editor.
  void show();
  /// Runs of my-kernel: compiles the editor's file (off the GUI thread), then hands `req` with it to `start`; a
  /// file that does not compile stops the run at its diagnostics.
  void compileThenRun(RunRequest req, std::function<void(RunRequest)> start);

 private:
  Desk& m_desk;
};

}  // namespace launchlab::ui
