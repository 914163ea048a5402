#pragma once
// Helpers shared by the tests that drive the whole window.
#include <QAction>
#include <QSignalSpy>

#include "ui/main_window.h"

namespace launchlab::ui::test {

/// Presses Run and waits until the window shows the result (false on timeout).
inline bool runAndWait(MainWindow& window, int timeoutMs = 30000) {
  QSignalSpy shown(&window, &MainWindow::runDisplayed);
  window.runAction()->trigger();
  return shown.wait(timeoutMs);
}

}  // namespace launchlab::ui::test
