// The access probes as a counter profiler (launchlab/ptx_counters.h): the records of a profiled kernel phase become
// the hardware metrics' values the catalogue derives its counters from.
#include <algorithm>

#include "launchlab/ptx_counters.h"

namespace launchlab::ptx {

namespace {

/// The catalogue's metric names: counter `id`'s first numerator or denominator.
std::string metricOf(const char* id, bool denominator = false) {
  const CounterInfo* c = findCounter(id);
  const auto& names = denominator ? c->denominator : c->numerator;
  return names.empty() ? std::string() : names.front();
}

}  // namespace

AccessProbeSession* accessProbesOf(KernelPhaseHook* hook) {
  auto* s = dynamic_cast<AccessProbeSession*>(hook);
  return s && s->probing() ? s : nullptr;
}

void AccessProfiler::prepare(const std::vector<std::string>& hardwareMetrics) {
  m_metrics = hardwareMetrics;
  m_inst = {};
  m_records.clear();
  m_loaded = false;
}

const PtxInstrumentation& AccessProfiler::instrument(std::string_view ptx) {
  m_inst = instrumentPtx(ptx);
  m_records.assign(std::size_t(m_inst.records) * kRecordFields, 0);
  m_loaded = m_inst.ok();
  return m_inst;
}

void AccessProfiler::addRecords(const std::vector<std::uint64_t>& records) {
  for (std::size_t i = 0; i < std::min(records.size(), m_records.size()); ++i) m_records[i] += records[i];
}

RawCounters AccessProfiler::finish() {
  RawCounters raw;
  if (!m_loaded) {
    raw.error = {CounterErrorKind::Unsupported,
                 "this implementation's kernels are compiled in; the access probes measure kernels loaded from PTX (a "
                 "kernel of your own: --kernel-file). 'launchlab-cli instrument W --impl ID' lists what they count"};
    m_lines.emplace_back();
    return raw;
  }
  const auto c = reduceRecords(m_inst, m_records);
  RawRange range;
  range.kernel = m_inst.kernels.empty() ? std::string("kernel") : m_inst.kernels.front();
  const std::map<std::string, double> measured = {
      {metricOf("sectors_per_request"), double(c.loads[kSectors])},
      {metricOf("sectors_per_request", true), double(c.loads[kGlobalRequests])},
      {metricOf("store_sectors_per_request"), double(c.stores[kSectors])},
      {metricOf("store_sectors_per_request", true), double(c.stores[kGlobalRequests])},
      {metricOf("bank_conflicts_ld"), double(c.loads[kWavefronts] - c.loads[kIdealWavefronts])},
      {metricOf("bank_conflicts_st"), double(c.stores[kWavefronts] - c.stores[kIdealWavefronts])},
      {metricOf("warp_execution_efficiency"), double(c.all[kLanes])},
      {metricOf("warp_execution_efficiency", true), double(c.all[kExecutions])},
  };
  for (const auto& m : m_metrics) {
    if (const auto it = measured.find(m); it != measured.end())
      range.metrics[m] = it->second;
    else
      raw.unsupportedMetrics[m] = std::string("not ") + std::string(kAccessSource);
  }
  raw.ranges.push_back(std::move(range));
  raw.passes = 1;
  std::vector<std::string> words;
  for (const auto& l : c.lines) words.push_back(describeLine(l));
  m_lines.push_back(std::move(words));
  return raw;
}

}  // namespace launchlab::ptx
