#pragma once
/// Where the window opens: inside the screen's available geometry (no title bar, chart or status bar
/// off-screen on a 1280x720 projector), a saved geometry only when it still fits.
#include <QRect>
#include <QSize>

class QWidget;

namespace launchlab::ui {

/// The window size asked for when nothing is saved.
inline constexpr QSize kPreferredWindowSize{1600, 1000};

/// `wanted`, shrunk to fit `available` less room for a window frame, centred in `available`.
QRect fitToScreen(const QRect& available, QSize wanted);
/// Restores `saved` on `w` when it fits the available geometry of `w`'s screen, else fits the preferred size.
/// Returns true when the saved geometry was used.
bool placeOnScreen(QWidget& w, const QByteArray& saved);

}  // namespace launchlab::ui
