#pragma once
// The fuzzed bytes as a file descriptor (an anonymous in-memory file), for readers that take a path or an fd.
#include <sys/mman.h>
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

namespace launchlab::fuzz {

/// An in-memory file holding `size` bytes, positioned at its start; closed on destruction.
class MemFile {
 public:
  MemFile(const std::uint8_t* data, std::size_t size) : m_fd(::memfd_create("fuzz", 0)) {
    if (m_fd < 0) std::abort();
    std::size_t done = 0;
    while (done < size) {
      const ssize_t w = ::write(m_fd, data + done, size - done);
      if (w <= 0) std::abort();
      done += std::size_t(w);
    }
    ::lseek(m_fd, 0, SEEK_SET);
  }
  ~MemFile() { ::close(m_fd); }
  MemFile(const MemFile&) = delete;
  MemFile& operator=(const MemFile&) = delete;
  int fd() const { return m_fd; }
  /// A path that opens this file.
  std::string path() const { return "/proc/self/fd/" + std::to_string(m_fd); }

 private:
  int m_fd;
};

}  // namespace launchlab::fuzz
