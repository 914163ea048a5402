// The worker protocol's decoders (wire.h) on arbitrary messages: the request the worker reads from its parent, and
// the result, device status and progress the parent reads from its worker; and the parent's frame reader
// (frames.h) on an arbitrary stream. The first byte picks the decoder. Every input decodes or throws BadInput; a
// decoded request survives its own encoding unchanged; the frame reader gives the same frames, banner and problem
// whether the stream arrives whole or byte by byte, and never a frame over its cap.
#include <cstdint>
#include <cstdlib>
#include <string_view>
#include <utility>
#include <vector>

#include "launchlab/engine/errors.h"
#include "launchlab/worker/frames.h"
#include "launchlab/worker/wire.h"

using namespace launchlab;

namespace {
bool sameRequest(const RunRequest& a, const RunRequest& b) {
  return a.workload == b.workload && a.n == b.n && a.dtype == b.dtype && a.launch.block == b.launch.block &&
         a.launch.grid == b.launch.grid && a.impls == b.impls && a.warmup == b.warmup && a.reps == b.reps &&
         a.seed == b.seed && a.params == b.params && a.inputFiles == b.inputFiles && a.keepInputs == b.keepInputs &&
         a.keepOutputs == b.keepOutputs;
}
struct Read {
  std::vector<std::pair<char, std::string>> frames;
  std::string banner, problem;
  bool operator==(const Read&) const = default;
};

Read readAll(std::string_view bytes, std::size_t cut) {
  frames::FrameReader r(4096);
  for (std::size_t i = 0; i < bytes.size(); i += cut) r.feed(bytes.data() + i, std::min(cut, bytes.size() - i));
  Read out;
  char type = 0;
  std::string payload;
  while (r.next(type, payload)) {
    if (payload.size() > (type == 'Z' ? 4096 : frames::kMaxSmallFrameBytes)) std::abort();
    out.frames.emplace_back(type, payload);
  }
  out.banner = r.takeBanner();
  out.problem = r.problem();
  return out;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const std::string_view bytes(reinterpret_cast<const char*>(data) + 1, size - 1);
  try {
    switch (data[0] % 5) {
      case 0: {
        const RunRequest r = wire::decodeRequest(bytes);
        if (!sameRequest(wire::decodeRequest(wire::encodeRequest(r)), r)) std::abort();
        break;
      }
      case 1:
        wire::decodeResult(bytes);
        break;
      case 2:
        wire::decodeDevice(bytes);
        break;
      case 3:
        wire::decodeProgress(bytes);
        break;
      default:
        if (!(readAll(bytes, bytes.size() + 1) == readAll(bytes, 1))) std::abort();
        break;
    }
  } catch (const BadInput&) {
  }
  return 0;
}
