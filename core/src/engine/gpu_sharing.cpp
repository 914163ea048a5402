#include "launchlab/engine/gpu_sharing.h"

#include <algorithm>
#include <cstdio>
#include <set>

namespace launchlab {

namespace {

std::string describe(const GpuProcess& p) {
  std::string s = "pid " + std::to_string(p.pid);
  std::string detail = p.name;
  if (p.usedMemoryBytes) {
    char mem[32];
    std::snprintf(mem, sizeof mem, "%.1f GiB", double(p.usedMemoryBytes) / double(1ull << 30));
    detail += (detail.empty() ? "" : ", ") + std::string(mem);
  }
  return detail.empty() ? s : s + " (" + detail + ")";
}

}  // namespace

GpuSharing sharingRule(GpuSample before, GpuSample after, unsigned self, unsigned parent) {
  GpuSharing g;
  g.checked = true;
  g.before = std::move(before);
  g.after = std::move(after);
  if (!g.before.ok || !g.after.ok) {
    g.note = !g.before.ok ? g.before.problem : g.after.problem;
    return g;
  }
  std::vector<GpuProcess> others;
  std::set<unsigned> seen;
  for (const GpuSample* s : {&g.before, &g.after})
    for (const auto& p : s->processes)
      if (p.pid != self && p.pid != parent && seen.insert(p.pid).second) others.push_back(p);
  std::string why;
  for (const auto& p : others) why += (why.empty() ? "" : ", ") + describe(p);
  if (!others.empty()) why = "another process used the GPU: " + why;
  if (others.empty() && g.before.gpuUtilPercent >= kBusyBeforePercent)
    why = "the GPU was " + std::to_string(g.before.gpuUtilPercent) +
          "% busy before the run started (a process this machine cannot see)";
  g.shared = !why.empty();
  g.note = why;
  return g;
}

std::string gpuUsersLine(const GpuSample& s, unsigned self) {
  if (!s.ok) return "GPU users: unknown (" + s.problem + ")";
  std::string list;
  for (const auto& p : s.processes)
    if (p.pid != self) list += (list.empty() ? "" : ", ") + describe(p);
  std::string line = "GPU users: " + (list.empty() ? std::string("none") : list);
  if (s.gpuUtilPercent >= 0) line += "; " + std::to_string(s.gpuUtilPercent) + "% busy";
  if (s.smClockMHz >= 0) line += ", SM clock " + std::to_string(s.smClockMHz) + " MHz";
  if (s.memClockMHz >= 0) line += ", memory clock " + std::to_string(s.memClockMHz) + " MHz";
  return line;
}

}  // namespace launchlab
