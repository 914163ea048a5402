#include "launchlab/gl/canary.h"

#include <array>
#include <cmath>
#include <cstdlib>
#include <limits>

namespace launchlab::gl {

namespace {

using Px = std::array<std::uint8_t, 4>;
constexpr Px kBlue{0, 0, 255, 255}, kRed{255, 0, 0, 255}, kGreen{0, 255, 0, 255}, kWhite{255, 255, 255, 255},
    kMagenta{255, 0, 255, 255};
constexpr int kBars = 4, kBarWidth = kCanarySide / kBars, kImageSide = kCanarySide / 2, kTexel = kImageSide / 2;

Rgba rgba(const Px& p) { return {p[0] / 255.0f, p[1] / 255.0f, p[2] / 255.0f, p[3] / 255.0f}; }

/// The colour the canary has at column x, row y (from the top).
Px expectedAt(int x, int y) {
  if (x < kImageSide && y < kImageSide) {
    const bool right = x >= kTexel, lower = y >= kTexel;
    if (lower && !right) return kMagenta;  // the NaN texel
    return right && !lower ? kWhite : kGreen;
  }
  const int bar = x / kBarWidth, height = (bar + 1) * kBarWidth;  // bar b is 4(b + 1) pixels high
  return y >= kCanarySide - height ? kRed : kBlue;
}

}  // namespace

CanaryData canaryData() {
  // Image row 0 (top): 0, 1; row 1: NaN, 0. The LUT's lower half is green and its upper half white, so the entry a
  // value lands on cannot change the colour by rounding.
  return {{1, 2, 3, 4}, {0, 1, std::numeric_limits<float>::quiet_NaN(), 0}};
}

Status hostCanaryFeed(PlotRenderer& r, const CanaryData& d) {
  if (Status s = r.upload(r.histogramBuffer(kBars), d.bars.data(), sizeof d.bars); !s.ok()) return s;
  return r.upload(r.imageBuffer(2, 2), d.texels.data(), sizeof d.texels);
}

std::vector<std::uint8_t> canaryExpected(int scale) {
  const int side = kCanarySide * scale;
  std::vector<std::uint8_t> out(std::size_t(side) * side * 4);
  for (int y = 0; y < side; ++y)
    for (int x = 0; x < side; ++x) {
      const Px p = expectedAt(x / scale, y / scale);
      std::copy(p.begin(), p.end(), out.begin() + (std::ptrdiff_t(y) * side + x) * 4);
    }
  return out;
}

Status drawCanary(PlotRenderer& r, std::vector<std::uint8_t>& out, int scale, const CanaryFeed& feed) {
  if (scale < 1) return Status::fail("canary scale must be at least 1");
  const int side = kCanarySide * scale;
  if (Status s = r.resize(side, side); !s.ok()) return s;
  r.clear(rgba(kBlue));
  if (Status s = feed(r, canaryData()); !s.ok()) return s;
  const DataRange bars{0, kBars, 0, kBars};
  if (Status s = r.drawHistogram({0, 0, side, side}, bars, kBars, rgba(kRed)); !s.ok()) return s;
  std::vector<std::uint8_t> lut(4 * 256);
  for (std::size_t e = 0; e < 256; ++e) {
    const Px& p = e < 128 ? kGreen : kWhite;
    std::copy(p.begin(), p.end(), lut.begin() + std::ptrdiff_t(4 * e));
  }
  const ImageStyle style{0, 1, rgba(kMagenta), true};
  const int image = kImageSide * scale;
  if (Status s = r.drawImage({0, 0, image, image}, 2, 2, style, lut); !s.ok()) return s;
  out.assign(std::size_t(side) * side * 4, 0);
  return r.readRgba(out);
}

int canaryMismatches(std::span<const std::uint8_t> pixels, int scale) {
  const std::vector<std::uint8_t> want = canaryExpected(scale);
  if (pixels.size() != want.size()) return int(want.size() / 4);
  int bad = 0;
  for (std::size_t i = 0; i < want.size(); i += 4) {
    bool off = false;
    for (std::size_t c = 0; c < 4; ++c) off = off || std::abs(int(pixels[i + c]) - int(want[i + c])) > 1;
    bad += off;
  }
  return bad;
}

}  // namespace launchlab::gl
