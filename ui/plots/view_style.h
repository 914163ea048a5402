#pragma once
/// How plots look: the normal style and the presentation style (projectors: large fonts, thick lines,
/// high-contrast palette), applied to QCustomPlot widgets and to the application.
#include <QColor>
#include <QFont>
#include <QPalette>

#include "plots/colormap.h"

class QCustomPlot;
class QApplication;
class QCPAxis;
class QCPColorGradient;
class QCPColorMap;
class QCPColorScale;
class QCPTextElement;

namespace launchlab::ui {

struct ViewStyle {
  bool presentation = false;
  const Palette* palette = &normalPalette();
  double lineWidth = 1.4;
  double fontPointSize = 9;
  double markerSize = 6;
  static ViewStyle normal();
  /// Projector fonts and lines for a screen `screenHeight` pixels tall: text grows with the screen (x1.6 at
  /// 720 px and below, x1.8 at 1080 px and above).
  static ViewStyle presentationStyle(int screenHeight = 1080);
  double fontScale = 1.0;  ///< font factor over the normal style
  QColor seriesColor(int i) const;
  QColor referenceColor() const;
  QColor mismatchColor() const;
  QColor lessonColor() const;               ///< an expected outcome's amber
  QColor phaseColor(int phaseIndex) const;  ///< 0 H2D, 1 Kernel, 2 D2H, 3 Cpu
  QFont font(double scale = 1.0, bool bold = false) const;
  /// The smallest text a view may draw in this style (a crowded chart shrinks its labels down to it, no further).
  double minimumPointSize() const { return fontPointSize * 0.8; }
};

QColor toQColor(const Rgb& c, int alpha = 255);
/// Axes, grid, fonts, background and legend of a plot.
void applyPlotStyle(QCustomPlot& plot, const ViewStyle& s);
/// A title row over the plot (an empty text element in a new first layout row).
QCPTextElement* addTitleRow(QCustomPlot& plot);
/// The legend in a row under the plot, its entries side by side: it never covers data.
void legendBelow(QCustomPlot& plot);
/// A plot title's font and colour.
void styleTitle(QCPTextElement& title, const ViewStyle& s);
/// Linear or logarithmic scale, with the matching ticker.
void setAxisLog(QCPAxis& axis, bool on);
/// The viridis map as a QCustomPlot gradient (NaN shown in the palette's mismatch-free grey).
QCPColorGradient viridisGradient();
/// A stepped key for whole counts lo..hi (lo <= hi): viridis in one level per count over [lo - 0.5, hi + 0.5], ticks on
/// whole numbers, lo and hi among them. Returns false (nothing changed) for more than 64 counts: a continuous key then.
bool setCountKey(QCPColorMap& map, QCPColorScale& scale, int lo, int hi);
/// A viridis colour map (no interpolation) on the plot's axes with its colour bar right of the axis rect (layout
/// cell 1, 1: under a title row), aligned with it top and bottom. Returns the map; `scale` gets the bar.
QCPColorMap* addColorMapWithScale(QCustomPlot& plot, QCPColorScale*& scale);

/// Queues a replot when the plot is visible; a hidden plot (another tab) is replotted when it is next shown,
/// so a result with many arrays costs the GUI thread only the plots on screen.
void replotWhenVisible(QCustomPlot& plot);

/// The presentation font factor for a screen of that height.
double presentationScale(int screenHeight);
/// Application-wide font and palette: the given base ones, or the presentation ones (font x s.fontScale, high
/// contrast).
void applyApplicationStyle(QApplication& app, const ViewStyle& s, const QFont& baseFont, const QPalette& basePalette);

}  // namespace launchlab::ui
