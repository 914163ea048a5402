#pragma once
/// The GL canary: a tiny frame whose every pixel is known, drawn with the plot renderer's own programs and read
/// back. A healthy OpenGL (Mesa llvmpipe, the NVIDIA driver) draws it exactly; after a CUDA fault in another process
/// the NVIDIA driver on Hopper machines was seen to draw frames wrong and slowly (the GL check in
/// docs/evidence/architecture-history.md), so the window checks this frame before it trusts GL again. Qt-free,
/// CUDA-free.
#include <array>
#include <cstdint>
#include <functional>
#include <span>
#include <vector>

#include "launchlab/gl/plot_renderer.h"

namespace launchlab::gl {

/// The canary's side in pixels at scale 1 (a square framebuffer); at scale s it is kCanarySide * s, every edge
/// scaled with it.
inline constexpr int kCanarySide = 16;

/// The canary's data: four histogram bar heights and a 2x2 float image (row 0 on top; one texel is NaN).
struct CanaryData {
  std::array<float, 4> bars;
  std::array<float, 4> texels;
};
CanaryData canaryData();

/// How the canary's data reaches the renderer's histogram and image buffers. The host upload is the default; a
/// window whose views are fed through CUDA–OpenGL interop passes that path, so the check exercises what its frames
/// go through (map, CUDA kernel, unmap), not only GL.
using CanaryFeed = std::function<Status(PlotRenderer&, const CanaryData&)>;
Status hostCanaryFeed(PlotRenderer& r, const CanaryData& d);

/// The expected RGBA8 pixels at `scale`, rows from the top: a blue background; four red histogram bars 4, 8, 12 and
/// 16 units high, 4 wide, from the bottom; a 2x2 image over the top-left 8x8 units: green, white / magenta (NaN),
/// green. Every edge lies on a pixel boundary and every colour is 0 or 255 in each channel, so no rounding is
/// involved.
std::vector<std::uint8_t> canaryExpected(int scale = 1);

/// Draws the canary with `r` (its framebuffer becomes kCanarySide * scale square; the next frame sizes it back),
/// its data fed by `feed`, and reads it back into `out` ((kCanarySide * scale)^2 * 4 bytes).
Status drawCanary(PlotRenderer& r, std::vector<std::uint8_t>& out, int scale = 1,
                  const CanaryFeed& feed = hostCanaryFeed);

/// Pixels of `pixels` (a read-back canary at `scale`) that differ from canaryExpected(scale) by more than one unit
/// in a channel; every pixel when the size is wrong.
int canaryMismatches(std::span<const std::uint8_t> pixels, int scale = 1);

}  // namespace launchlab::gl
