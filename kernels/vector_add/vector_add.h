#pragma once
// vector_add (TP 3.2, add_kernel; TP 3.1, add_ufunc): out = x + y.
#include "launchlab/engine/workload.h"

namespace launchlab::kernels::vector_add {

void cudaOnePerThread(ImplContext& ctx);
void cudaGridStride(ImplContext& ctx);
void cudaVectorized(ImplContext& ctx);
// ATLAS's PyCUDA increment with drv.InOut: x modified in place on the device (x += y), then copied back.
void cudaInPlace(ImplContext& ctx);
// TP 3.1's add_ufunc with CUDA device arrays: inputs copied once (cuda.to_device), then each call copies the result
// back; or the output too stays on the device (out=), copied back once after the timing.
void cudaDeviceInputs(ImplContext& ctx);
void cudaDeviceOutput(ImplContext& ctx);
// TP 3.2's "drop cuda.synchronize()": host-timed launch + copy of the result, with and without the synchronize.
void cudaExplicitSync(ImplContext& ctx);
void cudaNoSync(ImplContext& ctx);

}  // namespace launchlab::kernels::vector_add
