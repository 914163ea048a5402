#pragma once
/// Colour maps and palettes as plain data (no Qt), so their mapping is tested without widgets.
#include <array>
#include <cstdint>
#include <vector>

namespace launchlab::ui {

struct Rgb {
  std::uint8_t r = 0, g = 0, b = 0;
  bool operator==(const Rgb&) const = default;
};

/// A perceptually ordered map from [0, 1] to colours (linear interpolation between stops).
struct ColorMap {
  std::vector<std::pair<double, Rgb>> stops;  ///< positions ascending from 0 to 1
  /// t is clamped to [0, 1]; NaN maps to `nanColor`.
  Rgb at(double t) const;
  Rgb nanColor{255, 0, 255};
};
/// Viridis-like (dark blue -> green -> yellow): readable in grey and for colour-blind viewers.
const ColorMap& viridis();
/// Maps value v in [lo, hi] to [0, 1] (linear; hi == lo maps to 0.5).
double normalize(double v, double lo, double hi);

/// Series colours: the normal palette and the high-contrast one for projectors (saturated, dark on white).
struct Palette {
  std::vector<Rgb> series;  ///< one per implementation, in order
  Rgb reference;            ///< cpu-serial
  Rgb mismatch;             ///< highlighted wrong elements
  Rgb background, foreground, grid;
  std::array<Rgb, 4> phases;  ///< H2D, Kernel, D2H, Cpu
  Rgb lesson;                 ///< amber: an expected outcome (a race's lost updates), never the failure red
};
const Palette& normalPalette();
const Palette& highContrastPalette();

/// WCAG relative-luminance contrast ratio of two colours (1 to 21).
double contrastRatio(const Rgb& a, const Rgb& b);

}  // namespace launchlab::ui
