// The engine's counters: one more, untimed run of a GPU implementation's kernel phase under the counter profiler,
// kept out of the run loop (engine.cpp) so that loop reads as timing and verification alone.
#include <algorithm>
#include <new>
#include <string>
#include <vector>

#include "impl_call.h"
#include "launchlab/engine/engine.h"
#include "launchlab/explorer/roofline.h"
#include "launchlab/ptx/ptx_counters.h"
#include "resolve.h"

namespace launchlab {

using detail::callImpl;

ImplCounters Engine::profileCounters(const Job& job, const ImplSpec& spec) {
  auto failed = [&](CounterErrorKind kind, std::string why) {
    ImplCounters c;
    c.requested = job.req.counters;
    c.error = {kind, std::move(why)};
    return c;
  };
  if (!m_profiler) return failed(CounterErrorKind::Unsupported, "this program was built without the counter profiler");
  if (CounterError e = m_profiler->libraryProblem(); !e.ok()) return failed(e.kind, e.detail);
  std::vector<HostArray> outputs;
  try {
    outputs = job.resolved.workload->makeOutputsFor(job.resolved.setup, m_cache.inputs);
  } catch (const std::bad_alloc&) {
    return failed(CounterErrorKind::Failed, "not enough host memory for a second set of outputs");
  }
  // One repetition, no warm-up: CUPTI replays each kernel as many passes as the metrics need, restoring the memory
  // it writes between passes, so the values are those of one ordinary launch.
  ImplContext ctx(job.resolved.setup, m_cache.inputs, outputs);
  ctx.launch = job.req.launch;
  ctx.warmup = 0;
  ctx.reps = 1;
  ctx.cancel = job.cancel;
  ctx.device = &job.device;
  ctx.hostPoisonPending = true;
  ctx.kernelHook = m_profiler.get();
  const bool probed = ptx::accessProbesOf(m_profiler.get()) != nullptr;  // its kernels ran instrumented
  m_profiler->prepare(hardwareMetricsFor(job.req.counters));
  ImplResult scratch;
  m_gpu->pushRange(job.resolved.workload->info().id + ":" + spec.id + ":counters");
  const bool finished = callImpl(spec, ctx, scratch);
  m_gpu->popRange();
  RawCounters raw = m_profiler->finish();
  if (!finished) return failed(CounterErrorKind::Failed, "cancelled");
  // CUPTI refused after all (the driver's setting was not readable) and the profiler now measures from the kernel's
  // accesses: this implementation is measured again that way, so the student gets figures, not the refusal.
  if (raw.error.kind == CounterErrorKind::NotPermitted && !probed && ptx::accessProbesOf(m_profiler.get()))
    return profileCounters(job, spec);
  if (scratch.status != Status::Ok) {
    std::string why = "the profiled run failed: " + scratch.reason;
    if (std::string note = m_gpu->recoverAfterError(); !note.empty()) why += " (" + note + ")";
    return failed(CounterErrorKind::Failed, why);
  }
  double ceiling = 0;
  if (std::any_of(job.req.counters.begin(), job.req.counters.end(),
                  [](const std::string& id) { return findCounter(id) && findCounter(id)->overMemcpyCeiling; })) {
    double& known = m_memcpyCeilingGBs[job.device.index];
    if (known <= 0) known = measureCeilings(*m_gpu).copyGBs;  // the roofline's memory roof, measured once
    ceiling = known;
  }
  ImplCounters counters = deriveCounters(job.req.counters, raw, ceiling);
  if (probed && counters.error.ok()) {
    // The probes must leave the kernel's results as they were: an instrumented run is verified like any other.
    ImplResult check;
    check.launch = ctx.launched;
    copyOutputsFromReference(spec, outputs);
    verifyInto(check, job, spec, outputs);
    if (check.verification.outcome == Verification::Outcome::Fail)
      counters.error = {CounterErrorKind::Failed, "the instrumented kernels' outputs do not match cpu-serial's (" +
                                                      std::to_string(check.verification.mismatches) + " mismatches)"};
  }
  return counters;
}
}  // namespace launchlab
