#pragma once
/// Atomic file writes: the low-level primitive under the .npy writer (npy.h) and the file helpers (files.h).
/// Depends on nothing else in io/.
#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

namespace launchlab::files {

/// Writes `content` to `path` atomically: a temporary file in the same folder, then rename.
/// Throws std::runtime_error naming the path and the reason; leaves no partial file behind.
void writeAtomic(const std::string& path, std::string_view content);
/// Same, for content given in pieces (written in order, no copy).
void writeAtomic(const std::string& path, std::initializer_list<std::string_view> pieces);

/// Several files replaced together: each add() writes its content aside (an unnamed file where the file system
/// has them), and commit() puts them all in place, so an error (or a kill) while writing leaves every file as it
/// was, never some new and some old. Destroyed without commit(): nothing is replaced, nothing left behind.
class StagedWrites {
 public:
  StagedWrites();
  ~StagedWrites();
  StagedWrites(const StagedWrites&) = delete;
  StagedWrites& operator=(const StagedWrites&) = delete;
  /// Throws std::runtime_error naming the path and the reason.
  void add(const std::string& path, std::initializer_list<std::string_view> pieces);
  void commit();

 private:
  struct Staged;
  std::vector<Staged> m_files;
};

}  // namespace launchlab::files
