#include "launchlab/engine.h"

#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <ctime>
#include <fstream>
#include <iomanip>
#include <new>
#include <sstream>
#include <thread>

#include "launchlab/errors.h"
#include "launchlab/io/npy.h"
#include "launchlab/parse.h"

namespace launchlab {

namespace {

std::string gib(double bytes) {
  std::ostringstream o;
  o << std::fixed << std::setprecision(bytes < 1e9 ? 3 : 2) << bytes / double(1ull << 30) << " GiB";
  return o.str();
}

std::string joinIds(const std::vector<ImplSpec>& impls) {
  std::string s;
  for (const auto& i : impls) s += (s.empty() ? "" : ", ") + i.id;
  return s;
}

struct Resolved {
  const Workload* workload = nullptr;
  RunSetup setup;
  std::vector<const ImplSpec*> impls;  // reference first
  std::map<std::string, npy::Header> inputHeaders;
};

/// Validates and resolves a request. Problems are appended to `problems`.
Resolved resolve(const Registry& reg, const DeviceLimits& limits, const RunRequest& req,
                 std::vector<RequestProblem>& problems) {
  Resolved r;
  r.workload = reg.find(req.workload);
  if (!r.workload) {
    std::string known;
    for (const auto& id : reg.ids()) known += (known.empty() ? "" : ", ") + id;
    problems.push_back({"workload", "unknown workload '" + req.workload + "' (known: " + known + ")"});
    return r;
  }
  const auto& info = r.workload->info();

  // Input files: check their headers now so bad files are reported before anything runs.
  for (const auto& [name, path] : req.inputFiles) {
    bool known = std::any_of(info.inputs.begin(), info.inputs.end(), [&](const ArraySpec& s) { return s.name == name; });
    if (!known) {
      std::string list;
      for (const auto& s : info.inputs) list += (list.empty() ? "" : ", ") + s.name;
      problems.push_back({"input:" + name, "workload " + info.id + " has no input '" + name + "' (inputs: " + list + ")"});
      continue;
    }
    try {
      r.inputHeaders[name] = npy::loadHeader(path);
    } catch (const std::exception& e) {
      problems.push_back({"input:" + name, e.what()});
    }
  }

  // dtype: given, else from an input file, else the workload's default.
  DType dtype = info.defaultDType;
  if (req.dtype) dtype = *req.dtype;
  else if (!r.inputHeaders.empty()) dtype = r.inputHeaders.begin()->second.dtype;
  if (std::find(info.dtypes.begin(), info.dtypes.end(), dtype) == info.dtypes.end()) {
    std::string list;
    for (auto t : info.dtypes) list += (list.empty() ? "" : ", ") + std::string(dtypeName(t));
    problems.push_back({"dtype", info.id + " does not support dtype " + std::string(dtypeName(dtype)) + " (supported: " + list + ")"});
  }
  r.setup.dtype = dtype;

  std::string perr;
  if (auto pv = resolveParams(info.params, req.params, perr)) r.setup.params = std::move(*pv);
  else problems.push_back({"param", perr});
  r.setup.seed = req.seed;

  // n: given, else inferred from the first input file (its element count, or its rows for matrix inputs: the
  // n whose expected shape matches the file), else the default.
  std::uint64_t n = info.defaultN;
  if (req.n) {
    n = *req.n;
  } else if (!r.inputHeaders.empty() && problems.empty()) {
    const auto& [name, h] = *r.inputHeaders.begin();
    std::size_t index = 0;
    while (index < info.inputs.size() && info.inputs[index].name != name) ++index;
    n = h.elements();
    for (std::uint64_t candidate : {h.elements(), h.shape.empty() ? std::uint64_t(1) : std::uint64_t(h.shape[0])}) {
      RunSetup probe = r.setup;
      probe.n = candidate;
      auto shapes = r.workload->inputShapes(probe);
      if (index < shapes.size() && shapes[index] == h.shape) {
        n = candidate;
        break;
      }
    }
  }
  if (n < info.minN || n > info.maxN)
    problems.push_back({"n", "n = " + std::to_string(n) + " is outside " + info.id + "'s range [" +
                                 std::to_string(info.minN) + ", " + std::to_string(info.maxN) + "]"});
  r.setup.n = n;

  if (req.reps < 1 || req.reps > 100000) problems.push_back({"reps", "reps must be between 1 and 100000"});
  if (req.warmup < 0 || req.warmup > 100000) problems.push_back({"warmup", "warmup must be between 0 and 100000"});

  // Launch: dimensionality and device limits.
  if (req.launch.dims() > info.launchDims)
    problems.push_back({req.launch.block && (req.launch.block->y > 1 || req.launch.block->z > 1) ? "block" : "grid",
                        info.id + " uses a 1D launch: give single numbers for block and grid (e.g. --block 256 --grid 4224)"});
  if (auto e = validateLaunchRequest(req.launch, limits); !e.empty())
    problems.push_back({e.rfind("grid", 0) == 0 ? "grid" : "block", e});

  // Implementations: reference first, then the selection in registry order.
  const ImplSpec* ref = r.workload->findImpl(kCpuSerial);
  if (ref) r.impls.push_back(ref);
  std::vector<std::string> wanted = req.impls;
  bool all = wanted.empty() || std::find(wanted.begin(), wanted.end(), "all") != wanted.end();
  for (const auto& w : wanted) {
    if (w == "all") continue;
    if (!r.workload->findImpl(w))
      problems.push_back({"impl", "unknown implementation '" + w + "' for " + info.id + " (known: " + joinIds(r.workload->impls()) + ")"});
  }
  for (const auto& spec : r.workload->impls()) {
    if (&spec == ref) continue;
    if (all || std::find(wanted.begin(), wanted.end(), spec.id) != wanted.end()) r.impls.push_back(&spec);
  }

  if (problems.empty()) {
    if (auto e = r.workload->validate(r.setup); !e.empty()) problems.push_back({"param", e});
  }
  // Input files must match the expected shapes and dtype.
  if (problems.empty()) {
    auto shapes = r.workload->inputShapes(r.setup);
    for (std::size_t i = 0; i < info.inputs.size(); ++i) {
      auto it = r.inputHeaders.find(info.inputs[i].name);
      if (it == r.inputHeaders.end()) continue;
      const auto& h = it->second;
      if (h.dtype != r.setup.dtype)
        problems.push_back({"input:" + it->first, req.inputFiles.at(it->first) + " holds " + std::string(dtypeName(h.dtype)) +
                                                      " but the run is " + std::string(dtypeName(r.setup.dtype))});
      else if (h.shape != shapes[i]) {
        auto fmt = [](const std::vector<std::size_t>& s) {
          std::string t = "(";
          for (std::size_t k = 0; k < s.size(); ++k) t += (k ? ", " : "") + std::to_string(s[k]);
          return t + (s.size() == 1 ? ",)" : ")");
        };
        problems.push_back({"input:" + it->first, req.inputFiles.at(it->first) + " has shape " + fmt(h.shape) +
                                                      ", expected " + fmt(shapes[i])});
      }
    }
  }
  return r;
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
  std::string t = w.info().id + "|" + std::to_string(s.n) + "|" + std::string(dtypeName(s.dtype)) + "|" +
                  std::to_string(s.seed);
  for (const auto& [k, v] : paramsAsText(s.params)) t += "|" + k + "=" + v;
  if (w.info().referenceUsesLaunch)
    t += "|block=" + (launch.block ? formatDim3(*launch.block) : std::string("auto")) +
         "|grid=" + (launch.grid ? formatDim3(*launch.grid) : std::string("auto"));
  return t;
}

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

Engine::Engine(const Registry& registry, std::shared_ptr<GpuRuntime> gpu)
    : m_registry(registry), m_gpu(gpu ? std::move(gpu) : makeUnavailableGpuRuntime("no GPU runtime")) {}

DeviceStatus Engine::deviceStatus() const { return m_gpu->status(); }

DeviceLimits Engine::launchLimits() const {
  auto st = m_gpu->status();
  return st.available ? st.info.limits : DeviceLimits::genericCuda();
}

std::vector<RequestProblem> Engine::validate(const RunRequest& req) const {
  std::vector<RequestProblem> problems;
  resolve(m_registry, launchLimits(), req, problems);
  return problems;
}

RunResult Engine::run(const RunRequest& req, const CancelToken* cancel, const ProgressFn& progress) {
  RunResult out;
  out.workload = req.workload;
  out.seed = req.seed;
  out.warmup = req.warmup;
  out.reps = req.reps;
  out.timestamp = nowIso8601();
  out.host = hostDescription();
  out.device = m_gpu->status();

  std::vector<RequestProblem> problems;
  Resolved r = resolve(m_registry, launchLimits(), req, problems);
  if (!problems.empty()) {
    out.status = Status::Failed;
    out.reason = problems.front().message;
    return out;
  }
  const Workload& w = *r.workload;
  const RunSetup& setup = r.setup;
  out.n = setup.n;
  out.dtype = std::string(dtypeName(setup.dtype));
  out.params = paramsAsText(setup.params);

  // Cache key: everything the inputs and the reference depend on.
  const std::string key = cacheKey(req, setupText(w, setup, req.launch));
  if (key != m_cache.key) clearCache();

  std::vector<HostArray> freshInputs;
  const bool cached = !m_cache.key.empty();
  try {
    // Host memory: inputs + reference outputs + one implementation's outputs (+ kept outputs).
    const double outBytes = w.bytesMoved(setup);  // upper bound on inputs + outputs
    const double need = outBytes * (req.keepOutputs ? double(r.impls.size() + 1) : 2.0);
    const std::size_t avail = hostAvailableMemory();
    if (!cached && avail && need > double(avail) * 0.9) {
      out.status = Status::Failed;
      out.reason = "not enough host memory: the run needs about " + gib(need) + ", " + gib(double(avail)) + " available";
      return out;
    }
    if (!cached) {
      freshInputs = w.makeInputs(setup);
      for (auto& a : freshInputs) {
        auto it = req.inputFiles.find(a.name());
        if (it != req.inputFiles.end()) a = npy::load(it->second, a.name());
      }
      m_cache.key = key;
      m_cache.inputs = std::move(freshInputs);
    }
  } catch (const std::bad_alloc&) {
    out.status = Status::Failed;
    out.reason = "not enough host memory to allocate the inputs";
    return out;
  } catch (const std::exception& e) {
    out.status = Status::Failed;
    out.reason = e.what();
    return out;
  }

  // The cache owns the inputs and the reference outputs; implementations and verification read them in place.
  const std::vector<HostArray>& inputs = m_cache.inputs;
  const std::vector<HostArray>& reference = m_cache.referenceOutputs;
  const int count = static_cast<int>(r.impls.size());
  for (int idx = 0; idx < count; ++idx) {
    const ImplSpec& spec = *r.impls[idx];
    ImplResult res;
    res.implId = spec.id;
    res.title = spec.title;
    res.gpu = spec.isGpu();
    res.demonstration = spec.demonstration;
    const bool isRef = spec.id == kCpuSerial;
    const bool selected = req.impls.empty() ||
                          std::find(req.impls.begin(), req.impls.end(), "all") != req.impls.end() ||
                          std::find(req.impls.begin(), req.impls.end(), spec.id) != req.impls.end();

    if (isRef && !selected && m_cache.referenceResult) {
      ImplResult cachedRef = *m_cache.referenceResult;
      cachedRef.verification.note = "the reference (cached from an earlier run with the same inputs)";
      if (req.keepOutputs) cachedRef.outputs = m_cache.referenceOutputs;
      out.impls.push_back(std::move(cachedRef));
      continue;
    }
    if (!spec.run) {
      res.status = Status::Skipped;
      res.reason = spec.unavailableReason.empty() ? "not built" : spec.unavailableReason;
      out.impls.push_back(std::move(res));
      continue;
    }
    if (spec.isGpu() && !m_gpu->status().available) {
      res.status = Status::Skipped;
      res.reason = m_gpu->status().reason;
      out.impls.push_back(std::move(res));
      continue;
    }
    if (spec.isGpu()) {
      auto [freeB, totalB] = m_gpu->memoryInfo();
      const double need = w.bytesMoved(setup);
      if (freeB && need > double(freeB)) {
        res.status = Status::Failed;
        res.reason = "not enough device memory: needs about " + gib(need) + ", " + gib(double(freeB)) + " free of " +
                     gib(double(totalB)) + " on " + out.device.info.name;
        out.impls.push_back(std::move(res));
        continue;
      }
    }

    std::vector<HostArray> outputs;
    try {
      outputs = w.makeOutputs(setup);
      for (auto& o : outputs) o.poison();
    } catch (const std::bad_alloc&) {
      res.status = Status::Failed;
      res.reason = "not enough host memory for the outputs";
      out.impls.push_back(std::move(res));
      continue;
    }

    ImplContext ctx(setup, inputs, outputs);
    ctx.launch = req.launch;
    ctx.warmup = (isRef && !selected) ? 0 : req.warmup;
    ctx.reps = (isRef && !selected) ? 1 : req.reps;
    ctx.cancel = cancel;
    ctx.progress = progress;
    ctx.device = spec.isGpu() ? &out.device.info : nullptr;
    ctx.progressState.implId = spec.id;
    ctx.progressState.implIndex = idx;
    ctx.progressState.implCount = count;

    bool cancelled = false;
    if (spec.isGpu()) m_gpu->pushRange(w.info().id + ":" + spec.id);
    try {
      spec.run(ctx);
    } catch (const Cancelled&) {
      cancelled = true;
    } catch (const InvalidLaunch& e) {
      res.status = Status::Failed;
      res.reason = std::string("invalid launch configuration: ") + e.what();
    } catch (const std::bad_alloc&) {
      res.status = Status::Failed;
      res.reason = "not enough host memory";
    } catch (const std::exception& e) {
      res.status = Status::Failed;
      res.reason = e.what();
    }
    if (spec.isGpu()) {
      m_gpu->popRange();
      if (res.status == Status::Failed) {
        std::string note = m_gpu->recoverAfterError();
        if (!note.empty()) res.reason += " (" + note + ")";
      }
    }
    if (cancelled) {
      out.status = Status::Failed;
      out.reason = "cancelled";
      break;
    }
    res.launch = ctx.launched;
    res.launchNote = ctx.launchNote;
    res.metrics = ctx.metrics;
    if (res.status == Status::Ok) {
      finishStats(res, ctx);
      res.bytesMoved = ctx.bytesMoved ? *ctx.bytesMoved : w.bytesMoved(setup);
      res.flops = ctx.flops ? *ctx.flops : w.flops(setup);
      const double ms = res.computeMedianMs();
      if (ms > 0) {
        res.bandwidthGBs = res.bytesMoved / (ms * 1e-3) / 1e9;
        res.gflops = res.flops / (ms * 1e-3) / 1e9;
      }
      if (isRef) {
        res.verification.outcome = Verification::Outcome::Reference;
        res.verification.note = "the reference every other implementation is compared with";
        m_cache.referenceOutputs = req.keepOutputs ? outputs : std::move(outputs);
        m_cache.referenceResult = res;
      } else if (reference.empty()) {
        res.verification.outcome = Verification::Outcome::NotChecked;
        res.verification.note = "no reference: cpu-serial did not run";
      } else {
        res.verification = w.verifyWithInputs(setup, inputs, reference, outputs, spec);
        if (spec.demonstration) {
          res.verification.outcome = Verification::Outcome::Demonstration;
          if (res.verification.note.empty()) res.verification.note = spec.description;
        }
      }
      if (req.keepOutputs) res.outputs = std::move(outputs);
    }
    out.impls.push_back(std::move(res));
  }

  // Speedups against cpu-serial.
  if (const ImplResult* ref = out.find(kCpuSerial); ref && ref->status == Status::Ok) {
    const double refTotal = ref->totalMedianMs();
    for (auto& i : out.impls) {
      if (i.status != Status::Ok) continue;
      if (i.totalMedianMs() > 0) i.speedupTotal = refTotal / i.totalMedianMs();
      if (i.computeMedianMs() > 0) i.speedupCompute = refTotal / i.computeMedianMs();
    }
  }
  if (req.keepInputs) out.inputs = inputs;
  return out;
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
  Resolved r = resolve(m_registry, launchLimits(), req, problems);
  if (!problems.empty()) return false;
  return !m_cache.key.empty() && m_cache.key == cacheKey(req, setupText(*r.workload, r.setup, req.launch));
}

double Engine::measureHostCopyBandwidthGBs(std::size_t bytes, int reps) {
  const std::size_t n = bytes / sizeof(double);
  HostArray a("a", DType::F64, {n}), b("b", DType::F64, {n});
  auto av = a.view<double>();
  auto bv = b.view<double>();
  // First touch by the threads that will use the pages.
#pragma omp parallel for schedule(static)
  for (std::size_t i = 0; i < n; ++i) {
    av[i] = double(i);
    bv[i] = 0;
  }
  std::vector<double> times;
  for (int r = 0; r < reps + 1; ++r) {
    auto t0 = std::chrono::steady_clock::now();
#pragma omp parallel for simd schedule(static)
    for (std::size_t i = 0; i < n; ++i) bv[i] = av[i];
    auto t1 = std::chrono::steady_clock::now();
    if (r > 0) times.push_back(std::chrono::duration<double, std::milli>(t1 - t0).count());
  }
  const double ms = summarize(times).medianMs;
  return ms > 0 ? 2.0 * double(n * sizeof(double)) / (ms * 1e-3) / 1e9 : 0;
}

std::string hostDescription() {
  std::ifstream f("/proc/cpuinfo");
  std::string line, model = "unknown CPU";
  while (std::getline(f, line)) {
    if (line.rfind("model name", 0) == 0) {
      auto p = line.find(':');
      if (p != std::string::npos) model = line.substr(p + 2);
      break;
    }
  }
  return model + " (" + std::to_string(omp_get_max_threads()) + " OpenMP threads)";
}

std::size_t hostAvailableMemory() {
  std::ifstream f("/proc/meminfo");
  std::string key;
  std::size_t kb = 0;
  std::string unit;
  while (f >> key >> kb >> unit)
    if (key == "MemAvailable:") return kb * 1024;
  return 0;
}

std::string nowIso8601() {
  auto t = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

}  // namespace launchlab
