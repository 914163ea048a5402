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

/// profile --by-line: the `index`-th profiled implementation's source lines, in words.
std::string byLineTable(std::size_t index) {
  if (!g_profiler || !g_profiler->probing())
    return "  per source line: only with counters measured from the accesses (--counters=accesses)\n";
  const auto& all = g_profiler->accesses().lines();
  if (index >= all.size() || all[index].empty()) return "";
  std::string s = "  per source line:\n";
  for (const auto& line : all[index]) s += "    " + line + "\n";
  return s;
}

std::string implTable(const ImplResult& i) {
  const ImplCounters& c = *i.counters;
  std::string s = i.implId + "  (" + std::to_string(c.kernels.size()) + " kernel" + (c.kernels.size() == 1 ? "" : "s") +
                  ", " + std::to_string(c.passes) + " replay pass" + (c.passes == 1 ? "" : "es") +
                  " each, profiled in " + fmtMs(c.profileMs) + " ms)\n";
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
  std::size_t profiled = 0;
  for (const auto& i : r.impls) {
    if (!i.counters) continue;
    s += "\n" + implTable(i);
    if (g_byLine) s += byLineTable(profiled);
    ++profiled;
  }
  if (!s.empty())
    s = "\n" + (g_profiler ? g_profiler->sourceNote() : std::string(ptx::kHardwareSource)) +
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
