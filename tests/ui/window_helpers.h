#pragma once
// Helpers shared by the tests that drive the whole window.
#include <QAction>
#include <QSignalSpy>
#include <memory>

#include "models/settings.h"
#include "window/main_window.h"

namespace launchlab::ui::test {

/// A shown window on fresh settings and `presetFolder`, that does not run at start.
inline std::unique_ptr<MainWindow> openWindow(std::shared_ptr<Backend> backend, const QString& presetFolder) {
  MainWindowOptions o;
  o.presetFolder = presetFolder;
  o.firstRun = false;
  auto window = std::make_unique<MainWindow>(std::move(backend), AppSettings::ephemeral(), o);
  window->show();
  return window;
}

/// Presses Run and waits until the window shows the result (false on timeout).
inline bool runAndWait(MainWindow& window, int timeoutMs = 30000) {
  QSignalSpy shown(&window, &MainWindow::runDisplayed);
  window.runAction()->trigger();
  return shown.wait(timeoutMs);
}

}  // namespace launchlab::ui::test
