#pragma once
// Human-readable rendering of results and device info for the CLI.
#include <string>

#include "launchlab/engine/registry.h"
#include "launchlab/engine/result.h"
#include "launchlab/explorer/sweep.h"

namespace launchlab::cli {

std::string renderRun(const RunResult& r);
/// Blocks on SMs: the summary lines of every traced implementation (and which GPU ones were not instrumented); ""
/// when the run has no block trace. Part of renderRun.
std::string renderBlockTraces(const RunResult& r);
std::string renderDevice(const DeviceStatus& s, bool builtWithCuda);
std::string renderWorkloads(const Registry& reg);
/// One line per sweep point: the axis values, the implementation, the launch, the median, GB/s and the outcome.
std::string renderSweep(const std::vector<std::string>& fields, const std::vector<SweepPoint>& points);
/// "12.345" with a sensible number of digits for a millisecond figure.
std::string fmtMs(double ms);
/// A table cell: `s` padded to width `w` (right-aligned when `right`), then one space.
std::string pad(std::string s, std::size_t w, bool right = false);
/// One number with a printf format ("%.1f").
std::string num(double v, const char* format);

}  // namespace launchlab::cli
