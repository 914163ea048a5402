// The worker protocol's decoders (wire.h) on arbitrary messages: the request the worker reads from its parent, and
// the result, device status and progress the parent reads from its worker. The first byte picks the decoder. Every
// input decodes or throws BadInput; a decoded request survives its own encoding unchanged.
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "launchlab/errors.h"
#include "launchlab/io/wire.h"

using namespace launchlab;

namespace {
bool sameRequest(const RunRequest& a, const RunRequest& b) {
  return a.workload == b.workload && a.n == b.n && a.dtype == b.dtype && a.launch.block == b.launch.block &&
         a.launch.grid == b.launch.grid && a.impls == b.impls && a.warmup == b.warmup && a.reps == b.reps &&
         a.seed == b.seed && a.params == b.params && a.inputFiles == b.inputFiles && a.keepInputs == b.keepInputs &&
         a.keepOutputs == b.keepOutputs;
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const std::string_view bytes(reinterpret_cast<const char*>(data) + 1, size - 1);
  try {
    switch (data[0] % 4) {
      case 0: {
        const RunRequest r = wire::decodeRequest(bytes);
        if (!sameRequest(wire::decodeRequest(wire::encodeRequest(r)), r)) std::abort();
        break;
      }
      case 1: wire::decodeResult(bytes); break;
      case 2: wire::decodeDevice(bytes); break;
      default: wire::decodeProgress(bytes); break;
    }
  } catch (const BadInput&) {
  }
  return 0;
}
