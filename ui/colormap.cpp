#include "colormap.h"

#include <algorithm>
#include <cmath>

namespace launchlab::ui {

Rgb ColorMap::at(double t) const {
  if (std::isnan(t) || stops.empty()) return nanColor;
  t = std::clamp(t, 0.0, 1.0);
  if (t <= stops.front().first) return stops.front().second;
  for (std::size_t i = 1; i < stops.size(); ++i) {
    if (t <= stops[i].first) {
      const auto& [p0, c0] = stops[i - 1];
      const auto& [p1, c1] = stops[i];
      const double f = p1 > p0 ? (t - p0) / (p1 - p0) : 0.0;
      auto mix = [f](std::uint8_t a, std::uint8_t b) {
        return static_cast<std::uint8_t>(std::lround(double(a) + (double(b) - double(a)) * f));
      };
      return {mix(c0.r, c1.r), mix(c0.g, c1.g), mix(c0.b, c1.b)};
    }
  }
  return stops.back().second;
}

const ColorMap& viridis() {
  // Nine samples of the viridis map (matplotlib's, sampled at equal steps).
  static const ColorMap m{{{0.000, {68, 1, 84}},
                           {0.125, {71, 44, 122}},
                           {0.250, {59, 81, 139}},
                           {0.375, {44, 113, 142}},
                           {0.500, {33, 144, 141}},
                           {0.625, {39, 173, 129}},
                           {0.750, {92, 200, 99}},
                           {0.875, {170, 220, 50}},
                           {1.000, {253, 231, 37}}},
                          {255, 0, 255}};
  return m;
}

double normalize(double v, double lo, double hi) {
  if (std::isnan(v)) return v;
  if (!(hi > lo)) return 0.5;
  return (v - lo) / (hi - lo);
}

const Palette& normalPalette() {
  static const Palette p{{{31, 119, 180}, {255, 127, 14}, {44, 160, 44}, {148, 103, 189}, {140, 86, 75},
                          {227, 119, 194}, {23, 190, 207}, {188, 189, 34}},
                         {110, 110, 110},
                         {214, 39, 40},
                         {255, 255, 255},
                         {30, 30, 30},
                         {220, 220, 220},
                         {{{255, 187, 120}, {31, 119, 180}, {152, 223, 138}, {127, 127, 127}}}};
  return p;
}

const Palette& highContrastPalette() {
  static const Palette p{{{0, 0, 200}, {200, 80, 0}, {0, 120, 0}, {150, 0, 150}, {0, 0, 0}, {160, 0, 60},
                          {0, 110, 130}, {110, 90, 0}},
                         {0, 0, 0},
                         {220, 0, 0},
                         {255, 255, 255},
                         {0, 0, 0},
                         {150, 150, 150},
                         {{{230, 120, 0}, {0, 0, 200}, {0, 140, 0}, {60, 60, 60}}}};
  return p;
}

double contrastRatio(const Rgb& a, const Rgb& b) {
  auto lum = [](const Rgb& c) {
    auto ch = [](std::uint8_t v) {
      const double s = v / 255.0;
      return s <= 0.03928 ? s / 12.92 : std::pow((s + 0.055) / 1.055, 2.4);
    };
    return 0.2126 * ch(c.r) + 0.7152 * ch(c.g) + 0.0722 * ch(c.b);
  };
  double la = lum(a), lb = lum(b);
  if (la < lb) std::swap(la, lb);
  return (la + 0.05) / (lb + 0.05);
}

}  // namespace launchlab::ui
