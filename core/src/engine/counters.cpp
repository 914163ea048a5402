#include "launchlab/engine/counters.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace launchlab {

namespace {

// Nsight Compute's metric names (the range profiler takes the same ones).
constexpr const char* kLdSectors = "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum";
constexpr const char* kLdRequests = "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum";
constexpr const char* kStSectors = "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum";
constexpr const char* kStRequests = "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum";
constexpr const char* kDramRead = "dram__bytes_read.sum";
constexpr const char* kDramWrite = "dram__bytes_write.sum";
constexpr const char* kBankLd = "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum";
constexpr const char* kBankSt = "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum";
// A shared-memory instruction's wavefronts (passes through the data banks): 1 per 32-bit request without conflicts.
constexpr const char* kShWavesLd = "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum";
constexpr const char* kShWavesSt = "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum";
constexpr const char* kShInstLd = "smsp__sass_inst_executed_op_shared_ld.sum";
constexpr const char* kShInstSt = "smsp__sass_inst_executed_op_shared_st.sum";
constexpr const char* kDuration = "gpu__time_duration.sum";  // nanoseconds
constexpr const char* kWarpInst = "smsp__inst_executed.sum";
constexpr const char* kThreadInst = "smsp__thread_inst_executed.sum";

using V = std::vector<std::string>;

/// Where the memory traffic goes: coalescing, the caches, DRAM and shared memory's banks.
void addMemoryCounters(std::vector<CounterInfo>& c) {
  auto add = [&](CounterInfo i) { c.push_back(std::move(i)); };
  add({"sectors_per_request", "sectors / request (loads)",
       "32-byte sectors one warp's global load touches: 4 when 32 threads read 32 neighbouring floats, 32 when each "
       "reads its own sector",
       "sectors", V{kLdSectors}, V{kLdRequests}});
  add({"store_sectors_per_request", "sectors / request (stores)",
       "32-byte sectors one warp's global store touches (4 coalesced floats, 32 strided)", "sectors", V{kStSectors},
       V{kStRequests}});
  add({"global_load_efficiency",
       "global load efficiency",
       "bytes the threads asked for per byte of the sectors fetched: 100 % when nothing fetched is wasted",
       "%",
       V{"smsp__sass_average_data_bytes_per_sector_mem_global_op_ld.pct"},
       {},
       1,
       kLdSectors});
  add({"l1_hit_rate",
       "L1 hit rate",
       "sectors found in the SM's L1 cache rather than fetched from L2",
       "%",
       V{"l1tex__t_sector_hit_rate.pct"},
       {},
       1,
       "l1tex__t_sectors.sum"});
  add({"l2_hit_rate",
       "L2 hit rate",
       "sectors found in the L2 cache rather than fetched from DRAM",
       "%",
       V{"lts__t_sector_hit_rate.pct"},
       {},
       1,
       "lts__t_sectors.sum"});
  add({"dram_bytes_read", "DRAM read", "bytes read from the GPU's memory (DRAM), all kernels together", "bytes",
       V{kDramRead}});
  add({"dram_bytes_written", "DRAM written", "bytes written to the GPU's memory (DRAM)", "bytes", V{kDramWrite}});
  add({"dram_bytes", "DRAM traffic", "bytes read from and written to DRAM", "bytes", V{kDramRead, kDramWrite}});
  add({"bank_conflicts", "bank conflicts",
       "extra shared-memory cycles because threads of a warp hit the same bank (loads and stores)", "conflicts",
       V{kBankLd, kBankSt}});
  add({"bank_conflicts_ld", "bank conflicts (loads)", "shared-memory bank conflicts of loads", "conflicts",
       V{kBankLd}});
  add({"bank_conflicts_st", "bank conflicts (stores)", "shared-memory bank conflicts of stores", "conflicts",
       V{kBankSt}});
  // Beside bank_conflicts: the hardware's conflict counter also counts cycles a shared access waits for the data
  // banks for other reasons, where its wavefronts per instruction count only the passes the addresses need.
  add({"shared_wavefronts_per_request", "wavefronts / shared request",
       "passes through shared memory's 32 banks per warp-level shared access: 1 without conflicts (32-bit words), "
       "up to 32 when every lane hits one bank",
       "wavefronts", V{kShWavesLd, kShWavesSt}, V{kShInstLd, kShInstSt}});
}

/// How the SMs execute: occupancy, divergence, the schedulers' choice, instructions, and bandwidth against memcpy.
void addExecutionCounters(std::vector<CounterInfo>& c) {
  auto add = [&](CounterInfo i) { c.push_back(std::move(i)); };
  add({"achieved_occupancy",
       "achieved occupancy",
       "warps resident on an SM on average, as % of the most it can hold (kernels weighted by duration)",
       "%",
       V{"sm__warps_active.avg.pct_of_peak_sustained_active"},
       {},
       1,
       kDuration});
  add({"theoretical_occupancy",
       "theoretical occupancy",
       "the most warps the launch's block size, registers and shared memory allow per SM, as % of the hardware's",
       "%",
       V{"sm__maximum_warps_per_active_cycle_pct"},
       {},
       1,
       kDuration});
  add({"warp_execution_efficiency", "warp execution efficiency",
       "threads active per instruction, as % of the warp's 32: below 100 % when branches diverge", "%", V{kThreadInst},
       V{kWarpInst}, 100.0 / 32});
  add({"eligible_warps_per_cycle",
       "eligible warps / cycle",
       "warps ready to issue per scheduler and cycle: below 1 the scheduler often has nothing to run",
       "warps",
       V{"smsp__warps_eligible.avg.per_cycle_active"},
       {},
       1,
       kDuration});
  add({"instructions", "instructions", "warp instructions executed (one per warp, however many threads are active)",
       "instructions", V{kWarpInst}});
  CounterInfo bw{"bandwidth_pct_of_memcpy",
                 "% of cudaMemcpy",
                 "DRAM bytes per second of kernel time, as % of the cudaMemcpy bandwidth measured on this GPU",
                 "%",
                 V{kDramRead, kDramWrite},
                 V{kDuration},
                 100};
  bw.overMemcpyCeiling = true;
  add(bw);
}

std::vector<CounterInfo> makeCatalogue() {
  std::vector<CounterInfo> c;
  addMemoryCounters(c);
  addExecutionCounters(c);
  return c;
}

double sumOf(const std::vector<std::string>& names, const std::map<std::string, double>& m, bool& missing) {
  double s = 0;
  for (const auto& n : names) {
    auto it = m.find(n);
    if (it == m.end() || !std::isfinite(it->second))
      missing = true;
    else
      s += it->second;
  }
  return s;
}

/// scale × Σnum / Σden over one set of metric values; nullopt when a metric is missing or the denominator is 0.
std::optional<double> ratio(const CounterInfo& c, const std::map<std::string, double>& m) {
  bool missing = false;
  const double num = sumOf(c.numerator, m, missing);
  const double den = c.denominator.empty() ? 1.0 : sumOf(c.denominator, m, missing);
  if (missing || den == 0) return std::nullopt;
  return c.scale * num / den;
}

void addInto(std::map<std::string, double>& into, const std::map<std::string, double>& from) {
  for (const auto& [k, v] : from) into[k] += v;
}

/// Why counter `c` has no value (a metric this GPU lacks), or "".
std::string missingReason(const CounterInfo& c, const RawCounters& raw) {
  std::vector<std::string> all = c.numerator;
  all.insert(all.end(), c.denominator.begin(), c.denominator.end());
  if (!c.weight.empty()) all.push_back(c.weight);
  for (const auto& m : all)
    if (auto it = raw.unsupportedMetrics.find(m); it != raw.unsupportedMetrics.end())
      return "this GPU does not count " + m + (it->second.empty() ? "" : " (" + it->second + ")");
  return "";
}

/// Counter `c` over a set of launches: the ratio of their sums, or (weighted counters, whose per-launch values are
/// not additive) the launches' values averaged with their weights.
std::optional<double> over(const CounterInfo& c, const std::vector<const RawRange*>& launches) {
  if (c.weight.empty()) {
    std::map<std::string, double> total;
    for (const RawRange* r : launches) addInto(total, r->metrics);
    return ratio(c, total);
  }
  double weighted = 0, weights = 0;
  for (const RawRange* r : launches) {
    const auto v = ratio(c, r->metrics);
    const auto w = r->metrics.find(c.weight);
    if (!v || w == r->metrics.end() || !std::isfinite(w->second)) continue;
    weighted += *v * w->second;
    weights += w->second;
  }
  if (weights <= 0) return std::nullopt;
  return weighted / weights;
}

}  // namespace

const std::vector<CounterInfo>& counterCatalogue() {
  static const std::vector<CounterInfo> catalogue = makeCatalogue();
  return catalogue;
}

const CounterInfo* findCounter(std::string_view id) {
  for (const auto& c : counterCatalogue())
    if (c.id == id) return &c;
  return nullptr;
}

const std::vector<std::string>& defaultCounters() {
  static const std::vector<std::string> ids = {
      "sectors_per_request", "store_sectors_per_request", "dram_bytes_read",          "dram_bytes_written",
      "bank_conflicts",      "achieved_occupancy",        "warp_execution_efficiency"};
  return ids;
}

std::vector<std::string> hardwareMetricsFor(const std::vector<std::string>& ids) {
  std::vector<std::string> metrics;
  auto add = [&](const std::string& m) {
    if (!m.empty() && std::find(metrics.begin(), metrics.end(), m) == metrics.end()) metrics.push_back(m);
  };
  for (const auto& id : ids) {
    const CounterInfo* c = findCounter(id);
    if (!c) continue;
    for (const auto& m : c->numerator) add(m);
    for (const auto& m : c->denominator) add(m);
    add(c->weight);
  }
  return metrics;
}

std::string_view counterErrorKindName(CounterErrorKind k) {
  switch (k) {
    case CounterErrorKind::None:
      return "none";
    case CounterErrorKind::NoDevice:
      return "no_device";
    case CounterErrorKind::LibraryMissing:
      return "library_missing";
    case CounterErrorKind::NotPermitted:
      return "not_permitted";
    case CounterErrorKind::UnknownMetric:
      return "unknown_metric";
    case CounterErrorKind::Unsupported:
      return "unsupported";
    case CounterErrorKind::Failed:
      return "failed";
  }
  return "failed";
}

std::optional<CounterErrorKind> parseCounterErrorKind(std::string_view name) {
  for (auto k : {CounterErrorKind::None, CounterErrorKind::NoDevice, CounterErrorKind::LibraryMissing,
                 CounterErrorKind::NotPermitted, CounterErrorKind::UnknownMetric, CounterErrorKind::Unsupported,
                 CounterErrorKind::Failed})
    if (counterErrorKindName(k) == name) return k;
  return std::nullopt;
}

std::string_view counterPermissionFix() {
  return "run as root, or load the NVIDIA driver with NVreg_RestrictProfilingToAdminUsers=0";
}

std::string counterErrorMessage(const CounterError& e) {
  switch (e.kind) {
    case CounterErrorKind::None:
      return "";
    case CounterErrorKind::NoDevice:
      return "hardware counters need a CUDA GPU: " + e.detail;
    case CounterErrorKind::LibraryMissing:
      return "hardware counters need CUPTI: " + e.detail +
             " was not found (install the CUDA toolkit's CUPTI, or add its lib64 folder to LD_LIBRARY_PATH)";
    case CounterErrorKind::NotPermitted:
      return "profiling is restricted to administrators on this machine: " + std::string(counterPermissionFix());
    case CounterErrorKind::UnknownMetric: {
      std::string valid;
      for (const auto& c : counterCatalogue()) valid += (valid.empty() ? "" : ", ") + c.id;
      return "unknown metric '" + e.detail + "' (valid: " + valid + ", or all)";
    }
    case CounterErrorKind::Unsupported:
      return "hardware counters are not supported here: " + e.detail;
    case CounterErrorKind::Failed:
      return "hardware counters failed: " + e.detail;
  }
  return e.detail;
}

CounterList parseCounterList(std::string_view text) {
  CounterList out;
  if (text == "all") {
    for (const auto& c : counterCatalogue()) out.ids.push_back(c.id);
    return out;
  }
  std::size_t start = 0;
  while (start <= text.size()) {
    const std::size_t comma = std::min(text.find(',', start), text.size());
    const std::string id(text.substr(start, comma - start));
    if (!findCounter(id)) {
      out.ids.clear();
      out.error = {CounterErrorKind::UnknownMetric, id};
      return out;
    }
    if (std::find(out.ids.begin(), out.ids.end(), id) == out.ids.end()) out.ids.push_back(id);
    start = comma + 1;
  }
  return out;
}

std::string counterListHelp() {
  std::string s;
  for (const auto& c : counterCatalogue()) s += "  " + c.id + " (" + c.unit + "): " + c.meaning + "\n";
  return s;
}

ImplCounters deriveCounters(const std::vector<std::string>& ids, const RawCounters& raw, double memcpyCeilingGBs) {
  ImplCounters out;
  out.requested = ids;
  out.passes = raw.passes;
  out.profileMs = raw.profileMs;
  out.error = raw.error;
  out.source = raw.source;
  out.sourceReason = raw.sourceReason;
  out.lines = raw.lines;
  if (!raw.error.ok()) return out;
  std::vector<std::vector<const RawRange*>> perKernel;  // in first-launch order
  std::vector<const RawRange*> all;
  for (const auto& r : raw.ranges) {
    auto it = std::find_if(out.kernels.begin(), out.kernels.end(), [&](auto& k) { return k.kernel == r.kernel; });
    if (it == out.kernels.end()) {
      out.kernels.push_back({r.kernel, 0, {}});
      perKernel.emplace_back();
      it = out.kernels.end() - 1;
    }
    ++it->launches;
    perKernel[std::size_t(it - out.kernels.begin())].push_back(&r);
    all.push_back(&r);
  }
  for (const auto& id : ids) {
    const CounterInfo* c = findCounter(id);
    if (!c) continue;
    const double extra = c->overMemcpyCeiling ? (memcpyCeilingGBs > 0 ? 1 / memcpyCeilingGBs : 0) : 1;
    if (extra == 0) {
      out.unavailable[id] = "the cudaMemcpy ceiling was not measured";
      continue;
    }
    for (std::size_t k = 0; k < out.kernels.size(); ++k)
      if (auto v = over(*c, perKernel[k])) out.kernels[k].values[id] = *v * extra;
    if (auto v = over(*c, all))
      out.values[id] = *v * extra;
    else if (std::string why = missingReason(*c, raw); !why.empty())
      out.unavailable[id] = why;
    else
      out.unavailable[id] = all.empty() ? "no kernel ran in the profiled phase" : "no such work in these kernels";
  }
  return out;
}

std::string formatCounter(const CounterInfo& c, double value) {
  char buf[64];
  if (c.unit == "%")
    std::snprintf(buf, sizeof buf, "%.1f", value);
  else if (c.unit == "sectors" || c.unit == "warps")
    std::snprintf(buf, sizeof buf, "%.2f", value);
  else {
    static const char* const prefix[] = {"", " k", " M", " G", " T"};
    int p = 0;
    while (std::fabs(value) >= 1000 && p < 4) {
      value /= 1000;
      ++p;
    }
    std::snprintf(buf, sizeof buf, p ? "%.1f%s" : "%.0f%s", value, prefix[p]);
  }
  return buf;
}

}  // namespace launchlab
