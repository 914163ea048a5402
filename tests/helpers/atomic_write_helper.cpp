// Test helper: writes SIZE_MIB MiB of zero bytes to PATH through files::writeAtomic, the writer under every file the
// CLI and core write. tests/cli/test_atomic_kill.cpp kills it mid-write and checks that the old file survived.
// Usage: atomic_write_helper PATH SIZE_MIB. Exit codes: 0 written, 1 the write failed, 2 bad arguments.
#include <sys/mman.h>

#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string_view>

#include "launchlab/io/atomic_file.h"

int main(int argc, char** argv) {
  const long mib = argc == 3 ? std::strtol(argv[2], nullptr, 10) : 0;
  if (mib <= 0) {
    std::fprintf(stderr, "usage: atomic_write_helper PATH SIZE_MIB\n");
    return 2;
  }
  const std::size_t bytes = std::size_t(mib) << 20;
  // Untouched anonymous pages read as zeros without taking memory: a large write that costs no RAM.
  void* zeros = ::mmap(nullptr, bytes, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (zeros == MAP_FAILED) {
    std::perror("mmap");
    return 1;
  }
  try {
    launchlab::files::writeAtomic(argv[1], std::string_view(static_cast<const char*>(zeros), bytes));
  } catch (const std::exception& e) {
    std::fprintf(stderr, "%s\n", e.what());
    return 1;
  }
  return 0;
}
