// Main of the GPU suite: exits 77 (ctest: skipped) with the reason when no CUDA device can be used.
#include <gtest/gtest.h>

#include <cstdio>
#include <string>

#include "launchlab/kernels.h"

#if LAUNCHLAB_HAVE_CUDA_TESTS
// `launchlab_gpu_tests --worker` serves runs for the fault-containment test (the registry includes its
// fault-injection workload).
int serveTestWorker();
// `launchlab_gpu_tests --ipc-m4-child HANDLE N SEED OFFSET`: the child of the CUDA IPC test
// (test_plot_geometry_gpu.cpp).
int runIpcM4Child(int argc, char** argv);
#endif

int main(int argc, char** argv) {
#if LAUNCHLAB_HAVE_CUDA_TESTS
  if (argc > 1 && std::string(argv[1]) == "--worker") return serveTestWorker();
  if (argc > 1 && std::string(argv[1]) == "--ipc-m4-child") return runIpcM4Child(argc, argv);
#endif
  auto rt = launchlab::kernels::makeDefaultGpuRuntime();
  auto st = rt->status();
  if (!st.available) {
    std::printf("SKIPPED: GPU tests need a CUDA device: %s\n", st.reason.c_str());
    return 77;
  }
  std::printf("GPU tests on %s (cc %d.%d, %d SMs), driver %d, runtime %d\n", st.info.name.c_str(), st.info.ccMajor,
              st.info.ccMinor, st.info.multiprocessors, st.info.driverVersion, st.info.runtimeVersion);
  rt.reset();
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
