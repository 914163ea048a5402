#include "launchlab/files/csv.h"

#include <sstream>

namespace launchlab::csv {

std::string field(const std::string& s) {
  if (s.find_first_of(",\"\n") == std::string::npos) return s;
  std::string q = "\"";
  for (char c : s) q += c == '"' ? std::string("\"\"") : std::string(1, c);
  return q + "\"";
}

namespace {
std::string number(double v) {
  std::ostringstream o;
  o.precision(9);
  o << v;
  return o.str();
}

std::string paramsText(const std::map<std::string, std::string>& params) {
  std::string t;
  for (const auto& [k, v] : params) t += (t.empty() ? "" : ";") + k + "=" + v;
  return t;
}

/// The columns only a run that completed has: empty for a skipped or failed implementation (not 0).
std::string measuredColumns(const ImplResult& i) {
  const bool ok = i.status == Status::Ok;
  auto m = [ok](double v) { return ok ? number(v) : std::string(); };
  const auto& v = i.verification;
  return m(i.bandwidthGBs) + ',' + m(i.speedupTotal) + ',' + std::string(outcomeName(v.outcome)) + ',' +
         m(v.maxAbsError) + ',' + m(v.maxRelError) + ',' + (ok ? std::to_string(v.mismatches) : std::string());
}
}  // namespace

std::string runResult(const RunResult& r) {
  std::ostringstream o;
  o.precision(9);
  o << "workload,n,dtype,implementation,status,grid,block,h2d_ms,kernel_ms,d2h_ms,cpu_ms,total_ms,total_min_ms,"
       "total_max_ms,bandwidth_gbs,speedup_vs_cpu_serial,verification,max_abs_error,max_rel_error,mismatches,reason,"
       "seed,reps,warmup,params\n";
  const std::string run = std::to_string(r.seed) + ',' + std::to_string(r.reps) + ',' + std::to_string(r.warmup) + ',' +
                          field(paramsText(r.params));
  for (const auto& i : r.impls) {
    auto med = [&](Phase p) -> std::string {
      auto it = i.phases.find(p);
      return it == i.phases.end() ? "" : number(it->second.medianMs);
    };
    auto total = i.phases.find(Phase::Total);
    o << r.workload << ',' << r.n << ',' << r.dtype << ',' << i.implId << ',' << statusName(i.status) << ','
      << (i.launch ? formatDim3(i.launch->grid) : "") << ',' << (i.launch ? formatDim3(i.launch->block) : "") << ','
      << med(Phase::H2D) << ',' << med(Phase::Kernel) << ',' << med(Phase::D2H) << ',' << med(Phase::Cpu) << ','
      << med(Phase::Total) << ',';
    if (total != i.phases.end())
      o << total->second.minMs << ',' << total->second.maxMs << ',';
    else
      o << ",,";
    o << measuredColumns(i) << ',' << field(i.reason) << ',' << run << '\n';
  }
  return o.str();
}

}  // namespace launchlab::csv
