#pragma once
// atomic_counter (TP 3.2, "Opérations atomiques"): n increments of one global counter, racing or atomic.
#include <cstdint>
#include <string>

#include "launchlab/engine/workload.h"

namespace launchlab::kernels::atomic_counter {

/// Fills ctx.metrics with expected, observed and lost_updates (= expected - observed, as a signed number).
void recordCounts(ImplContext& ctx, std::uint64_t expected, std::uint32_t observed);

/// The race's lesson in numbers: "lost 99.2 % of the increments (4063 of 4096)", the share rounded no further
/// than keeps it below 100 % while one increment survived.
std::string lostText(std::uint64_t lost, std::uint64_t n);

void cudaRace(ImplContext& ctx);
void cudaAtomic(ImplContext& ctx);
void cudaWarpAggregated(ImplContext& ctx);

}  // namespace launchlab::kernels::atomic_counter
