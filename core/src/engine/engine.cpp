#include "launchlab/engine/engine.h"

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <filesystem>
#include <iomanip>
#include <new>
#include <sstream>

#include "impl_call.h"
#include "launchlab/engine/errors.h"
#include "launchlab/files/npy.h"
#include "launchlab/files/parse.h"
#include "launchlab/worker/slurm.h"
#include "resolve.h"

namespace launchlab {

using detail::callImpl;
using detail::completeMeasurements;
using detail::implResultFor;
using detail::resolve;
using detail::Resolved;
using detail::withStatus;

namespace {

std::string gib(double bytes) {
  std::ostringstream o;
  o << std::fixed << std::setprecision(bytes < 1e9 ? 3 : 2) << bytes / double(1ull << 30) << " GiB";
  return o.str();
}

std::map<std::string, std::string> paramsAsText(const ParamValues& pv) {
  std::map<std::string, std::string> out;
  for (const auto& [k, v] : pv.numbers()) {
    std::ostringstream o;
    o << v;
    out[k] = o.str();
  }
  for (const auto& [k, v] : pv.choices()) out[k] = v;
  return out;
}

/// What the inputs and the reference depend on (before input files).
std::string setupText(const Workload& w, const RunSetup& s, const LaunchRequest& launch) {
  std::string t =
      w.info().id + "|" + std::to_string(s.n) + "|" + std::string(dtypeName(s.dtype)) + "|" + std::to_string(s.seed);
  for (const auto& [k, v] : paramsAsText(s.params)) t += "|" + k + "=" + v;
  if (w.info().referenceUsesLaunch)
    t += "|block=" + (launch.block ? formatDim3(*launch.block) : std::string("auto")) +
         "|grid=" + (launch.grid ? formatDim3(*launch.grid) : std::string("auto"));
  return t;
}

}  // namespace

Engine::Engine(const Registry& registry, std::shared_ptr<GpuRuntime> gpu)
    : m_registry(registry), m_gpu(gpu ? std::move(gpu) : makeUnavailableGpuRuntime("no GPU runtime")) {}

DeviceStatus Engine::deviceStatus() const { return m_gpu->status(); }

DeviceLimits Engine::launchLimits() const {
  auto st = m_gpu->status();
  return st.available ? st.info.limits : DeviceLimits::genericCuda();
}

DeviceLimits Engine::limitsFor(const RunRequest& req) const {
  const DeviceStatus st = m_gpu->status();
  if (req.device && deviceProblem(st, *req.device).empty()) return st.devices[std::size_t(*req.device)].limits;
  return launchLimits();
}

std::vector<RequestProblem> Engine::validate(const RunRequest& req) const {
  std::vector<RequestProblem> problems;
  if (req.device)
    if (std::string why = deviceProblem(m_gpu->status(), *req.device); !why.empty())
      problems.push_back({"device", why});
  // Never throws: the window validates on every change of its form, and an exception there would end it.
  try {
    resolve(m_registry, limitsFor(req), req, problems);
  } catch (const std::exception& e) {
    problems.push_back({"workload", std::string("the request could not be checked: ") + e.what()});
  }
  for (const auto& id : req.counters)
    if (!findCounter(id)) problems.push_back({"metrics", counterErrorMessage({CounterErrorKind::UnknownMetric, id})});
  return problems;
}

std::string Engine::bindDevice(const RunRequest& req) {
  if (req.device) return m_gpu->selectDevice(*req.device);
  const DeviceStatus st = m_gpu->status();
  return st.available && !st.devices.empty() ? m_gpu->selectDevice(st.info.index) : std::string();
}

namespace {

RunResult failedRun(RunResult out, std::string reason) {
  out.status = Status::Failed;
  out.reason = std::move(reason);
  return out;
}

void setSpeedups(RunResult& out) {
  const ImplResult* ref = out.find(kCpuSerial);
  if (!ref || ref->status != Status::Ok) return;
  const double refTotal = ref->totalMedianMs();
  for (auto& i : out.impls) {
    if (i.status != Status::Ok) continue;
    if (i.totalMedianMs() > 0) i.speedupTotal = refTotal / i.totalMedianMs();
    if (i.computeMedianMs() > 0) i.speedupCompute = refTotal / i.computeMedianMs();
  }
}

}  // namespace

RunResult Engine::run(const RunRequest& req, const CancelToken* cancel, const ProgressFn& progress) {
  RunResult out;
  out.workload = req.workload;
  out.seed = req.seed;
  out.warmup = req.warmup;
  out.reps = req.reps;
  out.requestedLaunch = req.launch;
  out.traceBlocks = req.traceBlocks;
  out.timestamp = nowIso8601();
  out.host = hostDescription();
  out.slurm = slurmPlacementOfThisProcess();
  const std::string unbound = bindDevice(req);  // first: every CUDA call of the run goes to this device
  out.device = m_gpu->status();
  out.device.devices.clear();  // a result names the device it ran on; `info` lists them all
  if (!unbound.empty()) return failedRun(std::move(out), unbound);

  std::vector<RequestProblem> problems;
  const Resolved r = resolve(m_registry, limitsFor(req), req, problems);
  if (!problems.empty()) return failedRun(std::move(out), problems.front().message);
  out.n = r.setup.n;
  out.dtype = std::string(dtypeName(r.setup.dtype));
  out.params = paramsAsText(r.setup.params);
  if (auto reason = prepareInputs(req, r); !reason.empty()) return failedRun(std::move(out), reason);

  const Job job{req, r, cancel, progress, out.device.info};
  // Who else is on the GPU, just before and just after the work: only for runs that use it.
  const bool onGpu = m_monitor && out.device.available &&
                     std::any_of(r.impls.begin(), r.impls.end(),
                                 [&](const ImplSpec* s) { return s->isGpu() && detail::selects(req, s->id); });
  GpuSample before;
  if (onGpu) before = m_monitor->sample(out.device.info.pciBusId);
  for (int idx = 0; idx < int(r.impls.size()); ++idx) {
    if (!req.verify && r.impls[std::size_t(idx)]->id == kCpuSerial && !detail::selects(req, kCpuSerial)) continue;
    bool cancelled = false;
    ImplResult res = runImpl(job, idx, cancelled);
    if (cancelled) {
      out.status = Status::Failed;
      out.reason = "cancelled";
      break;
    }
    out.impls.push_back(std::move(res));
  }
  if (onGpu)
    out.sharing = sharingRule(std::move(before), m_monitor->sample(out.device.info.pciBusId), unsigned(::getpid()),
                              unsigned(::getppid()));
  setSpeedups(out);
  if (req.keepInputs) out.inputs = m_cache.inputs;
  return out;
}

std::string Engine::prepareInputs(const RunRequest& req, const Resolved& r) {
  const std::string key = cacheKey(req, setupText(*r.workload, r.setup, req.launch));
  if (key != m_cache.key) clearCache();
  if (!m_cache.key.empty()) return {};
  try {
    // Host memory: inputs + reference outputs + one implementation's outputs (+ kept outputs).
    const double bound = r.workload->hostBytes(r.setup);  // inputs + one set of outputs
    const double need = bound * (req.keepOutputs ? double(r.impls.size() + 1) : 2.0);
    const std::size_t avail = hostAvailableMemory();
    if (avail && need > double(avail) * 0.9)
      return "not enough host memory: the run needs about " + gib(need) + ", " + gib(double(avail)) + " available";
    std::vector<HostArray> inputs = r.workload->makeInputs(r.setup);
    for (auto& a : inputs) {
      auto it = req.inputFiles.find(a.name());
      // Against the header resolve() checked: the file may have been replaced since.
      if (it != req.inputFiles.end()) a = npy::load(it->second, a.name(), r.inputHeaders.at(a.name()));
    }
    if (std::string bad = r.workload->checkInputs(r.setup, inputs); !bad.empty()) return bad;
    m_cache.key = key;
    m_cache.inputs = std::move(inputs);
  } catch (const std::bad_alloc&) {
    return "not enough host memory to allocate the inputs";
  } catch (const std::exception& e) {
    return e.what();
  }
  return {};
}

std::string Engine::gpuUnusableReason(const Workload& w, const RunSetup& setup, const std::string& deviceName) const {
  const DeviceStatus st = m_gpu->status();
  if (!st.available) return st.reason;
  auto [freeB, totalB] = m_gpu->memoryInfo();
  const double need = w.hostBytes(setup);
  if (freeB && need > double(freeB))
    return "not enough device memory: needs about " + gib(need) + ", " + gib(double(freeB)) + " free of " +
           gib(double(totalB)) + " on " + deviceName;
  return {};
}

ImplResult Engine::runImpl(const Job& job, int idx, bool& cancelled) {
  const ImplSpec& spec = *job.resolved.impls[std::size_t(idx)];
  const Workload& w = *job.resolved.workload;
  const RunSetup& setup = job.resolved.setup;
  const bool isRef = spec.id == kCpuSerial;
  const bool selected = detail::selects(job.req, spec.id);
  ImplResult res = implResultFor(spec);

  if (isRef && !selected && m_cache.referenceResult) {
    ImplResult cachedRef = *m_cache.referenceResult;
    cachedRef.verification.note = "the reference (cached from an earlier run with the same inputs)";
    if (job.req.keepOutputs) cachedRef.outputs = m_cache.referenceOutputs;
    return cachedRef;
  }
  if (!spec.run)
    return withStatus(std::move(res), Status::Skipped,
                      spec.unavailableReason.empty() ? "not built" : spec.unavailableReason);
  if (spec.isGpu()) {
    if (!m_gpu->status().available) return withStatus(std::move(res), Status::Skipped, m_gpu->status().reason);
    if (auto why = gpuUnusableReason(w, setup, job.device.name); !why.empty())
      return withStatus(std::move(res), Status::Failed, why);
  }

  std::vector<HostArray> outputs;
  try {
    outputs = w.makeOutputsFor(setup, m_cache.inputs);
    reuseScratch(outputs);
    if (!spec.isGpu())
      for (auto& o : outputs) o.poison();
  } catch (const std::bad_alloc&) {
    return withStatus(std::move(res), Status::Failed, "not enough host memory for the outputs");
  }

  ImplContext ctx(setup, m_cache.inputs, outputs);
  configure(ctx, job, spec, idx);

  if (spec.isGpu()) m_gpu->pushRange(w.info().id + ":" + spec.id);
  cancelled = !callImpl(spec, ctx, res);
  if (spec.isGpu()) {
    m_gpu->popRange();
    if (res.status == Status::Failed)
      if (std::string note = m_gpu->recoverAfterError(); !note.empty()) {
        res.reason += " (" + note + ")";
        res.cudaFault = true;  // the runtime only recovers from sticky errors
      }
  }
  if (cancelled) return res;
  if (res.status == Status::Ok && ctx.hostPoisonPending)
    return withStatus(std::move(res), Status::Failed,
                      "internal error: this GPU implementation neither ran the standard pipeline nor poisoned its host "
                      "outputs (ImplContext::poisonHostOutputs), so unwritten elements could pass unseen");
  res.launch = ctx.launched;
  res.launchNote = ctx.launchNote;
  res.kernelOccupancy = std::move(ctx.kernelOccupancy);
  res.blockTrace = std::move(ctx.blockTrace);
  res.deviceOutputs = std::move(ctx.deviceOutputs);
  res.metrics = ctx.metrics;
  if (res.status != Status::Ok) return res;
  completeMeasurements(res, ctx, w, setup);
  for (const auto& o : outputs)
    if (o.size() == 1) res.scalars[o.name()] = o.at(0);
  verifyRun(res, ctx, job, spec, outputs);
  if (spec.isGpu() && !job.req.counters.empty()) res.counters = profileCounters(job, spec);
  if (job.req.keepOutputs)
    res.outputs = std::move(outputs);
  else if (!outputs.empty() && outputs.front().data())
    m_cache.scratchOutputs = std::move(outputs);
  return res;
}

void Engine::configure(ImplContext& ctx, const Job& job, const ImplSpec& spec, int idx) const {
  const bool refOnly = spec.id == kCpuSerial && !detail::selects(job.req, spec.id);  // run for verification alone
  ctx.launch = job.req.launch;
  ctx.warmup = refOnly ? 0 : job.req.warmup;
  ctx.reps = refOnly ? 1 : job.req.reps;
  ctx.cancel = job.cancel;
  ctx.progress = job.progress;
  ctx.device = spec.isGpu() ? &job.device : nullptr;
  ctx.progressState = Progress{spec.id, idx, int(job.resolved.impls.size())};
  ctx.traceBlocks = job.req.traceBlocks && spec.isGpu();
  ctx.exportDeviceOutputs = job.req.exportDeviceOutputs && spec.isGpu();
  ctx.hostPoisonPending = spec.isGpu();  // the implementation poisons them (ImplContext::hostPoisonPending)
  if (spec.isGpu() && job.req.compareOnDevice && !m_cache.referenceOutputs.empty()) {
    ctx.compareReference = &m_cache.referenceOutputs;
    ctx.referenceGeneration = m_cache.referenceGeneration;
  }
}

void Engine::verifyRun(ImplResult& res, const ImplContext& ctx, const Job& job, const ImplSpec& spec,
                       std::vector<HostArray>& outputs) {
  const std::string copied = copyOutputsFromReference(spec, outputs);
  if (ctx.identicalToReference == true && copied.empty() && !spec.demonstration) {
    res.verification.outcome = Verification::Outcome::Pass;
    for (const auto& o : outputs) res.verification.compared += o.size();
    res.verification.note = "identical to cpu-serial's outputs, bit for bit (compared on the GPU)";
  } else {
    verifyInto(res, job, spec, outputs);
  }
  if (!copied.empty())
    res.verification.note += std::string(res.verification.note.empty() ? "" : "; ") + copied +
                             " not computed by this implementation (copied from cpu-serial)";
}

void Engine::reuseScratch(std::vector<HostArray>& outputs) {
  auto& scratch = m_cache.scratchOutputs;
  const bool same =
      scratch.size() == outputs.size() &&
      std::equal(scratch.begin(), scratch.end(), outputs.begin(), [](const HostArray& a, const HostArray& b) {
        return a.name() == b.name() && a.dtype() == b.dtype() && a.shape() == b.shape();
      });
  if (same) outputs.swap(scratch);  // the fresh arrays were never touched: freeing them costs nothing
  scratch.clear();
}

std::string Engine::copyOutputsFromReference(const ImplSpec& spec, std::vector<HostArray>& outputs) const {
  std::string names;
  for (auto& o : outputs) {
    if (std::find(spec.outputsFromReference.begin(), spec.outputsFromReference.end(), o.name()) ==
        spec.outputsFromReference.end())
      continue;
    for (const auto& ref : m_cache.referenceOutputs)
      if (ref.name() == o.name()) o = ref;
    names += (names.empty() ? "" : ", ") + o.name();
  }
  return names;
}

void Engine::verifyInto(ImplResult& res, const Job& job, const ImplSpec& spec, std::vector<HostArray>& outputs) {
  const RunSetup& setup = job.resolved.setup;
  if (spec.id == kCpuSerial) {
    res.verification.outcome = Verification::Outcome::Reference;
    res.verification.note = "the reference every other implementation is compared with";
    m_cache.referenceOutputs = job.req.keepOutputs ? outputs : std::move(outputs);
    static std::atomic<std::uint64_t> generations{0};
    m_cache.referenceGeneration = ++generations;
    m_cache.referenceResult = res;
    return;
  }
  if (!job.req.verify) {
    res.verification.outcome = Verification::Outcome::NotChecked;
    res.verification.note = "not verified: a live frame (cpu-serial is not run)";
    return;
  }
  if (m_cache.referenceOutputs.empty()) {
    res.verification.outcome = Verification::Outcome::NotChecked;
    res.verification.note = "no reference: cpu-serial did not run";
    return;
  }
  res.verification = job.resolved.workload->verifyLaunched(setup, m_cache.inputs, m_cache.referenceOutputs, outputs,
                                                           spec, res.launch ? &*res.launch : nullptr);
  settleDemonstration(res.verification, spec);
}

void Engine::clearCache() { m_cache = Cache{}; }

std::string Engine::cacheKey(const RunRequest& req, const std::string& setupKey) const {
  std::string key = setupKey;
  for (const auto& [name, path] : req.inputFiles) {
    std::error_code ec;
    auto size = std::filesystem::file_size(path, ec);
    auto mtime = std::filesystem::last_write_time(path, ec).time_since_epoch().count();
    key += "|" + name + "=" + path + "@" + std::to_string(size) + ":" + std::to_string(mtime);
  }
  return key;
}

bool Engine::cacheHolds(const RunRequest& req) const {
  std::vector<RequestProblem> problems;
  Resolved r = resolve(m_registry, limitsFor(req), req, problems);
  if (!problems.empty()) return false;
  return !m_cache.key.empty() && m_cache.key == cacheKey(req, setupText(*r.workload, r.setup, req.launch));
}

}  // namespace launchlab
