// `launchlab-cli worker` on an arbitrary stdin: the frame reader, the request decoder and the serving loop. The
// engine has no workloads, so a request that decodes fails fast in validation; every input ends with a return code
// of 0 (end of input) or 2 (a malformed frame), never a crash, a hang or an unbounded allocation.
#include <fcntl.h>
#include <unistd.h>

#include <cstdint>
#include <cstdlib>

#include "fuzz_fd.h"
#include "launchlab/engine/device.h"
#include "launchlab/engine/engine.h"
#include "launchlab/engine/registry.h"
#include "launchlab/worker/worker.h"

using namespace launchlab;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const Registry registry;
  static Engine engine(registry, makeUnavailableGpuRuntime("fuzzing: no GPU"));
  static const int devNull = ::open("/dev/null", O_WRONLY | O_CLOEXEC);
  const fuzz::MemFile in(data, size);
  const int rc = serveWorker(engine, in.fd(), devNull);
  if (rc != 0 && rc != 2) std::abort();
  return 0;
}
