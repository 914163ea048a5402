#pragma once
/// File helpers shared by the CLI and the GUI.
#include <initializer_list>
#include <string>
#include <string_view>

#include "launchlab/result.h"

namespace launchlab::files {

/// Writes `content` to `path` atomically: a temporary file in the same folder, then rename.
/// Throws std::runtime_error naming the path and the reason; leaves no partial file behind.
void writeAtomic(const std::string& path, std::string_view content);
/// Same, for content given in pieces (written in order, no copy).
void writeAtomic(const std::string& path, std::initializer_list<std::string_view> pieces);
/// Saves a run's kept arrays as .npy: DIR/inputs/<input>.npy and DIR/<implementation>/<output>.npy.
/// Returns the number of files written; throws std::runtime_error naming the file that failed.
int saveRunArrays(const RunResult& r, const std::string& dir);

}  // namespace launchlab::files
