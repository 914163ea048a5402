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

void writeAtomic(const std::string& path, std::initializer_list<std::string_view> pieces) {
  namespace fs = std::filesystem;
  const fs::path target = targetOf(path);
  const fs::path dir = target.has_parent_path() ? target.parent_path() : fs::path(".");
  std::error_code ec;
  if (!fs::is_directory(dir, ec))
    throw std::runtime_error("cannot write " + path + ": folder " + dir.string() + " does not exist");
  std::string tmpl = (dir / ("." + target.filename().string() + ".XXXXXX")).string();
  int fd = mkstemp(tmpl.data());
  if (fd < 0) throw std::runtime_error("cannot write " + path + ": " + std::strerror(errno));
  for (std::string_view content : pieces) {
    if (int err = posix::writeAll(fd, content.data(), content.size())) {
      ::close(fd);
      ::unlink(tmpl.c_str());
      throw std::runtime_error("cannot write " + path + ": " + std::strerror(err));
    }
  }
  if (::fsync(fd) != 0 || ::close(fd) != 0) {
    int err = errno;
    ::unlink(tmpl.c_str());
    throw std::runtime_error("cannot write " + path + ": " + std::strerror(err));
  }
  // A replaced file keeps its permissions; a new one is readable by all, as files created under the usual umask.
  struct stat old {};
  ::chmod(tmpl.c_str(), ::stat(target.c_str(), &old) == 0 ? (old.st_mode & 07777) : 0644);
  if (std::rename(tmpl.c_str(), target.c_str()) != 0) {
    int err = errno;
    ::unlink(tmpl.c_str());
    throw std::runtime_error("cannot write " + path + ": " + std::strerror(err));
  }
  // The rename itself survives a power cut only once the folder is on disk.
  if (const int dfd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC); dfd >= 0) {
    ::fsync(dfd);
    ::close(dfd);
  }
}

}  // namespace launchlab::files
