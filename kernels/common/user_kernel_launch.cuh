#pragma once
// What the two kinds of a student's kernel share once compiled: a kernel image loaded with the CUDA runtime's
// library API, and its launch through the standard pipeline with the exercise's launch (user_kernel.cu). The C++
// kernel (NVRTC's cubin) and the Numba kernel (numba_kernel.cu: Numba's PTX, JIT-compiled by the driver at load)
// differ only in how their parameters are laid out.
#include <cuda_runtime.h>

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "common/cuda_check.h"
#include "common/gpu_pipeline.cuh"
#include "launchlab/course/exercise.h"
#include "launchlab/engine/workload.h"

namespace launchlab::kernels {

/// A loaded cubin or PTX (cudaLibraryLoadData takes either), unloaded on scope exit.
class UserLibrary {
 public:
  explicit UserLibrary(const std::string& image) {
    // PTX is JIT-compiled at load: with line info, so that compute-sanitizer names the source's lines (a cubin
    // keeps the line info it was compiled with, and the option does not apply to it).
    cudaJitOption options[] = {cudaJitGenerateLineInfo};
    void* values[] = {reinterpret_cast<void*>(std::uintptr_t(1))};
    LAUNCHLAB_CUDA_CHECK(cudaLibraryLoadData(&m_lib, image.c_str(), options, values, 1, nullptr, nullptr, 0));
  }
  ~UserLibrary() {
    if (m_lib) cudaLibraryUnload(m_lib);
  }
  UserLibrary(const UserLibrary&) = delete;
  UserLibrary& operator=(const UserLibrary&) = delete;
  cudaKernel_t kernel(const std::string& name) const {
    cudaKernel_t k = nullptr;
    LAUNCHLAB_CUDA_CHECK(cudaLibraryGetKernel(&k, m_lib, name.c_str()));
    return k;
  }
  /// The device address of a module-scope variable (the access probes' counter pointer).
  void* global(const std::string& name) const {
    void* p = nullptr;
    std::size_t bytes = 0;
    LAUNCHLAB_CUDA_CHECK(cudaLibraryGetGlobal(&p, &bytes, m_lib, name.c_str()));
    return p;
  }

 private:
  cudaLibrary_t m_lib = nullptr;
};

/// The kernel's parameters for one launch, one 8-byte slot each (a 4-byte scalar in the slot's first bytes), from
/// the run's device arrays and the hit counter (null unless the exercise counts hits).
using UserKernelArgs = std::function<std::vector<std::uint64_t>(const gpu::DeviceArrays& d, void* hits)>;

/// An output the kernel updates in place: before each launch it is loaded with an input's values (device to
/// device, in the kernel phase, as the zeroing is), so the input stays as it was for verification.
struct OutputFromInput {
  std::size_t output = 0;  ///< index into the run's outputs
  std::size_t input = 0;   ///< index into the run's inputs
};

/// Runs `kernel` through gpu::runPipeline with the exercise's launch (1-D over n, or 2-D over its matrix; auto
/// grids as the exercise says), zeroing outputs and the hit counter first where the exercise asks, and loading the
/// outputs of `loads` from their inputs.
void launchUserKernel(ImplContext& ctx, const Exercise& ex, const void* kernel, const UserKernelArgs& argsOf,
                      const std::vector<OutputFromInput>& loads = {});

/// A .py kernel (launchlab/numba/numba.h): compiled by Numba (cached), loaded as PTX, launched with Numba's argument
/// layout. Throws like runUserKernel.
void runNumbaKernel(ImplContext& ctx, const UserKernel& k, const Exercise& ex);

}  // namespace launchlab::kernels
