#pragma once
// launchlab-cli profile (and run --counters): hardware counters beside a run, a table per implementation.
#include <string>

#include "launchlab/engine/counters.h"
#include "launchlab/engine/device.h"
#include "launchlab/engine/result.h"
#include "launchlab/profiler/fallback_profiler.h"

namespace launchlab::cli {

/// Why `profile` cannot measure on this machine (no GPU or driver, CUPTI missing) as its one line, or "".
std::string profileBlocker(const DeviceStatus& status, CounterProfiler& profiler);
/// The profiler whose figures renderCounters prints (its source heads the table) and whether it adds each source
/// line's figures (profile --by-line); the program's one profiler, set once by main.
void showCountersFrom(const profiler::FallbackProfiler* profiler, bool byLine);
/// Every GPU implementation's counters: a table each (metric, value, unit, meaning), then each kernel's values
/// when it launched more than one kernel; an implementation whose counters failed gets its one-line reason.
std::string renderCounters(const RunResult& r);
/// When no implementation measured counters: the first implementation's counter error (its one line), else "".
std::string countersFailure(const RunResult& r);
/// The help of --metrics: the syntax and every id with its unit and meaning.
std::string metricsHelp();

}  // namespace launchlab::cli
