// The probe's arithmetic on the CPU and the reduction of counter records (launchlab/ptx/ptx_counters.h). modelProbe
// follows probe_emit.cpp section by section: participation, global sectors, shared wavefronts, the record.
#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdio>
#include <map>
#include <set>
#include <tuple>

#include "launchlab/ptx/ptx_counters.h"
#include "line_ideal.h"

namespace launchlab::ptx {

namespace {

bool inSpace(const Lane& l, PtxSpace space, PtxSpace want) {
  return space == want || (space == PtxSpace::Generic && l.resolved == want);
}

}  // namespace

Record modelProbe(const std::array<Lane, kWarpLanes>& warp, PtxSpace space, int widthBytes) {
  Record r{};
  std::uint32_t part = 0, global = 0, shared = 0;
  std::set<std::uint64_t> sectors;                        // emitGlobal: distinct addr >> kSectorShift
  std::map<std::uint32_t, std::set<std::uint64_t>> slot;  // emitShared: distinct units per slot
  std::set<std::uint64_t> units;
  for (int i = 0; i < kWarpLanes; ++i) {
    const auto& l = warp[std::size_t(i)];
    if (!l.takesPart) continue;
    part |= 1u << i;
    if (space != PtxSpace::Shared && inSpace(l, space, PtxSpace::Global)) {
      global |= 1u << i;
      sectors.insert(l.address >> kSectorShift);
    }
    if (space != PtxSpace::Global && inSpace(l, space, PtxSpace::Shared)) {
      shared |= 1u << i;
      const auto unit = l.address >> unitShift(widthBytes);
      units.insert(unit);
      slot[std::uint32_t(unit) & std::uint32_t(slotCount(widthBytes) - 1)].insert(unit);
    }
  }
  if (part == 0) return r;  // no lane to add to the record
  r[kExecutions] = 1;
  r[kLanes] = std::uint64_t(std::popcount(part));
  r[kGlobalRequests] = global != 0;
  r[kSectors] = sectors.size();
  r[kSharedRequests] = shared != 0;
  for (const auto& [s, u] : slot) r[kWavefronts] = std::max<std::uint64_t>(r[kWavefronts], u.size());
  r[kIdealWavefronts] = (units.size() + std::uint64_t(slotCount(widthBytes) - 1)) >> log2Slots(widthBytes);
  if (space == PtxSpace::Generic) r[kOtherLanes] = std::uint64_t(std::popcount(part & ~(global | shared)));
  return r;
}

AccessCounters reduceRecords(const PtxInstrumentation& inst, const std::vector<std::uint64_t>& records) {
  AccessCounters out;
  std::map<std::tuple<std::string, int, PtxAccessKind>, AccessCounterLine> lines;
  Record &load = out.loads, &store = out.stores, &all = out.all;
  for (const auto& a : inst.accesses) {
    if (!a.instrumented() || std::size_t(a.counter + 1) * kRecordFields > records.size()) continue;
    auto& l = lines[{a.file, a.line, a.kind}];
    l.file = a.file, l.line = a.line, l.kind = a.kind, l.widthBytes = std::max(l.widthBytes, a.widthBytes);
    for (int f = 0; f < kRecordFields; ++f) {
      const auto v = records[std::size_t(a.counter) * kRecordFields + std::size_t(f)];
      l.sums[std::size_t(f)] += v;
      all[std::size_t(f)] += v;
      if (a.kind == PtxAccessKind::Load) load[std::size_t(f)] += v;
      if (a.kind == PtxAccessKind::Store) store[std::size_t(f)] += v;
    }
  }
  const auto ratio = [&](const char* id, double num, double den, double scale = 1) {
    if (den > 0) out.values[id] = scale * num / den;
  };
  ratio("sectors_per_request", double(load[kSectors]), double(load[kGlobalRequests]));
  ratio("store_sectors_per_request", double(store[kSectors]), double(store[kGlobalRequests]));
  const auto conflicts = [](const Record& r) { return double(r[kWavefronts] - r[kIdealWavefronts]); };
  if (load[kSharedRequests] > 0) out.values["bank_conflicts_ld"] = conflicts(load);
  if (store[kSharedRequests] > 0) out.values["bank_conflicts_st"] = conflicts(store);
  if (load[kSharedRequests] + store[kSharedRequests] > 0)
    out.values["bank_conflicts"] = conflicts(load) + conflicts(store);
  ratio("shared_wavefronts_per_request", double(load[kWavefronts] + store[kWavefronts]),
        double(load[kSharedRequests] + store[kSharedRequests]));
  ratio("warp_execution_efficiency", double(all[kLanes]), double(all[kExecutions]), 100.0 / kWarpLanes);
  if (all[kExecutions] > 0) out.values["accesses"] = double(all[kExecutions]);
  for (auto& [key, l] : lines) out.lines.push_back(std::move(l));
  return out;
}

double idealSectorsPerRequest(const AccessCounterLine& l) {
  const auto& s = l.sums;
  if (s[kGlobalRequests] == 0 || s[kExecutions] == 0) return 0;
  const double lanes = double(s[kLanes]) / double(s[kExecutions]);
  return std::ceil(std::max(1.0, lanes * l.widthBytes / 32.0));
}

std::string describeLine(const AccessCounterLine& l) {
  const auto& s = l.sums;
  char buf[320];
  std::string what = std::string(kindName(l.kind));
  std::string text = "line " + std::to_string(l.line) + ": ";
  if (s[kExecutions] == 0) return text + "the " + what + " never ran";
  if (s[kGlobalRequests] > 0) {
    std::snprintf(buf, sizeof buf,
                  "each warp's %s touches %.1f sectors of global memory (%.0f is the ideal for %d-byte elements)",
                  what.c_str(), double(s[kSectors]) / double(s[kGlobalRequests]), idealSectorsPerRequest(l),
                  l.widthBytes);
    text += buf;
  }
  if (s[kSharedRequests] > 0) {
    if (s[kGlobalRequests] > 0) text += "; ";
    std::snprintf(buf, sizeof buf, "each warp's shared %s takes %.1f cycles, %.1f more than the ideal (bank conflicts)",
                  what.c_str(), double(s[kWavefronts]) / double(s[kSharedRequests]),
                  double(s[kWavefronts] - s[kIdealWavefronts]) / double(s[kSharedRequests]));
    text += buf;
  }
  std::snprintf(buf, sizeof buf, "; %.0f warp requests, %.0f %% of the lanes active", double(s[kExecutions]),
                100.0 * double(s[kLanes]) / double(s[kExecutions]) / kWarpLanes);
  return text + buf;
}

}  // namespace launchlab::ptx
