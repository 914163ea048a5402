#include "launchlab/io/atomic_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <stdexcept>

#include "posix_io.h"

namespace launchlab::files {

namespace {
/// The file to replace: through a symbolic link, the file it names (the link stays). Never a device, a pipe or a
/// folder: renaming over one would replace it (/dev/null) instead of writing to it.
std::filesystem::path targetOf(const std::string& path) {
  namespace fs = std::filesystem;
  std::error_code ec;
  fs::path target(path);
  for (int hops = 0; hops < 40 && fs::is_symlink(target, ec); ++hops) {  // 40: the kernel's own limit (ELOOP)
    const fs::path to = fs::read_symlink(target, ec);
    target = to.is_absolute() ? to : target.parent_path() / to;
  }
  const fs::file_status existing = fs::status(target, ec);
  if (fs::exists(existing) && !fs::is_regular_file(existing))
    throw std::runtime_error("cannot write " + path + ": it exists and is not a regular file");
  return target;
}
}  // namespace

void writeAtomic(const std::string& path, std::string_view content) { writeAtomic(path, {content}); }

namespace {

[[noreturn]] void fail(const std::string& path, int err) {
  throw std::runtime_error("cannot write " + path + ": " + std::strerror(err));
}

/// Where the data goes before it replaces the file. Preferably an unnamed file in the folder (O_TMPFILE): a writer
/// killed midway then leaves nothing behind; it is given a name only once complete. Where the file system has no
/// unnamed files, a named temporary (".NAME.XXXXXX"), removed on every error.
struct Staging {
  int fd = -1;
  std::string named;  ///< the temporary's path, empty while the file has no name
};

Staging stage(const std::string& path, const std::filesystem::path& dir, const std::filesystem::path& target) {
#ifdef O_TMPFILE
  if (const int fd = ::open(dir.c_str(), O_TMPFILE | O_WRONLY | O_CLOEXEC, 0600); fd >= 0) return {fd, {}};
#endif
  std::string tmpl = (dir / ("." + target.filename().string() + ".XXXXXX")).string();
  const int fd = mkstemp(tmpl.data());
  if (fd < 0) fail(path, errno);
  return {fd, tmpl};
}

/// Gives an unnamed staging file a temporary name beside the target (rename needs one); the window in which a
/// kill leaves it behind is this call and the rename that follows, not the whole write.
void nameStaged(const std::string& path, const std::filesystem::path& dir, const std::filesystem::path& target, Staging& s) {
  if (!s.named.empty()) return;
  const std::string fdPath = "/proc/self/fd/" + std::to_string(s.fd);
  for (int attempt = 0; attempt < 100; ++attempt) {
    std::string tmpl = (dir / ("." + target.filename().string() + ".XXXXXX")).string();
    const int probe = mkstemp(tmpl.data());  // a unique name; linkat cannot replace it, so it is freed first
    if (probe < 0) fail(path, errno);
    ::close(probe);
    ::unlink(tmpl.c_str());
    if (::linkat(AT_FDCWD, fdPath.c_str(), AT_FDCWD, tmpl.c_str(), AT_SYMLINK_FOLLOW) == 0) {
      s.named = tmpl;
      return;
    }
    if (errno != EEXIST) fail(path, errno);
  }
  fail(path, EEXIST);
}

}  // namespace

void writeAtomic(const std::string& path, std::initializer_list<std::string_view> pieces) {
  namespace fs = std::filesystem;
  const fs::path target = targetOf(path);
  const fs::path dir = target.has_parent_path() ? target.parent_path() : fs::path(".");
  std::error_code ec;
  if (!fs::is_directory(dir, ec))
    throw std::runtime_error("cannot write " + path + ": folder " + dir.string() + " does not exist");
  Staging s = stage(path, dir, target);
  auto abandon = [&](int err) {
    if (s.fd >= 0) ::close(s.fd);
    if (!s.named.empty()) ::unlink(s.named.c_str());
    fail(path, err);
  };
  for (std::string_view content : pieces)
    if (int err = posix::writeAll(s.fd, content.data(), content.size())) abandon(err);
  if (::fsync(s.fd) != 0) abandon(errno);
  // A replaced file keeps its permissions; a new one is readable by all, as files created under the usual umask.
  struct stat old {};
  if (::fchmod(s.fd, ::stat(target.c_str(), &old) == 0 ? (old.st_mode & 07777) : 0644) != 0) abandon(errno);
  try {
    nameStaged(path, dir, target, s);
  } catch (const std::runtime_error&) {
    ::close(s.fd);
    throw;
  }
  const int closed = ::close(s.fd);
  s.fd = -1;
  if (closed != 0) abandon(errno);
  if (std::rename(s.named.c_str(), target.c_str()) != 0) abandon(errno);
  // The rename itself survives a power cut only once the folder is on disk.
  if (const int dfd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC); dfd >= 0) {
    ::fsync(dfd);
    ::close(dfd);
  }
}

}  // namespace launchlab::files
