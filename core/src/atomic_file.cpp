#include "launchlab/io/atomic_file.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <stdexcept>

namespace launchlab::files {

namespace {
/// Writes all of `content` to fd; returns 0 or the errno that stopped it.
int writePiece(int fd, std::string_view content) {
  const char* p = content.data();
  std::size_t left = content.size();
  while (left > 0) {
    ssize_t w = ::write(fd, p, left);
    if (w < 0) {
      if (errno == EINTR) continue;
      return errno;
    }
    p += w;
    left -= std::size_t(w);
  }
  return 0;
}
}  // namespace

void writeAtomic(const std::string& path, std::string_view content) { writeAtomic(path, {content}); }

void writeAtomic(const std::string& path, std::initializer_list<std::string_view> pieces) {
  namespace fs = std::filesystem;
  fs::path target(path);
  fs::path dir = target.has_parent_path() ? target.parent_path() : fs::path(".");
  std::error_code ec;
  if (!fs::is_directory(dir, ec))
    throw std::runtime_error("cannot write " + path + ": folder " + dir.string() + " does not exist");
  std::string tmpl = (dir / ("." + target.filename().string() + ".XXXXXX")).string();
  int fd = mkstemp(tmpl.data());
  if (fd < 0) throw std::runtime_error("cannot write " + path + ": " + std::strerror(errno));
  for (std::string_view content : pieces) {
    if (int err = writePiece(fd, content)) {
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
  ::chmod(tmpl.c_str(), 0644);
  if (std::rename(tmpl.c_str(), path.c_str()) != 0) {
    int err = errno;
    ::unlink(tmpl.c_str());
    throw std::runtime_error("cannot write " + path + ": " + std::strerror(err));
  }
}

}  // namespace launchlab::files
