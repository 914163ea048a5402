#pragma once
/// Entry points of the kernels library: every workload of the course, and the GPU runtime.
#include <memory>

#include "launchlab/engine/device.h"
#include "launchlab/engine/registry.h"

namespace launchlab::kernels {

/// Adds every workload built into this binary (generated from kernels/CMakeLists.txt).
void registerAllWorkloads(Registry& registry);
/// Lets the registry run students' kernels as "my-kernel" (CUDA builds; a no-op otherwise). registerAllWorkloads
/// calls it.
void registerUserKernelRunner(Registry& registry);
/// The CUDA runtime when built with CUDA (it reports "no driver"/"no device" itself), else a runtime
/// that says this is a CPU-only build. The device is chosen by LAUNCHLAB_DEVICE (default 0).
std::shared_ptr<GpuRuntime> makeDefaultGpuRuntime();
/// true when this binary contains CUDA implementations.
bool builtWithCuda();

}  // namespace launchlab::kernels
