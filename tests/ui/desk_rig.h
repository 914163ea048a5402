#pragma once
// The window's parts without MainWindow: the real engine (h200Backend), fresh settings, a controller and a Desk in a
// bare main window of 1280x720. The suites of the desk and of the stage build on it.
#include <QMainWindow>
#include <QTemporaryDir>
#include <memory>

#include "h200_backend.h"
#include "models/settings.h"
#include "runs/controller.h"
#include "window/desk.h"

namespace launchlab::ui::test {

struct DeskRig {
  /// `central`: the desk fills the window (as in MainWindow); else it is a child of its own size.
  explicit DeskRig(bool central) {
    desk = new Desk(*backend, *controller, dir.filePath("exercises"), window.get());
    if (central) window->setCentralWidget(desk);
    window->resize(1280, 720);
  }
  ~DeskRig() {
    controller.reset();  // joins its thread before the views go
    window.reset();
  }
  DeskRig(const DeskRig&) = delete;
  DeskRig& operator=(const DeskRig&) = delete;

  std::shared_ptr<EngineBackend> backend = h200Backend();
  std::unique_ptr<AppSettings> settings = AppSettings::ephemeral();
  std::unique_ptr<RunController> controller = std::make_unique<RunController>(backend);
  QTemporaryDir dir;
  std::unique_ptr<QMainWindow> window = std::make_unique<QMainWindow>();
  Desk* desk = nullptr;
};

}  // namespace launchlab::ui::test
