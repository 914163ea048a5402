#pragma once
// For the kill-mid-write helpers: SIZE_MIB from argv, and that many zero bytes that cost no RAM (untouched
// anonymous pages read as zeros).
#include <sys/mman.h>

#include <cstdio>
#include <cstdlib>

namespace launchlab::test {

/// The byte count of argv[2] in MiB (1 to 4096), or 0 after the usage line on stderr.
inline std::size_t sizeArgument(int argc, char** argv, const char* program) {
  const long mib = argc == 3 ? std::strtol(argv[2], nullptr, 10) : 0;
  if (mib <= 0 || mib > 4096) {
    std::fprintf(stderr, "usage: %s PATH SIZE_MIB (1 to 4096)\n", program);
    return 0;
  }
  return std::size_t(mib) << 20;
}

/// `bytes` zero bytes, read-only, or nullptr after perror.
inline const char* zeroPages(std::size_t bytes) {
  void* zeros = ::mmap(nullptr, bytes, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (zeros == MAP_FAILED) {
    std::perror("mmap");
    return nullptr;
  }
  return static_cast<const char*>(zeros);
}

}  // namespace launchlab::test
