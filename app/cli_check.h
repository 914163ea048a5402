#pragma once
// `launchlab-cli check`: a student's kernel run under compute-sanitizer (memcheck, then racecheck when the file
// uses shared memory); each finding printed as FILE:LINE: TOOL: TEXT (launchlab/course/sanitizer.h, docs/EXERCISES.md).
#include <cstdint>
#include <string>

#include "cli_kernel.h"
#include "launchlab/engine/engine.h"

namespace launchlab::cli {

/// The size `check` runs when --n is not given: the exercise's check size (Exercise::checkN), since the
/// sanitizer slows kernels down a hundredfold; 64Ki when the workload has no such exercise (then resolving the
/// request says why).
std::uint64_t checkSize(const std::string& workload, const std::string& exercise);
/// The default of `check --time-limit`: seconds each tool may take before it is stopped with a message.
inline constexpr double kCheckTimeLimitS = 120;

/// compute-sanitizer's path: $LAUNCHLAB_COMPUTE_SANITIZER when set (tests), else findComputeSanitizer over $PATH,
/// $CUDA_HOME and /usr/local/cuda/bin; "" when there is none.
std::string computeSanitizerPath();

/// Checks `req` (validated, with its user kernel) under the sanitizer, each tool for at most k.timeLimitS seconds,
/// saying on stderr which tool runs at which size. 0 clean, 1 findings, a tool over its time limit, or nothing to
/// check with (no sanitizer, no GPU: one line on stderr saying which); throws KernelInputError when the kernel does
/// not compile or the time limit is out of range.
int runCheck(const Engine& engine, RunRequest req, const KernelOptions& k);

}  // namespace launchlab::cli
