#pragma once
/// The one way the programs read a whole file that someone else may have put there (a course folder's *.json, a
/// sweep file, a kernel file, the window's settings and presets): regular files only, and never more than a cap.
///
/// A FIFO is never opened blocking (an open for reading would wait for a writer that never comes), a device is
/// refused before it is opened, and the bytes are counted as they are read, so a file whose reported size is 0
/// (/dev/zero, /proc) cannot grow past the cap. Depends on nothing else in io/.
#include <cstddef>
#include <string>

namespace launchlab::files {

/// Caps per kind of file: each far above what a real one holds, far below what hurts.
inline constexpr std::size_t kMaxCourseFileBytes = std::size_t(4) << 20;    ///< a --course-dir *.json
inline constexpr std::size_t kMaxSettingsFileBytes = std::size_t(4) << 20;  ///< the window's launchlab.conf
inline constexpr std::size_t kMaxPresetFileBytes = std::size_t(1) << 20;    ///< one saved or imported preset

/// A whole file's bytes, or why they were not read: "<path>: <reason>" (no such file, a folder, not a regular file,
/// larger than the cap, or the system's error).
struct FileBytes {
  std::string bytes;
  std::string error;  ///< "" when `bytes` is the whole file
  bool ok() const { return error.empty(); }
};

/// Reads `path` whole if it is a regular file (a symbolic link to one is followed) of at most `maxBytes`. Never
/// blocks on a FIFO and never reads more than `maxBytes` + 1 bytes. Never throws (but std::bad_alloc).
FileBytes readBoundedFile(const std::string& path, std::size_t maxBytes);

/// Opens `path` for reading, without blocking, if it is a regular file; returns the descriptor (O_CLOEXEC, blocking
/// mode restored), or -1 with `error` set to "<path>: <reason>". For readers that stream (.npy arrays).
int openRegularFile(const std::string& path, std::string& error);

/// "4 MiB", "256 KiB", "300 bytes": a cap as the messages say it.
std::string byteCount(std::size_t bytes);

}  // namespace launchlab::files
