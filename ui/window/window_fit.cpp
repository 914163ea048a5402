#include "window/window_fit.h"

#include <QScreen>
#include <QWidget>
#include <algorithm>

namespace launchlab::ui {

namespace {
/// Room for a window manager's frame and title bar around the client area.
constexpr QSize kFrameRoom{16, 40};

QRect availableOf(const QWidget& w) {
  const QScreen* s = w.screen();
  return s ? s->availableGeometry() : QRect(QPoint(0, 0), kPreferredWindowSize);
}
}  // namespace

QRect fitToScreen(const QRect& available, QSize wanted) {
  const QSize room = (available.size() - kFrameRoom).expandedTo(QSize(320, 240));
  const QSize size = wanted.boundedTo(room);
  QRect r(QPoint(0, 0), size);
  r.moveCenter(available.center());
  // Keep the top-left (and so the title bar) on screen even when the screen is smaller than the minimum.
  r.moveTopLeft(QPoint(std::max(r.left(), available.left()), std::max(r.top(), available.top())));
  return r;
}

bool placeOnScreen(QWidget& w, const QByteArray& saved) {
  const QRect available = availableOf(w);
  if (!saved.isEmpty() && w.restoreGeometry(saved) && available.contains(w.geometry())) return true;
  w.setGeometry(fitToScreen(available, kPreferredWindowSize));
  return false;
}

}  // namespace launchlab::ui
