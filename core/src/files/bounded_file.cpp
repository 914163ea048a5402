#include "launchlab/files/bounded_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace launchlab::files {

namespace {

std::string kindProblem(mode_t mode) {
  if (S_ISDIR(mode)) return "is a folder, not a file";
  if (S_ISFIFO(mode)) return "is a pipe (FIFO), not a regular file";
  if (S_ISCHR(mode) || S_ISBLK(mode)) return "is a device, not a regular file";
  if (S_ISSOCK(mode)) return "is a socket, not a regular file";
  return S_ISREG(mode) ? "" : "is not a regular file";
}

std::string systemError(int e) { return e == ENOENT ? "no such file" : std::strerror(e); }

}  // namespace

std::string byteCount(std::size_t bytes) {
  if (bytes >= (std::size_t(1) << 20) && bytes % (std::size_t(1) << 20) == 0)
    return std::to_string(bytes >> 20) + " MiB";
  if (bytes >= 1024 && bytes % 1024 == 0) return std::to_string(bytes >> 10) + " KiB";
  return std::to_string(bytes) + " bytes";
}

int openRegularFile(const std::string& path, std::string& error) {
  // stat first, so that a device is never opened (opening one can have effects); then open without blocking (a
  // FIFO swapped in meanwhile opens at once instead of waiting for a writer) and check what was opened.
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) {
    error = path + ": " + systemError(errno);
    return -1;
  }
  if (std::string why = kindProblem(st.st_mode); !why.empty()) {
    error = path + ": " + why;
    return -1;
  }
  const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
  if (fd < 0) {
    error = path + ": " + systemError(errno);
    return -1;
  }
  std::string why = ::fstat(fd, &st) != 0 ? std::string(std::strerror(errno)) : kindProblem(st.st_mode);
  if (why.empty() && ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) & ~O_NONBLOCK) != 0) why = std::strerror(errno);
  if (!why.empty()) {
    ::close(fd);
    error = path + ": " + why;
    return -1;
  }
  return fd;
}

FileBytes readBoundedFile(const std::string& path, std::size_t maxBytes) {
  FileBytes out;
  const int fd = openRegularFile(path, out.error);
  if (fd < 0) return out;
  char buffer[1 << 16];
  for (;;) {
    const ssize_t n = ::read(fd, buffer, sizeof buffer);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      out.error = path + ": cannot be read (" + std::strerror(errno) + ")";
      break;
    }
    if (n == 0) break;
    if (out.bytes.size() + std::size_t(n) > maxBytes) {
      out.error = path + ": larger than " + byteCount(maxBytes) + ", far more than such a file holds";
      break;
    }
    out.bytes.append(buffer, std::size_t(n));
  }
  ::close(fd);
  if (!out.ok()) out.bytes = std::string();
  return out;
}

}  // namespace launchlab::files
