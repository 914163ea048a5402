#pragma once
// POSIX file-descriptor helpers shared by core's sources (not public API).
#include <unistd.h>

#include <cerrno>
#include <cstddef>

namespace launchlab::posix {

/// Writes all `n` bytes to `fd`, retrying after signals. Returns 0, or the errno that stopped it.
inline int writeAll(int fd, const char* p, std::size_t n) {
  while (n > 0) {
    const ssize_t w = ::write(fd, p, n);
    if (w < 0) {
      if (errno == EINTR) continue;
      return errno;
    }
    p += w;
    n -= std::size_t(w);
  }
  return 0;
}

}  // namespace launchlab::posix
