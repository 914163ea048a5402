#pragma once
/// gpu::launch: how the memory lessons' built-in kernels are launched, so that a run measured from the kernels'
/// accesses (docs/ACCESS_COUNTERS.md: --counters=accesses, or CUPTI refused) measures them too. Outside such a run
/// it is the <<<grid, block, smem, stream>>> launch it replaces, with nothing added but a null check. Inside one,
/// the same kernel is found by name in its workload's compiled-in PTX (launchlab/lesson_ptx.h), instrumented once
/// per run, JIT-compiled alone, and launched with the same arguments and configuration; its probes count into the
/// run's counter buffer, which the profiler reads at the end of the run.
#include <cuda_runtime.h>

#include <cstddef>
#include <tuple>
#include <type_traits>

#include "launchlab/engine/workload.h"
#include "launchlab/ptx/ptx_counters.h"

namespace launchlab::gpu {

/// Launches the instrumented twin of the compiled-in `kernel` (its arguments' addresses in `args`, in the kernel's
/// order) for the run's probe session. Returns false, launching nothing, when the kernel's PTX is not compiled in.
/// Throws GpuError on CUDA errors, Unavailable without cudaFuncGetName (CUDA 12.3).
bool launchProbed(ptx::AccessProbeSession& probes, const void* kernel, dim3 grid, dim3 block, std::size_t smemBytes,
                  cudaStream_t stream, void** args);

/// kernel<<<grid, block, smemBytes, stream>>>(args...), measured from its accesses when the run is (ctx.kernelHook
/// is an access probe session).
template <typename... Params, typename... Args>
void launch(const ImplContext& ctx, void (*kernel)(Params...), dim3 grid, dim3 block, std::size_t smemBytes,
            cudaStream_t stream, const Args&... args) {
  static_assert(sizeof...(Params) == sizeof...(Args), "gpu::launch: one argument per kernel parameter");
  if (ptx::AccessProbeSession* probes = ctx.kernelHook ? ptx::accessProbesOf(ctx.kernelHook) : nullptr) {
    std::tuple<std::remove_cvref_t<Params>...> values(args...);  // converted as the launch would
    const bool launched = std::apply(
        [&](auto&... v) {
          void* addresses[] = {static_cast<void*>(&v)...};
          return launchProbed(*probes, reinterpret_cast<const void*>(kernel), grid, block, smemBytes, stream,
                              addresses);
        },
        values);
    if (launched) return;
  }
  kernel<<<grid, block, smemBytes, stream>>>(args...);
}

}  // namespace launchlab::gpu
