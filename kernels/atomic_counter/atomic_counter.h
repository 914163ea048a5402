#pragma once
// atomic_counter (TP 3.2, "Opérations atomiques"): n increments of one global counter, racing or atomic.
#include <cstdint>

#include "launchlab/workload.h"

namespace launchlab::kernels::atomic_counter {

/// Fills ctx.metrics with expected, observed and lost_updates (= expected - observed, as a signed number).
void recordCounts(ImplContext& ctx, std::uint64_t expected, std::uint32_t observed);

void cudaRace(ImplContext& ctx);
void cudaAtomic(ImplContext& ctx);
void cudaWarpAggregated(ImplContext& ctx);

}  // namespace launchlab::kernels::atomic_counter
