#include "launchlab/io/csv.h"

#include <sstream>

namespace launchlab::csv {

std::string field(const std::string& s) {
  if (s.find_first_of(",\"\n") == std::string::npos) return s;
  std::string q = "\"";
  for (char c : s) q += c == '"' ? std::string("\"\"") : std::string(1, c);
  return q + "\"";
}

std::string runResult(const RunResult& r) {
  std::ostringstream o;
  o.precision(9);
  o << "workload,n,dtype,implementation,status,grid,block,h2d_ms,kernel_ms,d2h_ms,cpu_ms,total_ms,total_min_ms,"
       "total_max_ms,bandwidth_gbs,speedup_vs_cpu_serial,verification,max_abs_error,max_rel_error,mismatches,reason\n";
  for (const auto& i : r.impls) {
    auto med = [&](Phase p) -> std::string {
      auto it = i.phases.find(p);
      if (it == i.phases.end()) return "";
      std::ostringstream v;
      v.precision(9);
      v << it->second.medianMs;
      return v.str();
    };
    auto total = i.phases.find(Phase::Total);
    o << r.workload << ',' << r.n << ',' << r.dtype << ',' << i.implId << ',' << statusName(i.status) << ','
      << (i.launch ? formatDim3(i.launch->grid) : "") << ',' << (i.launch ? formatDim3(i.launch->block) : "") << ','
      << med(Phase::H2D) << ',' << med(Phase::Kernel) << ',' << med(Phase::D2H) << ',' << med(Phase::Cpu) << ','
      << med(Phase::Total) << ',';
    if (total != i.phases.end()) o << total->second.minMs << ',' << total->second.maxMs << ',';
    else o << ",,";
    o << i.bandwidthGBs << ',' << i.speedupTotal << ',' << outcomeName(i.verification.outcome) << ','
      << i.verification.maxAbsError << ',' << i.verification.maxRelError << ',' << i.verification.mismatches << ','
      << field(i.reason) << '\n';
  }
  return o.str();
}

}  // namespace launchlab::csv
