#include "launchlab/plot/colormap_lut.h"

#include <algorithm>
#include <cmath>

namespace launchlab::colormap {

std::span<const Stop> viridis() {
  // Nine samples of the viridis map (matplotlib's, sampled at equal steps).
  static constexpr std::array<Stop, 9> kStops{{{0.000, {68, 1, 84}},
                                               {0.125, {71, 44, 122}},
                                               {0.250, {59, 81, 139}},
                                               {0.375, {44, 113, 142}},
                                               {0.500, {33, 144, 141}},
                                               {0.625, {39, 173, 129}},
                                               {0.750, {92, 200, 99}},
                                               {0.875, {170, 220, 50}},
                                               {1.000, {253, 231, 37}}}};
  return kStops;
}

Rgb8 sample(std::span<const Stop> stops, double t) {
  if (std::isnan(t) || stops.empty()) return kNanColor;
  t = std::clamp(t, 0.0, 1.0);
  if (t <= stops.front().pos) return stops.front().color;
  for (std::size_t i = 1; i < stops.size(); ++i) {
    if (t > stops[i].pos) continue;
    const Stop& a = stops[i - 1];
    const Stop& b = stops[i];
    const double f = b.pos > a.pos ? (t - a.pos) / (b.pos - a.pos) : 0.0;
    auto mix = [f](std::uint8_t x, std::uint8_t y) {
      return static_cast<std::uint8_t>(std::lround(double(x) + (double(y) - double(x)) * f));
    };
    return {mix(a.color.r, b.color.r), mix(a.color.g, b.color.g), mix(a.color.b, b.color.b)};
  }
  return stops.back().color;
}

std::array<std::uint8_t, 4 * kLutSize> lut256(std::span<const Stop> stops) {
  std::array<std::uint8_t, 4 * kLutSize> lut{};
  for (int i = 0; i < kLutSize; ++i) {
    const Rgb8 c = sample(stops, double(i) / double(kLutSize - 1));
    lut[4 * i] = c.r;
    lut[4 * i + 1] = c.g;
    lut[4 * i + 2] = c.b;
    lut[4 * i + 3] = 255;
  }
  return lut;
}

}  // namespace launchlab::colormap
