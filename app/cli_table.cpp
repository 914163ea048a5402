#include "cli_table.h"

#include <algorithm>
#include <cstdio>
#include <sstream>

#include "launchlab/engine/counters.h"
#include "launchlab/engine/expected_outcome.h"
#include "launchlab/files/parse.h"

namespace launchlab::cli {

std::string fmtMs(double ms) {
  char b[32];
  if (ms >= 100)
    std::snprintf(b, sizeof b, "%.1f", ms);
  else if (ms >= 1)
    std::snprintf(b, sizeof b, "%.3f", ms);
  else
    std::snprintf(b, sizeof b, "%.4f", ms);
  return b;
}

std::string pad(std::string s, std::size_t w, bool right) {
  if (s.size() >= w) return s + " ";
  return right ? std::string(w - s.size(), ' ') + s + " " : s + std::string(w - s.size(), ' ') + " ";
}

std::string num(double v, const char* f) {
  char b[32];
  std::snprintf(b, sizeof b, f, v);
  return b;
}

namespace {
std::string phase(const ImplResult& i, Phase p) {
  auto it = i.phases.find(p);
  return it == i.phases.end() ? "-" : fmtMs(it->second.medianMs);
}
std::string verification(const ImplResult& i) {
  const auto& v = i.verification;
  switch (v.outcome) {
    // A relative error blows up where the reference is near zero (a matmul element, a sum that cancels): past 10%
    // the absolute one says more, and the row still passed its workload's tolerance.
    case Verification::Outcome::Pass:
      return v.maxRelError <= 0.1 ? "pass (max rel " + num(v.maxRelError, "%.1e") + ")"
                                  : "pass (max abs " + num(v.maxAbsError, "%.1e") + ")";
    case Verification::Outcome::Fail:
      return "FAIL: " + std::to_string(v.mismatches) + "/" + std::to_string(v.compared) + " mismatches";
    case Verification::Outcome::Demonstration:
      return v.mismatches ? "demonstration: " + std::to_string(v.mismatches) + " differ (the lesson)"
                          : std::string(i.showsLesson() ? "pass: its lesson below" : "demonstration: none differ");
    default:
      return std::string(outcomeName(v.outcome));
  }
}
}  // namespace

std::string renderRun(const RunResult& r) {
  std::ostringstream o;
  if (r.status == Status::Failed && r.impls.empty()) {
    o << "run failed: " << r.reason << "\n";
    return o.str();
  }
  o << r.workload << "  n=" << formatSize(r.n) << "  dtype=" << r.dtype << "  seed=" << r.seed << "  reps=" << r.reps
    << " (+" << r.warmup << " warm-up)";
  for (const auto& [k, v] : r.params) o << "  " << k << "=" << v;
  o << "\n";
  if (r.device.available)
    o << "device: " << r.device.info.name << " (cc " << r.device.info.ccMajor << "." << r.device.info.ccMinor << ", "
      << r.device.info.multiprocessors << " SMs)   host: " << r.host << "\n\n";
  else
    o << "device: none (" << r.device.reason << ")   host: " << r.host << "\n\n";
  o << pad("implementation", 22) << pad("grid x block", 14) << pad("H2D ms", 9, true) << pad("kernel ms", 10, true)
    << pad("D2H ms", 9, true) << pad("CPU ms", 9, true) << pad("total ms", 10, true) << pad("GB/s", 8, true)
    << pad("speedup", 8, true) << " verification\n";
  std::vector<std::string> notes;
  for (const auto& i : r.impls) {
    o << pad(i.implId, 22);
    if (i.status != Status::Ok) {
      o << statusName(i.status) << ": " << i.reason << "\n";
      continue;
    }
    o << pad(i.launch ? formatDim3(i.launch->grid) + " x " + formatDim3(i.launch->block) : "-", 14)
      << pad(phase(i, Phase::H2D), 9, true) << pad(phase(i, Phase::Kernel), 10, true)
      << pad(phase(i, Phase::D2H), 9, true) << pad(phase(i, Phase::Cpu), 9, true)
      << pad(phase(i, Phase::Total), 10, true) << pad(num(i.bandwidthGBs, "%.1f"), 8, true)
      << pad(num(i.speedupTotal, "%.2fx"), 8, true) << " " << verification(i) << "\n";
    if (!i.launchNote.empty() && i.launchNote != "as requested") notes.push_back(i.implId + ": " + i.launchNote);
    for (const auto& [k, v] : i.scalars) notes.push_back(i.implId + ": output " + k + " = " + num(v, "%.10g"));
    for (const auto& [k, v] : i.metrics) notes.push_back(i.implId + ": " + k + " = " + num(v, "%.6g"));
    // The lesson in words, so that a terminal tells an expected outcome from a failure as the window does.
    if (i.showsLesson()) notes.push_back(i.implId + ": lesson: " + lessonSentence(i));
    if (i.verification.outcome == Verification::Outcome::Fail && !i.verification.firstMismatches.empty())
      notes.push_back(i.implId + ": first mismatch at index " + std::to_string(i.verification.firstMismatches.front()) +
                      " (tolerance " + i.verification.note + ")");
  }
  if (!notes.empty()) {
    o << "\n";
    for (const auto& n : notes) o << "  " << n << "\n";
  }
  std::string gflops;
  for (const auto& i : r.impls)
    if (i.status == Status::Ok && i.gflops > 0)
      gflops += (gflops.empty() ? "" : ", ") + i.implId + " " + num(i.gflops, "%.1f");
  if (!gflops.empty()) o << "\nGFLOP/s (the workload's flops / kernel or CPU time): " << gflops << "\n";
  o << "\nGB/s = bytes moved (inputs read + outputs written) / kernel time (CPU time for CPU rows); "
       "speedup = cpu-serial total / total.\n";
  o << renderBlockTraces(r);
  if (r.sharing.shared)  // the timings above include another process's share of the GPU
    o << "\nWARNING: measured while another process used the GPU (" << r.sharing.note
      << "): the times include its share\n";
  else if (r.sharing.checked && !r.sharing.note.empty())
    o << "\nGPU sharing not checked: " << r.sharing.note << "\n";
  if (r.status == Status::Failed) o << "run stopped: " << r.reason << "\n";
  return o.str();
}

std::string renderBlockTraces(const RunResult& r) {
  const bool any =
      std::any_of(r.impls.begin(), r.impls.end(), [](const ImplResult& i) { return !i.blockTrace.empty(); });
  if (!any) return {};
  std::ostringstream o;
  o << "\nBlocks on SMs (--trace-blocks; the traced kernels' times include the instrumentation):\n";
  for (const auto& i : r.impls) {
    if (!i.gpu || i.status != Status::Ok) continue;
    if (i.blockTrace.empty()) {
      o << "  " << i.implId << ": not traced (its kernels are not instrumented)\n";
      continue;
    }
    o << "  " << i.implId << ":\n";
    for (const auto& line : blockTraceSummaryLines(summarizeBlockTrace(i, r.device))) o << "    " << line << "\n";
  }
  return o.str();
}

namespace {
void renderDeviceInfo(std::ostream& o, const DeviceInfo& d, bool selected) {
  auto ver = [](int v) { return std::to_string(v / 1000) + "." + std::to_string((v % 1000) / 10); };
  o << "device " << d.index << ": " << d.name << (selected ? "  (selected: runs use it)" : "") << "\n"
    << "  compute capability      " << d.ccMajor << "." << d.ccMinor << "\n"
    << "  multiprocessors (SMs)   " << d.multiprocessors << "\n"
    << "  warp size               " << d.limits.warpSize << "\n"
    << "  max threads per block   " << d.limits.maxThreadsPerBlock << "\n"
    << "  max block dims          " << formatDim3(d.limits.maxBlockDim) << "\n"
    << "  max grid dims           " << formatDim3(d.limits.maxGridDim) << "\n"
    << "  max threads per SM      " << d.maxThreadsPerMultiprocessor << "\n"
    << "  max blocks per SM       " << d.maxBlocksPerMultiprocessor << "\n"
    << "  shared memory per block " << d.limits.sharedMemPerBlock / 1024 << " KiB (opt-in "
    << d.limits.sharedMemPerBlockOptin / 1024 << " KiB)\n"
    << "  shared memory per SM    " << d.sharedMemPerMultiprocessor / 1024 << " KiB\n"
    << "  registers per block/SM  " << d.registersPerBlock << " / " << d.registersPerMultiprocessor << "\n"
    << "  global memory           " << num(double(d.totalGlobalMem) / double(1ull << 30), "%.1f") << " GiB\n"
    << "  L2 cache                " << d.l2CacheBytes / (1024 * 1024) << " MiB\n"
    << "  memory bus / clock      " << d.memoryBusWidthBits << " bit / " << d.memoryClockKHz / 1000 << " MHz\n"
    << "  theoretical bandwidth   " << num(d.theoreticalBandwidthGBs, "%.0f") << " GB/s\n"
    << "  ECC                     " << (d.eccEnabled ? "on" : "off") << "\n"
    << "  driver / runtime        CUDA " << ver(d.driverVersion) << " / " << ver(d.runtimeVersion) << "\n";
}
}  // namespace

std::string renderDevice(const DeviceStatus& s, bool builtWithCuda) {
  std::ostringstream o;
  o << "build: " << (builtWithCuda ? "with CUDA" : "CPU-only") << "\n";
  if (s.devices.empty() && !s.available) {
    o << "device: none: " << s.reason << "\n";
    return o.str();
  }
  if (!s.available) o << "no device selected: " << s.reason << "\n";
  if (s.devices.size() > 1)
    o << s.devices.size() << " CUDA devices (--device N picks one; default 0 or $LAUNCHLAB_DEVICE)\n";
  if (s.devices.empty()) renderDeviceInfo(o, s.info, false);  // a status from elsewhere, without the list
  for (const auto& d : s.devices) renderDeviceInfo(o, d, s.available && d.index == s.info.index);
  return o.str();
}

std::string renderWorkloads(const Registry& reg) {
  std::ostringstream o;
  std::string chapter;
  for (const auto& w : reg.all()) {
    const auto& i = w->info();
    if (i.chapter != chapter) {
      chapter = i.chapter;
      o << "\n" << chapter << "\n";
    }
    o << "  " << pad(i.id, 18) << i.title << "  [";
    for (std::size_t k = 0; k < i.dtypes.size(); ++k) o << (k ? "," : "") << dtypeName(i.dtypes[k]);
    o << "; default n " << formatSize(i.defaultN) << "]\n      implementations:";
    for (const auto& s : w->impls()) o << " " << s.id << (s.run ? "" : "(unavailable)");
    o << "\n";
  }
  return o.str();
}

}  // namespace launchlab::cli

namespace launchlab::cli {

std::string renderSweep(const std::vector<std::string>& fields, const std::vector<SweepPoint>& points) {
  std::ostringstream o;
  const std::vector<std::string> counterIds = sweepCounterIds(points);
  const auto width = [](const std::string& id) { return int(std::max<std::size_t>(id.size() + 2, 10)); };
  for (const auto& f : fields) o << pad(f, 12);
  o << pad("implementation", 22) << pad("grid x block", 16) << pad("median ms", 10, true) << pad("GB/s", 9, true);
  for (const auto& id : counterIds) o << pad(id, width(id), true);
  o << (counterIds.empty() ? "" : "  ") << "result\n";
  std::string source, missing;
  for (const auto& p : points) {
    for (const auto& v : p.values) o << pad(v, 12);
    o << pad(p.implId, 22);
    o << pad(p.launched ? formatDim3(p.launched->grid) + " x " + formatDim3(p.launched->block) : "-", 16);
    if (p.status == Status::Ok)
      o << pad(fmtMs(p.kernelMs), 10, true) << pad(num(p.bandwidthGBs, "%.1f"), 9, true);
    else
      o << pad("-", 10, true) << pad("-", 9, true);
    for (const auto& id : counterIds) {
      const auto it = p.counters.find(id);
      const CounterInfo* c = findCounter(id);
      o << pad(it != p.counters.end() && c ? formatCounter(*c, it->second) : "-", width(id), true);
    }
    o << (counterIds.empty() ? "" : "  ");
    if (p.status == Status::Ok)
      o << outcomeName(p.outcome);
    else
      o << statusName(p.status) << ": " << p.reason;
    o << "\n";
    if (source.empty()) source = p.counterSource;
    if (missing.empty() && !p.countersError.empty()) missing = p.implId + ": " + p.countersError;
  }
  if (!counterIds.empty() || !missing.empty()) o << "\ncounters: " << (source.empty() ? "-" : source) << "\n";
  if (!missing.empty()) o << "no counters for " << missing << "\n";
  return o.str();
}

}  // namespace launchlab::cli
