#include "launchlab/files/atomic_file.h"

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

namespace {

[[noreturn]] void fail(const std::string& path, int err) {
  throw std::runtime_error("cannot write " + path + ": " + std::strerror(err));
}

/// A unique temporary name beside the target: ".NAME.XXXXXX".
std::string temporaryName(const std::filesystem::path& dir, const std::filesystem::path& target) {
  return (dir / ("." + target.filename().string() + ".XXXXXX")).string();
}

}  // namespace

/// One file written aside: preferably unnamed (O_TMPFILE), so that a writer killed midway leaves nothing behind;
/// it gets a temporary name only when committed. Where the file system has no unnamed files, a named temporary,
/// removed on every error.
struct StagedWrites::Staged {
  std::string path;  ///< as given, for messages
  std::filesystem::path target, dir;
  int fd = -1;
  std::string named;  ///< the temporary's path; empty while the file has no name

  void open() {
#ifdef O_TMPFILE
    fd = ::open(dir.c_str(), O_TMPFILE | O_WRONLY | O_CLOEXEC, 0600);
    if (fd >= 0) return;
#endif
    std::string tmpl = temporaryName(dir, target);
    fd = mkstemp(tmpl.data());
    if (fd < 0) fail(path, errno);
    named = tmpl;
  }
  /// Gives an unnamed file a temporary name (rename needs one). linkat cannot replace a name, so a unique one is
  /// reserved and freed first; another writer taking it in between only costs another try.
  void name() {
    if (!named.empty()) return;
    const std::string fdPath = "/proc/self/fd/" + std::to_string(fd);
    for (int attempt = 0; attempt < 100; ++attempt) {
      std::string tmpl = temporaryName(dir, target);
      const int probe = mkstemp(tmpl.data());
      if (probe < 0) fail(path, errno);
      ::close(probe);
      ::unlink(tmpl.c_str());
      if (::linkat(AT_FDCWD, fdPath.c_str(), AT_FDCWD, tmpl.c_str(), AT_SYMLINK_FOLLOW) == 0) {
        named = tmpl;
        return;
      }
      if (errno != EEXIST) fail(path, errno);
    }
    fail(path, EEXIST);
  }
  void discard() {
    if (fd >= 0) ::close(fd);
    fd = -1;
    if (!named.empty()) ::unlink(named.c_str());
    named.clear();
  }
};

StagedWrites::StagedWrites() = default;

StagedWrites::~StagedWrites() {
  for (auto& f : m_files) f.discard();
}

void StagedWrites::add(const std::string& path, std::initializer_list<std::string_view> pieces) {
  namespace fs = std::filesystem;
  Staged f;
  f.path = path;
  f.target = targetOf(path);
  f.dir = f.target.has_parent_path() ? f.target.parent_path() : fs::path(".");
  std::error_code ec;
  if (!fs::is_directory(f.dir, ec))
    throw std::runtime_error("cannot write " + path + ": folder " + f.dir.string() + " does not exist");
  f.open();
  m_files.push_back(f);
  Staged& s = m_files.back();
  for (std::string_view content : pieces)
    if (int err = posix::writeAll(s.fd, content.data(), content.size())) fail(path, err);
  if (::fsync(s.fd) != 0) fail(path, errno);
  // A replaced file keeps its permissions; a new one is readable by all, as files created under the usual umask.
  struct stat old {};
  if (::fchmod(s.fd, ::stat(s.target.c_str(), &old) == 0 ? (old.st_mode & 07777) : 0644) != 0) fail(path, errno);
}

void StagedWrites::commit() {
  for (auto& f : m_files) {
    f.name();
    const int closed = ::close(f.fd);
    f.fd = -1;
    if (closed != 0) fail(f.path, errno);
  }
  for (auto& f : m_files) {
    if (std::rename(f.named.c_str(), f.target.c_str()) != 0) fail(f.path, errno);
    f.named.clear();
    // The rename itself survives a power cut only once the folder is on disk.
    if (const int dfd = ::open(f.dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC); dfd >= 0) {
      ::fsync(dfd);
      ::close(dfd);
    }
  }
  m_files.clear();
}

void writeAtomic(const std::string& path, std::string_view content) { writeAtomic(path, {content}); }

void writeAtomic(const std::string& path, std::initializer_list<std::string_view> pieces) {
  StagedWrites w;
  w.add(path, pieces);
  w.commit();
}

}  // namespace launchlab::files
