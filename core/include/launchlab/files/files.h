#pragma once
/// File helpers shared by the CLI and the GUI: atomic writes (atomic_file.h) and a run's arrays as .npy folders
/// (built on npy.h, which itself needs only atomic_file.h).
#include <string>

#include "launchlab/engine/result.h"
#include "launchlab/engine/workload.h"
#include "launchlab/files/atomic_file.h"

namespace launchlab::files {

/// Saves a run's kept arrays as .npy: DIR/inputs/<input>.npy and DIR/<implementation>/<output>.npy. With the
/// workload's description, a histogram output also gets DIR/<implementation>/<output>_bin_edges.npy: bins + 1
/// f64 edges (numpy.histogram's convention: bin i counts values in [edges[i], edges[i+1])).
/// Returns the number of files written; throws std::runtime_error naming the file that failed.
int saveRunArrays(const RunResult& r, const std::string& dir, const WorkloadInfo* workload = nullptr);

}  // namespace launchlab::files
