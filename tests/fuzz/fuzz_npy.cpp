// The .npy reader on arbitrary files: every input loads or throws BadInput, and a loaded array holds what the
// header announced.
#include <cstdint>
#include <cstdlib>

#include "fuzz_fd.h"
#include "launchlab/engine/errors.h"
#include "launchlab/files/npy.h"

using namespace launchlab;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const fuzz::MemFile file(data, size);
  try {
    const npy::Header h = npy::loadHeader(file.path());
    const HostArray a = npy::load(file.path(), "x");
    if (a.shape() != h.shape || a.dtype() != h.dtype || h.dataOffset + a.bytes() > size) std::abort();
  } catch (const BadInput&) {
  }
  try {
    npy::parseHeaderDict(std::string(reinterpret_cast<const char*>(data), size));
  } catch (const BadInput&) {
  }
  return 0;
}
