// The PTX instrumenting pass (ptx_instrument.h) on arbitrary text: no crash, an error is one line, and every access
// found is counted (with a record of its own) or named with its reason.
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "launchlab/ptx/ptx_instrument.h"

using namespace launchlab;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto r = ptx::instrumentPtx(std::string_view(reinterpret_cast<const char*>(data), size));
  if (!r.ok()) {
    if (r.error.find('\n') != std::string::npos) std::abort();
    return 0;
  }
  int counted = 0;
  for (const auto& a : r.accesses) {
    if (a.instrumented() == !a.reason.empty()) std::abort();
    if (a.instrumented() && a.counter != counted++) std::abort();
  }
  if (counted != r.records) std::abort();
  return 0;
}
