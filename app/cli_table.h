#pragma once
// Human-readable rendering of results and device info for the CLI.
#include <string>

#include "launchlab/registry.h"
#include "launchlab/result.h"

namespace launchlab::cli {

std::string renderRun(const RunResult& r);
std::string renderDevice(const DeviceStatus& s, bool builtWithCuda);
std::string renderWorkloads(const Registry& reg);
/// "12.345" with a sensible number of digits for a millisecond figure.
std::string fmtMs(double ms);

}  // namespace launchlab::cli
