#pragma once
/// CSV forms: one row per implementation (timings, throughput, verification), each row carrying the run's seed,
/// repetitions, warm-up runs and parameters ("name=value;…"). A skipped or failed implementation has empty
/// bandwidth, speedup, error and mismatch cells (it measured nothing), not 0.
#include <string>

#include "launchlab/engine/result.h"

namespace launchlab::csv {

std::string runResult(const RunResult& r);
/// One CSV field: quoted (with doubled quotes) when it holds a comma, quote or newline.
std::string field(const std::string& s);

}  // namespace launchlab::csv
