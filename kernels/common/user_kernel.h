#pragma once
// Runs a kernel compiled at run time (NVRTC) through the standard pipeline: a student's "my-kernel", and the
// caching lesson's go_fast, whose compile is what the lesson times.
#include "launchlab/course/exercise.h"
#include "launchlab/engine/workload.h"

namespace launchlab::kernels {

/// Compiles `k` against `ex`'s contract for the device, loads it and runs it like a built-in CUDA variant. Metric
/// `compile_ms`: the NVRTC compile and the cubin's load, host wall clock. Throws Unavailable without NVRTC, and
/// std::runtime_error naming the first error when the source does not compile.
void runUserKernel(ImplContext& ctx, const UserKernel& k, const Exercise& ex);

}  // namespace launchlab::kernels
