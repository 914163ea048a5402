#pragma once
// The workload folders' course files (kernels/<workload>/lesson.md, experiments.json, exercises.json, exercise*.cu),
// compiled into the library by cmake/EmbedCourse.cmake so that the installed programs need no source tree.
#include <cstddef>
#include <span>
#include <string_view>
#include <utility>
#include <vector>

namespace launchlab::embedded {

struct EmbeddedFile {
  const char* path;  ///< relative to kernels/, e.g. "hypot/lesson.md"
  const unsigned char* data;
  std::size_t size;
  std::string_view text() const { return {reinterpret_cast<const char*>(data), size}; }
};

/// Every embedded file, sorted by path.
std::span<const EmbeddedFile> courseFiles();

}  // namespace launchlab::embedded

namespace launchlab::embedded {

/// The files named `name` ("lesson.md") directly in a workload folder, as (workload id, file).
inline std::vector<std::pair<std::string_view, const EmbeddedFile*>> filesNamed(std::string_view name) {
  std::vector<std::pair<std::string_view, const EmbeddedFile*>> out;
  for (const auto& f : courseFiles()) {
    const std::string_view path = f.path;
    const auto slash = path.find('/');
    if (slash != std::string_view::npos && path.substr(slash + 1) == name) out.emplace_back(path.substr(0, slash), &f);
  }
  return out;
}

/// The embedded file at `path` (relative to kernels/), or an empty view when there is none.
inline std::string_view courseFile(std::string_view path) {
  for (const auto& f : courseFiles())
    if (path == f.path) return f.text();
  return {};
}

}  // namespace launchlab::embedded
