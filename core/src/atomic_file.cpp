#include "launchlab/io/atomic_file.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <stdexcept>

#include "posix_io.h"

namespace launchlab::files {

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
  ::chmod(tmpl.c_str(), 0644);
  if (std::rename(tmpl.c_str(), path.c_str()) != 0) {
    int err = errno;
    ::unlink(tmpl.c_str());
    throw std::runtime_error("cannot write " + path + ": " + std::strerror(err));
  }
}

}  // namespace launchlab::files
