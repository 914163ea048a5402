#pragma once
/// File helpers shared by the CLI and the GUI: atomic writes (atomic_file.h) and a run's arrays as .npy folders
/// (built on npy.h, which itself needs only atomic_file.h).
#include <string>

#include "launchlab/io/atomic_file.h"
#include "launchlab/result.h"

namespace launchlab::files {

/// Saves a run's kept arrays as .npy: DIR/inputs/<input>.npy and DIR/<implementation>/<output>.npy.
/// Returns the number of files written; throws std::runtime_error naming the file that failed.
int saveRunArrays(const RunResult& r, const std::string& dir);

}  // namespace launchlab::files
