#pragma once
/// The colour maps' tables, owned here (no Qt, no GL): the window's QCustomPlot views (ui/plots/colormap.h) and the GL
/// renderer's 256-entry LUT texture (core/gl) both read them, so a map looks the same on every path.
#include <array>
#include <cstdint>
#include <span>

namespace launchlab::colormap {

struct Rgb8 {
  std::uint8_t r = 0, g = 0, b = 0;
  bool operator==(const Rgb8&) const = default;
};
/// A colour at position `pos` of [0, 1]; a map is a list of stops with ascending positions from 0 to 1.
struct Stop {
  double pos = 0;
  Rgb8 color;
};

/// Viridis-like (dark blue -> green -> yellow): readable in grey and for colour-blind viewers.
std::span<const Stop> viridis();
/// The colour of NaN (and, in the GL image view, of +-inf): magenta, which no map uses.
inline constexpr Rgb8 kNanColor{255, 0, 255};

/// The map at t (clamped to [0, 1]; linear interpolation between stops, rounded); NaN or no stops give kNanColor.
Rgb8 sample(std::span<const Stop> stops, double t);

/// The map as 256 RGBA8 entries (entry i = sample(i / 255), alpha 255): the renderer's LUT texture.
inline constexpr int kLutSize = 256;
std::array<std::uint8_t, 4 * kLutSize> lut256(std::span<const Stop> stops);

}  // namespace launchlab::colormap
