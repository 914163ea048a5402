#pragma once
/// Atomic file writes: the low-level primitive under the .npy writer (npy.h) and the file helpers (files.h).
/// Depends on nothing else in io/.
#include <initializer_list>
#include <string>
#include <string_view>

namespace launchlab::files {

/// Writes `content` to `path` atomically: a temporary file in the same folder, then rename.
/// Throws std::runtime_error naming the path and the reason; leaves no partial file behind.
void writeAtomic(const std::string& path, std::string_view content);
/// Same, for content given in pieces (written in order, no copy).
void writeAtomic(const std::string& path, std::initializer_list<std::string_view> pieces);

}  // namespace launchlab::files
