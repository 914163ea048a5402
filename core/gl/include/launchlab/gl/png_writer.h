#pragma once
/// PNG files from RGBA8 pixels (rows from the top, as PlotRenderer::readRgba gives them), through libpng.
#include <cstdint>
#include <span>
#include <string>

#include "launchlab/gl/status.h"

namespace launchlab::gl {

/// The PNG encoding of width x height RGBA8 pixels (8-bit RGBA, no interlace).
Expected<std::string> encodePng(std::span<const std::uint8_t> rgba, int width, int height);
/// Writes it to `path` atomically (io/atomic_file.h).
Status writePng(const std::string& path, std::span<const std::uint8_t> rgba, int width, int height);
/// Reads an 8-bit RGBA or RGB PNG back (for tests and checks): pixels as RGBA8, rows from the top.
struct PngImage {
  int width = 0, height = 0;
  std::string rgba;
};
Expected<PngImage> readPng(const std::string& path);

}  // namespace launchlab::gl
