// Calling one implementation and turning its samples and exceptions into an ImplResult (impl_call.h).
#include "impl_call.h"

#include <algorithm>
#include <new>
#include <vector>

#include "launchlab/engine/cancel.h"
#include "launchlab/engine/errors.h"

namespace launchlab::detail {

namespace {

void finishStats(ImplResult& res, ImplContext& ctx) {
  std::size_t reps = 0;
  bool equal = true;
  for (const auto& [phase, s] : ctx.samples) {
    if (reps == 0) reps = s.size();
    equal = equal && s.size() == reps;
    res.phases[phase] = summarize(s);
  }
  if (ctx.samples.empty()) return;
  if (equal && reps > 0) {
    std::vector<double> totals(reps, 0.0);
    for (const auto& [phase, s] : ctx.samples)
      for (std::size_t i = 0; i < reps; ++i) totals[i] += s[i];
    res.phases[Phase::Total] = summarize(totals);
    // Without warm-up the first repetition is the cold one (for CUDA: lazy module load and first launch), shown
    // beside the median of the warm ones (the Session 3 caching lesson).
    if (ctx.warmup == 0) res.metrics["first_rep_total_ms"] = totals[0];
  } else {
    PhaseStats t;
    for (const auto& [phase, st] : res.phases) {
      t.medianMs += st.medianMs;
      t.minMs += st.minMs;
      t.maxMs += st.maxMs;
      t.samples = std::max(t.samples, st.samples);
    }
    res.phases[Phase::Total] = t;
  }
}

}  // namespace

ImplResult implResultFor(const ImplSpec& spec) {
  ImplResult res;
  res.implId = spec.id;
  res.title = spec.title;
  res.gpu = spec.isGpu();
  res.demonstration = spec.demonstration;
  return res;
}

ImplResult withStatus(ImplResult res, Status status, std::string reason) {
  res.status = status;
  res.reason = std::move(reason);
  return res;
}

void completeMeasurements(ImplResult& res, ImplContext& ctx, const Workload& w, const RunSetup& setup) {
  finishStats(res, ctx);
  res.bytesMoved = ctx.bytesMoved ? *ctx.bytesMoved : w.bytesMoved(setup);
  res.flops = ctx.flops ? *ctx.flops : w.flops(setup);
  const double ms = res.computeMedianMs();
  if (ms > 0) {
    res.bandwidthGBs = res.bytesMoved / (ms * 1e-3) / 1e9;
    res.gflops = res.flops / (ms * 1e-3) / 1e9;
  }
}

bool callImpl(const ImplSpec& spec, ImplContext& ctx, ImplResult& res) {
  try {
    spec.run(ctx);
  } catch (const Cancelled&) {
    return false;
  } catch (const InvalidLaunch& e) {
    res = withStatus(std::move(res), Status::Failed, std::string("invalid launch configuration: ") + e.what());
  } catch (const Unavailable& e) {
    res = withStatus(std::move(res), Status::Skipped, e.what());
  } catch (const std::bad_alloc&) {
    res = withStatus(std::move(res), Status::Failed, "not enough host memory");
  } catch (const std::exception& e) {
    res = withStatus(std::move(res), Status::Failed, e.what());
  }
  return true;
}

}  // namespace launchlab::detail
