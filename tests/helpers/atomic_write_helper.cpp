// Test helper: writes SIZE_MIB MiB of zero bytes to PATH through files::writeAtomic, the writer under every file the
// CLI and core write. tests/cli/test_atomic_kill.cpp kills it mid-write and checks that the old file survived.
// Usage: atomic_write_helper PATH SIZE_MIB. Exit codes: 0 written, 1 the write failed, 2 bad arguments.
#include <cstdio>
#include <exception>
#include <string_view>

#include "launchlab/files/atomic_file.h"
#include "zero_pages.h"

int main(int argc, char** argv) {
  const std::size_t bytes = launchlab::test::sizeArgument(argc, argv, "atomic_write_helper");
  if (bytes == 0) return 2;
  const char* zeros = launchlab::test::zeroPages(bytes);
  if (!zeros) return 1;
  try {
    launchlab::files::writeAtomic(argv[1], std::string_view(zeros, bytes));
  } catch (const std::exception& e) {
    std::fprintf(stderr, "%s\n", e.what());
    return 1;
  }
  return 0;
}
