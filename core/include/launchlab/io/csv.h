#pragma once
/// CSV forms: one row per implementation (timings, throughput, verification).
#include <string>

#include "launchlab/result.h"

namespace launchlab::csv {

std::string runResult(const RunResult& r);
/// One CSV field: quoted (with doubled quotes) when it holds a comma, quote or newline.
std::string field(const std::string& s);

}  // namespace launchlab::csv
