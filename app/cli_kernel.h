#pragma once
// `launchlab-cli compile` and `run --kernel-file`: a student's kernel file (launchlab/course/exercise.h,
// docs/EXERCISES.md).
#include <optional>
#include <stdexcept>
#include <string>

#include "launchlab/course/exercise.h"
#include "launchlab/engine/engine.h"

namespace launchlab::cli {

/// Bad kernel input (an unreadable file, one that does not compile): the CLI prints it as one line, exit 2.
struct KernelInputError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct KernelOptions {
  std::string file;        ///< --kernel-file
  std::string name;        ///< --kernel-name (default: the exercise's)
  std::string exercise;    ///< --exercise (default: the workload's own)
  std::string gpuProfile;  ///< --gpu-profile: the architecture to compile for without a GPU (default sm_90)
  double timeLimitS = 10;  ///< --kernel-time-limit
  std::string python;      ///< --python: the Python with numba-cuda for a .py kernel (launchlab/numba/numba.h)
  /// The kernel's text when it is compiled in (a seed's Numba kernel: `course run ID --numba`); `file` names it.
  std::string text;
};

/// The kernel file as a request carries it, or nothing without --kernel-file. Throws KernelInputError.
std::optional<UserKernel> userKernelOf(const KernelOptions& o);

/// The architecture to compile for: the GPU's, else --gpu-profile's, else sm_90. Throws KernelInputError.
std::string compileArch(const Engine& engine, const std::string& gpuProfile);

/// Compiles `k` for `workload`'s exercise and prints its diagnostics ("FILE:LINE:COL: error: TEXT") on stdout.
/// Throws KernelInputError when it does not compile (or cannot be compiled); `quietOk` prints nothing on success.
/// A .py kernel is compiled for `dtype` (the run's; unset: the exercise's), which fills the PTX cache the run uses.
void compileOrThrow(const Engine& engine, const std::string& workload, const UserKernel& k,
                    const std::string& gpuProfile, bool quietOk, std::optional<DType> dtype = std::nullopt);

/// This executable's path (/proc/self/exe), for starting itself as a worker or under compute-sanitizer.
std::string selfExe();

/// Runs `req` in a worker process (this executable's `worker`): a faulting kernel costs one failed run, and a
/// worker silent for longer than the kernel's time limit while the kernel runs (a kernel that never ends) is
/// stopped, its row failed and the rest run again without it. A result larger than `registry`'s workloads can
/// produce for `req` is refused. What the kernel printed (printf) is copied to stderr.
RunResult runInWorker(const RunRequest& req, const Registry& registry);

}  // namespace launchlab::cli
