#pragma once
// One EGL context and renderer for a test binary (a context is current on one thread: gtest's main thread).
// Without any EGL display (no Mesa, no driver) the tests skip with the reason.
#include <gtest/gtest.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "launchlab/gl/egl_context.h"
#include "launchlab/gl/plot_renderer.h"

namespace launchlab::gl::testing {

struct GlEnv {
  std::unique_ptr<EglContext> context;
  std::unique_ptr<PlotRenderer> renderer;
  std::string skipReason;
};
/// Made on first use, software allowed (Mesa llvmpipe here and in CI).
inline GlEnv& glEnv() {
  static GlEnv env = [] {
    GlEnv e;
    auto ctx = EglContext::create({.cudaOrdinal = -1, .allowSoftware = true});
    if (!ctx.ok()) {
      e.skipReason = ctx.error();
      return e;
    }
    e.context = std::move(*ctx);
    auto r = PlotRenderer::create();
    if (!r.ok()) {
      e.skipReason = r.error();
      return e;
    }
    e.renderer = std::move(*r);
    return e;
  }();
  return env;
}

#define LAUNCHLAB_REQUIRE_GL(r)                                                         \
  ::launchlab::gl::testing::GlEnv& glenv_ = ::launchlab::gl::testing::glEnv();          \
  if (!glenv_.renderer) GTEST_SKIP() << "no OpenGL through EGL: " << glenv_.skipReason; \
  ::launchlab::gl::PlotRenderer& r = *glenv_.renderer

/// The RGBA pixel at column x, row y (from the top) of a readback.
struct Pixel {
  std::uint8_t r, g, b, a;
  bool operator==(const Pixel&) const = default;
};
inline Pixel pixelAt(const std::vector<std::uint8_t>& img, int width, int x, int y) {
  const std::size_t i = (std::size_t(y) * std::size_t(width) + std::size_t(x)) * 4;
  return {img[i], img[i + 1], img[i + 2], img[i + 3]};
}
inline std::vector<std::uint8_t> readBack(PlotRenderer& r) {
  std::vector<std::uint8_t> img(std::size_t(r.width()) * std::size_t(r.height()) * 4);
  const Status s = r.readRgba(img);
  EXPECT_TRUE(s.ok()) << s.error;
  return img;
}

}  // namespace launchlab::gl::testing
