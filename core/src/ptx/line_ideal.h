#pragma once
// The ideal of a source line's global accesses, shared by the line's sentence (describeLine) and its figures
// (the access profiler's per-line values).
#include "launchlab/ptx/ptx_counters.h"

namespace launchlab::ptx {

/// The fewest sectors a warp's global request of the line could touch: the bytes its lanes (on average) access, in
/// 32-byte sectors, at least one (4 for 32 lanes of 4-byte elements). 0 when it made no global request.
double idealSectorsPerRequest(const AccessCounterLine& l);

}  // namespace launchlab::ptx
