#include "plots/colormap.h"

#include <algorithm>
#include <cmath>

#include "launchlab/plot/colormap_lut.h"

namespace launchlab::ui {

Rgb ColorMap::at(double t) const {
  if (std::isnan(t)) return nanColor;
  std::vector<colormap::Stop> core;
  core.reserve(stops.size());
  for (const auto& [pos, c] : stops) core.push_back({pos, {c.r, c.g, c.b}});
  const colormap::Rgb8 c = colormap::sample(core, t);
  return core.empty() ? nanColor : Rgb{c.r, c.g, c.b};
}

const ColorMap& viridis() {
  // The table is core's (launchlab/plot/colormap_lut.h), shared with the GL renderer's LUT.
  static const ColorMap m = [] {
    ColorMap cm;
    for (const colormap::Stop& s : colormap::viridis()) cm.stops.push_back({s.pos, {s.color.r, s.color.g, s.color.b}});
    cm.nanColor = {colormap::kNanColor.r, colormap::kNanColor.g, colormap::kNanColor.b};
    return cm;
  }();
  return m;
}

double normalize(double v, double lo, double hi) {
  if (std::isnan(v)) return v;
  if (!(hi > lo)) return 0.5;
  return (v - lo) / (hi - lo);
}

const Palette& normalPalette() {
  static const Palette p{{{31, 119, 180},
                          {255, 127, 14},
                          {44, 160, 44},
                          {148, 103, 189},
                          {140, 86, 75},
                          {227, 119, 194},
                          {23, 190, 207},
                          {188, 189, 34}},
                         {110, 110, 110},
                         {214, 39, 40},
                         {255, 255, 255},
                         {30, 30, 30},
                         {220, 220, 220},
                         {{{255, 187, 120}, {31, 119, 180}, {152, 223, 138}, {127, 127, 127}}},
                         {232, 150, 0}};
  return p;
}

const Palette& highContrastPalette() {
  static const Palette p{
      {{0, 0, 200}, {200, 80, 0}, {0, 120, 0}, {150, 0, 150}, {0, 0, 0}, {160, 0, 60}, {0, 110, 130}, {110, 90, 0}},
      {0, 0, 0},
      {220, 0, 0},
      {255, 255, 255},
      {0, 0, 0},
      {150, 150, 150},
      {{{230, 120, 0}, {0, 0, 200}, {0, 140, 0}, {60, 60, 60}}},
      {205, 125, 0}};
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
