#pragma once
// `launchlab-cli check`: a student's kernel run under compute-sanitizer (memcheck, then racecheck when the file
// uses shared memory); each finding printed as FILE:LINE: TOOL: TEXT (launchlab/sanitizer.h, docs/EXERCISES.md).
#include <string>

#include "cli_kernel.h"
#include "launchlab/engine.h"

namespace launchlab::cli {

/// The size `check` runs when --n is not given: small, since the sanitizer slows kernels down a hundredfold.
inline constexpr const char* kCheckDefaultN = "64Ki";

/// compute-sanitizer's path: $LAUNCHLAB_COMPUTE_SANITIZER when set (tests), else findComputeSanitizer over $PATH,
/// $CUDA_HOME and /usr/local/cuda/bin; "" when there is none.
std::string computeSanitizerPath();

/// Checks `req` (validated, with its user kernel) under the sanitizer. 0 clean, 1 findings or nothing to check
/// with (no sanitizer, no GPU: one line on stderr saying which); throws KernelInputError when the kernel does not
/// compile.
int runCheck(const Engine& engine, RunRequest req, const KernelOptions& k);

}  // namespace launchlab::cli
