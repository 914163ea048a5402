// Main of the interop GPU tests: exits 77 (ctest: skipped) with the reason when there is no CUDA device, no EGL
// device of it, or no CUDA–OpenGL interop on it. A separate binary from launchlab_gpu_tests, so that suite still
// starts on a machine without the GL loader libraries (libEGL.so.1, libOpenGL.so.0).
#include <gtest/gtest.h>

#include <cstdio>

#include "gl_gpu_env.h"
#include "launchlab/kernels.h"

int main(int argc, char** argv) {
  auto rt = launchlab::kernels::makeDefaultGpuRuntime();
  const auto st = rt->status();
  if (!st.available) {
    std::printf("SKIPPED: interop tests need a CUDA device: %s\n", st.reason.c_str());
    return 77;
  }
  auto& env = launchlab::test::glGpuEnv();
  if (!env.skipReason.empty()) {
    std::printf("SKIPPED: %s\n", env.skipReason.c_str());
    return 77;
  }
  std::printf("interop tests on %s: %s; %s\n", env.context->info().renderer.c_str(), env.context->info().reason.c_str(),
              launchlab::render::interopSupport(0).reason.c_str());
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
