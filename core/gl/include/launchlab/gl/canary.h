#pragma once
/// The GL canary: a tiny frame whose every pixel is known, drawn with the plot renderer's own programs and read
/// back. A healthy OpenGL (Mesa llvmpipe, the NVIDIA driver) draws it exactly; after a CUDA fault in another process
/// the NVIDIA driver on Hopper machines was seen to draw frames wrong and slowly (docs/ARCHITECTURE.md, "The window's
/// GL layer and live mode"), so the window checks this frame before it trusts GL again. Qt-free, CUDA-free.
#include <cstdint>
#include <span>
#include <vector>

#include "launchlab/gl/plot_renderer.h"

namespace launchlab::gl {

/// The canary's side in pixels (a square framebuffer).
inline constexpr int kCanarySide = 16;

/// The expected RGBA8 pixels, rows from the top: a blue background; four red histogram bars 4, 8, 12 and 16 pixels
/// high, 4 wide, from the bottom; a 2x2 image over the top-left 8x8 pixels: green, white / magenta (NaN), green.
/// Every edge lies on a pixel boundary and every colour is 0 or 255 in each channel, so no rounding is involved.
std::vector<std::uint8_t> canaryExpected();

/// Draws the canary with `r` (its framebuffer becomes kCanarySide square; the next frame sizes it back) and reads
/// it back into `out` (kCanarySide^2 * 4 bytes).
Status drawCanary(PlotRenderer& r, std::vector<std::uint8_t>& out);

/// Pixels of `pixels` (a read-back canary) that differ from canaryExpected() by more than one unit in a channel;
/// every pixel when the size is wrong.
int canaryMismatches(std::span<const std::uint8_t> pixels);

}  // namespace launchlab::gl
