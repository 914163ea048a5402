// CPU-only builds: the GPU runtime says why CUDA implementations are off.
#include "launchlab/kernels.h"

namespace launchlab::kernels {

std::shared_ptr<GpuRuntime> makeDefaultGpuRuntime() {
  return makeUnavailableGpuRuntime(
      "CPU-only build (LAUNCHLAB_CUDA=OFF or no nvcc at build time): CUDA implementations are skipped");
}
bool builtWithCuda() { return false; }
void registerUserKernelRunner(Registry&) {}  // my-kernel is then skipped: "built without CUDA"

}  // namespace launchlab::kernels
