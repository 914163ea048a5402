#pragma once
/// Internal to the engine: calling one implementation and turning what it did into an ImplResult. Shared by the run
/// loop (engine.cpp) and the counters' extra run (engine_counters.cpp).
#include <string>

#include "launchlab/engine/result.h"
#include "launchlab/engine/workload.h"

namespace launchlab::detail {

/// An implementation's result before it runs: its id, title and kind.
ImplResult implResultFor(const ImplSpec& spec);
ImplResult withStatus(ImplResult res, Status status, std::string reason);
/// Calls the implementation; run-time problems become the result's status and reason. Returns false when cancelled.
bool callImpl(const ImplSpec& spec, ImplContext& ctx, ImplResult& res);
/// Medians → GB/s and GFLOP/s, with the implementation's own byte and FLOP counts where it gave them.
void completeMeasurements(ImplResult& res, ImplContext& ctx, const Workload& w, const RunSetup& setup);

}  // namespace launchlab::detail
