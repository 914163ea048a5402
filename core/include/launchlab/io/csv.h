#pragma once
/// CSV forms: one row per implementation (timings, throughput, verification).
#include <string>

#include "launchlab/result.h"

namespace launchlab::csv {

std::string runResult(const RunResult& r);

}  // namespace launchlab::csv
