#pragma once
// The interop tests' GL context: on the EGL device of CUDA device 0 (no software fallback), made once.
#include <memory>
#include <string>

#include "launchlab/gl/egl_context.h"
#include "render/gl_interop.h"

namespace launchlab::test {

struct GlGpuEnv {
  std::unique_ptr<gl::EglContext> context;
  std::string skipReason;
};
inline GlGpuEnv& glGpuEnv() {
  static GlGpuEnv env = [] {
    GlGpuEnv e;
    auto ctx = gl::EglContext::create({.cudaOrdinal = 0, .allowSoftware = false});
    if (!ctx.ok()) {
      e.skipReason = "no EGL device of CUDA device 0: " + ctx.error();
      return e;
    }
    e.context = std::move(*ctx);
    if (const render::InteropSupport s = render::interopSupport(0); !s.possible)
      e.skipReason = "no CUDA–OpenGL interop: " + s.reason;
    return e;
  }();
  return env;
}

}  // namespace launchlab::test
