// The run-file reader (.llrun, io/run_file.h) on arbitrary files: every input loads or throws BadInput (the reader
// caps what a small file may inflate to, so no input makes it allocate more than about 1100x its size).
#include <cstdint>
#include <cstdlib>

#include "fuzz_fd.h"
#include "launchlab/engine/errors.h"
#include "launchlab/files/run_file.h"

using namespace launchlab;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const fuzz::MemFile file(data, size);
  try {
    (void)runfile::load(file.path());
  } catch (const BadInput&) {
  }
  return 0;
}
