// The access probes as a counter profiler (launchlab/ptx/ptx_counters.h): the records of a profiled kernel phase become
// the hardware metrics' values the catalogue derives its counters from.
#include <algorithm>
#include <chrono>

#include "launchlab/explorer/kernel_resources.h"
#include "launchlab/ptx/ptx_counters.h"
#include "line_ideal.h"

namespace launchlab::ptx {

namespace {

/// The catalogue's metric names: counter `id`'s first numerator or denominator.
std::string metricOf(const char* id, bool denominator = false) {
  const CounterInfo* c = findCounter(id);
  const auto& names = denominator ? c->denominator : c->numerator;
  return names.empty() ? std::string() : names.front();
}

/// A line's sums as the figures a table shows.
CounterLine lineOf(const AccessCounterLine& l) {
  CounterLine out{l.file, l.line, std::string(kindName(l.kind)), {}, describeLine(l)};
  const auto& s = l.sums;
  const auto per = [](std::uint64_t a, std::uint64_t b) { return double(a) / double(b); };
  if (s[kExecutions] == 0) return out;
  out.values["requests"] = double(s[kExecutions]);
  out.values["active_lanes_pct"] = 100.0 * per(s[kLanes], s[kExecutions]) / kWarpLanes;
  if (s[kGlobalRequests] > 0) {
    out.values["global_requests"] = double(s[kGlobalRequests]);
    out.values["sectors_per_request"] = per(s[kSectors], s[kGlobalRequests]);
    out.values["ideal_sectors_per_request"] = idealSectorsPerRequest(l);
  }
  if (s[kSharedRequests] > 0) {
    out.values["shared_requests"] = double(s[kSharedRequests]);
    out.values["wavefronts_per_request"] = per(s[kWavefronts], s[kSharedRequests]);
    out.values["bank_conflicts"] = double(s[kWavefronts] - s[kIdealWavefronts]);
  }
  return out;
}

}  // namespace

AccessProbeSession* accessProbesOf(KernelPhaseHook* hook) {
  auto* s = dynamic_cast<AccessProbeSession*>(hook);
  return s && s->probing() ? s : nullptr;
}

void AccessProfiler::prepare(const std::vector<std::string>& hardwareMetrics) {
  m_metrics = hardwareMetrics;
  m_records.clear();
  m_loaded = false;
  m_module.reset();
  m_launched.clear();
  m_started = std::chrono::steady_clock::now();
}

const PtxInstrumentation& AccessProfiler::instrument(std::string_view ptx) {
  if (ptx != m_source || m_source.empty()) {
    m_inst = instrumentPtx(ptx);
    m_source = std::string(ptx);
  }
  m_records.assign(std::size_t(m_inst.records) * kRecordFields, 0);
  m_loaded = m_inst.ok();
  return m_inst;
}

void AccessProfiler::addRecords(const std::vector<std::uint64_t>& records) {
  for (std::size_t i = 0; i < std::min(records.size(), m_records.size()); ++i) m_records[i] += records[i];
}

void AccessProfiler::launched(const std::string& entry) {
  if (std::find(m_launched.begin(), m_launched.end(), entry) == m_launched.end()) m_launched.push_back(entry);
}

RawRange AccessProfiler::rangeOf(const PtxInstrumentation& inst, const std::string& kernel, RawCounters& raw) const {
  const auto c = reduceRecords(inst, m_records);
  RawRange range;
  KernelRecord name;
  splitKernelName(demangle(kernel), name);
  range.kernel = name.name;
  const CounterInfo& shared = *findCounter("shared_wavefronts_per_request");
  const std::map<std::string, double> measured = {
      {metricOf("sectors_per_request"), double(c.loads[kSectors])},
      {metricOf("sectors_per_request", true), double(c.loads[kGlobalRequests])},
      {metricOf("store_sectors_per_request"), double(c.stores[kSectors])},
      {metricOf("store_sectors_per_request", true), double(c.stores[kGlobalRequests])},
      {metricOf("bank_conflicts_ld"), double(c.loads[kWavefronts] - c.loads[kIdealWavefronts])},
      {metricOf("bank_conflicts_st"), double(c.stores[kWavefronts] - c.stores[kIdealWavefronts])},
      {shared.numerator.at(0), double(c.loads[kWavefronts])},
      {shared.numerator.at(1), double(c.stores[kWavefronts])},
      {shared.denominator.at(0), double(c.loads[kSharedRequests])},
      {shared.denominator.at(1), double(c.stores[kSharedRequests])},
      {metricOf("warp_execution_efficiency"), double(c.all[kLanes])},
      {metricOf("warp_execution_efficiency", true), double(c.all[kExecutions])},
  };
  for (const auto& m : m_metrics) {
    if (const auto it = measured.find(m); it != measured.end())
      range.metrics[m] = it->second;
    else
      raw.unsupportedMetrics[m] = std::string("not ") + std::string(kAccessSource);
  }
  return range;
}

RawCounters AccessProfiler::finish() {
  RawCounters raw;
  raw.source = std::string(kAccessSource);
  if (m_module) addRecords(m_module->records());
  m_module.reset();  // unloads the run's kernels
  // What measuring cost: instrumenting, the JIT, the instrumented run and reading the records back.
  raw.profileMs = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - m_started).count();
  if (!m_loaded) {
    raw.error = {CounterErrorKind::Unsupported,
                 "this implementation's kernels were not launched through the access probes (only the memory "
                 "lessons' built-in kernels and a kernel of your own are); 'launchlab-cli instrument W --impl ID' "
                 "lists what they count"};
    m_lines.emplace_back();
    return raw;
  }
  // A built-in implementation: the module holds every kernel of its workload; each one launched is a range.
  // Accesses in device functions (.func, rare: nvcc inlines) are the first kernel's.
  std::vector<PtxInstrumentation> kernels;
  for (const auto& entry : m_launched) {
    PtxInstrumentation& one = kernels.emplace_back();
    one.kernels = {entry};
    for (const auto& a : m_inst.accesses) {
      const bool inEntry = std::find(m_inst.kernels.begin(), m_inst.kernels.end(), a.function) != m_inst.kernels.end();
      if (a.function == entry || (!inEntry && kernels.size() == 1)) one.accesses.push_back(a);
    }
  }
  PtxInstrumentation launched;
  for (const auto& k : kernels) {
    launched.accesses.insert(launched.accesses.end(), k.accesses.begin(), k.accesses.end());
    raw.ranges.push_back(rangeOf(k, k.kernels.front(), raw));
  }
  const PtxInstrumentation& whole = kernels.empty() ? m_inst : launched;
  if (kernels.empty())
    raw.ranges.push_back(rangeOf(m_inst, m_inst.kernels.empty() ? std::string("kernel") : m_inst.kernels.front(), raw));
  raw.passes = 1;
  std::vector<std::string> words;
  for (const auto& l : reduceRecords(whole, m_records).lines) {
    raw.lines.push_back(lineOf(l));
    words.push_back(raw.lines.back().text);
  }
  m_lines.push_back(std::move(words));
  return raw;
}

}  // namespace launchlab::ptx
