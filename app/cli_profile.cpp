#include "cli_profile.h"

#include "cli_table.h"

namespace launchlab::cli {

std::string profileBlocker(const DeviceStatus& status, CounterProfiler& profiler) {
  if (!status.available) return counterErrorMessage({CounterErrorKind::NoDevice, status.reason});
  if (CounterError e = profiler.libraryProblem(); !e.ok()) return counterErrorMessage(e);
  return "";
}

namespace {

std::string valueCells(const CounterInfo& c, const std::map<std::string, double>& values, const std::string& why) {
  auto it = values.find(c.id);
  if (it == values.end()) return pad("-", 10, true) + pad("", 12) + (why.empty() ? c.meaning : why);
  return pad(formatCounter(c, it->second), 10, true) + pad(c.unit, 12) + c.meaning;
}

const profiler::FallbackProfiler* g_profiler = nullptr;
bool g_byLine = false;

/// profile --by-line: an implementation's source lines, in words (measured in this process or in a worker).
std::string byLineTable(const ImplCounters& c) {
  if (c.source != ptx::kAccessSource)
    return "  per source line: only with counters measured from the accesses (--counters=accesses)\n";
  if (c.lines.empty()) return "";
  std::string s = "  per source line:\n";
  for (const auto& line : c.lines) s += "    " + line.text + "\n";
  return s;
}

/// Where the first measured implementation's figures come from, and why.
std::string sourceOf(const RunResult& r) {
  for (const auto& i : r.impls)
    if (i.counters && !i.counters->source.empty())
      return i.counters->source + (i.counters->sourceReason.empty() ? "" : " (" + i.counters->sourceReason + ")");
  return g_profiler ? g_profiler->sourceNote() : std::string(ptx::kHardwareSource);
}

std::string implTable(const ImplResult& i) {
  const ImplCounters& c = *i.counters;
  const std::string passes = c.source == ptx::kAccessSource
                                 ? "instrumented"
                                 : std::to_string(c.passes) + " replay pass" + (c.passes == 1 ? "" : "es") + " each";
  std::string s = i.implId + "  (" + std::to_string(c.kernels.size()) + " kernel" + (c.kernels.size() == 1 ? "" : "s") +
                  ", " + passes + ", profiled in " + fmtMs(c.profileMs) + " ms)\n";
  if (!c.error.ok()) return s + "  " + counterErrorMessage(c.error) + "\n";
  s += "  " + pad("metric", 27) + pad("value", 10, true) + pad("unit", 12) + "meaning\n";
  for (const auto& id : c.requested) {
    const CounterInfo* info = findCounter(id);
    if (!info) continue;
    auto why = c.unavailable.find(id);
    s += "  " + pad(id, 27) + valueCells(*info, c.values, why == c.unavailable.end() ? "" : why->second) + "\n";
  }
  if (c.kernels.size() > 1)
    for (const auto& k : c.kernels) {
      s +=
          "  kernel " + k.kernel + " (" + std::to_string(k.launches) + " launch" + (k.launches == 1 ? "" : "es") + "):";
      for (const auto& id : c.requested)
        if (auto v = k.values.find(id); v != k.values.end())
          s += " " + id + " " + formatCounter(*findCounter(id), v->second);
      s += "\n";
    }
  return s;
}

}  // namespace

void showCountersFrom(const profiler::FallbackProfiler* profiler, bool byLine) {
  g_profiler = profiler;
  g_byLine = byLine;
}

std::string renderCounters(const RunResult& r) {
  std::string s;
  for (const auto& i : r.impls) {
    if (!i.counters) continue;
    s += "\n" + implTable(i);
    if (g_byLine) s += byLineTable(*i.counters);
  }
  if (!s.empty())
    s = "\n" + sourceOf(r) +
        " (one untimed run per implementation; an implementation's value combines its kernels: ratios over all their "
        "work, occupancies weighted by duration)" +
        s;
  return s;
}

std::string countersFailure(const RunResult& r) {
  const CounterError* first = nullptr;
  for (const auto& i : r.impls) {
    if (!i.counters) continue;
    if (i.counters->error.ok()) return "";
    if (!first) first = &i.counters->error;
  }
  return first ? counterErrorMessage(*first) : "";
}

std::string metricsHelp() {
  return "Counters to measure, comma-separated, or all (default: " +
         [] {
           std::string d;
           for (const auto& id : defaultCounters()) d += (d.empty() ? "" : ",") + id;
           return d;
         }() +
         "):\n" + counterListHelp();
}

}  // namespace launchlab::cli
