#include "launchlab/explorer/sweep_map.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

namespace launchlab {

namespace {

std::string fmt(const char* f, double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, f, v);
  return buf;
}

std::optional<std::size_t> axisIndex(const std::vector<SweepAxis>& axes, std::string_view field) {
  for (std::size_t i = 0; i < axes.size(); ++i)
    if (axes[i].field == field) return i;
  return std::nullopt;
}

double metricValue(const SweepPoint& p, SweepMetric m, double copyGBs) {
  if (p.status != Status::Ok) return std::numeric_limits<double>::quiet_NaN();
  switch (m) {
    case SweepMetric::TimeMs:
      return p.kernelMs;
    case SweepMetric::BandwidthGBs:
      return p.bandwidthGBs;
    case SweepMetric::PercentOfCopy:
      return 100.0 * p.bandwidthGBs / copyGBs;
  }
  return std::numeric_limits<double>::quiet_NaN();
}

/// Where `v` is among an axis' values (axisPositions), or `missing`.
std::size_t position(const std::unordered_map<std::string, std::size_t>& at, const std::string& v,
                     std::size_t missing) {
  const auto it = at.find(v);
  return it == at.end() ? missing : it->second;
}

/// The other axes held at their first value: the note, and whether `p` lies on that slice.
bool onSlice(const std::vector<SweepAxis>& axes, const SweepPoint& p, std::size_t bi, std::size_t gi) {
  for (std::size_t a = 0; a < axes.size(); ++a)
    if (a != bi && a != gi && (a >= p.values.size() || axes[a].values.empty() || p.values[a] != axes[a].values.front()))
      return false;
  return true;
}

std::string sliceNote(const std::vector<SweepAxis>& axes, std::size_t bi, std::size_t gi) {
  std::string note;
  for (std::size_t a = 0; a < axes.size(); ++a)
    if (a != bi && a != gi && !axes[a].values.empty())
      note += (note.empty() ? "showing " : ", ") + axes[a].field + " = " + axes[a].values.front();
  return note;
}

void fillRange(SweepMap& m) {
  bool any = false;
  for (double v : m.values) {
    if (!std::isfinite(v)) continue;
    m.minValue = any ? std::min(m.minValue, v) : v;
    m.maxValue = any ? std::max(m.maxValue, v) : v;
    any = true;
  }
  if (!any) m.problem = "no cell of this map was measured";
}

}  // namespace

std::string_view sweepMetricName(SweepMetric m) {
  switch (m) {
    case SweepMetric::TimeMs:
      return "kernel time (ms)";
    case SweepMetric::BandwidthGBs:
      return "bandwidth (GB/s)";
    case SweepMetric::PercentOfCopy:
      return "% of cudaMemcpy";
  }
  return "?";
}

SweepMap sweepMap(const std::vector<SweepAxis>& axes, const std::vector<SweepPoint>& points, std::string implId,
                  SweepMetric metric, double copyGBs) {
  SweepMap m;
  const auto bi = axisIndex(axes, "block"), gi = axisIndex(axes, "grid");
  if (!bi || !gi) {
    m.problem = "a heatmap needs a block axis and a grid axis; this sweep has " +
                std::string(bi ? "no grid axis" : "no block axis");
    return m;
  }
  if (metric == SweepMetric::PercentOfCopy && !(copyGBs > 0)) {
    m.problem = "this sweep measured no cudaMemcpy bandwidth (launchlab-cli sweep on a GPU does): pick time or GB/s";
    return m;
  }
  if (implId.empty() && !points.empty()) implId = points.front().implId;
  m.blocks = axes[*bi].values;
  m.grids = axes[*gi].values;
  m.values.assign(m.blocks.size() * m.grids.size(), std::numeric_limits<double>::quiet_NaN());
  m.points.assign(m.values.size(), -1);
  m.note = sliceNote(axes, *bi, *gi);
  const auto blockAt = axisPositions(m.blocks), gridAt = axisPositions(m.grids);
  for (std::size_t i = 0; i < points.size(); ++i) {
    const SweepPoint& p = points[i];
    if (p.implId != implId || p.values.size() != axes.size() || !onSlice(axes, p, *bi, *gi)) continue;
    const std::size_t b = position(blockAt, p.values[*bi], m.blocks.size());
    const std::size_t g = position(gridAt, p.values[*gi], m.grids.size());
    if (b >= m.blocks.size() || g >= m.grids.size()) continue;
    m.values[g * m.blocks.size() + b] = metricValue(p, metric, copyGBs);
    m.points[g * m.blocks.size() + b] = int(i);
  }
  fillRange(m);
  return m;
}

SweepCeiling sweepCeiling(const std::vector<SweepPoint>& points, const std::string& implId, double copyGBs) {
  if (copyGBs > 0) return {copyGBs, "cudaMemcpy D2D measured in the same sweep"};
  double best = 0;
  for (const auto& p : points)
    if (p.status == Status::Ok && p.implId == implId) best = std::max(best, p.bandwidthGBs);
  return {best, best > 0 ? "the best point of this sweep (no cudaMemcpy measured)" : ""};
}

std::optional<Dim3> sweepPointGrid(const std::vector<SweepAxis>& axes, const SweepPoint& p) {
  if (p.launched) return p.launched->grid;
  const auto gi = axisIndex(axes, "grid");
  if (!gi || *gi >= p.values.size()) return std::nullopt;
  return parseDim3(p.values[*gi]);
}

SweepCellReport sweepCellReport(const SweepPoint& p, const SweepCeiling& ceiling, const OccupancyRow* occupancy) {
  SweepCellReport r;
  r.point = p;
  r.ceiling = ceiling;
  if (occupancy) r.occupancy = *occupancy;
  std::string head =
      "block " + formatDim3(p.block) + (p.launched ? ", grid " + formatDim3(p.launched->grid) : "") + ": ";
  if (p.status != Status::Ok) {
    r.lines.push_back(head + std::string(statusName(p.status)) + (p.reason.empty() ? "" : " (" + p.reason + ")"));
  } else {
    r.lines.push_back(head + "kernel " + fmt("%.4g", p.kernelMs) + " ms (min " + fmt("%.4g", p.minMs) + ", max " +
                      fmt("%.4g", p.maxMs) + "), " + fmt("%.1f", p.bandwidthGBs) + " GB/s");
    r.lines.push_back("verification: " + std::string(outcomeName(p.outcome)));
  }
  if (occupancy) {
    const Occupancy& o = occupancy->occupancy;
    std::string limiters;
    for (Limiter l : o.limiters) limiters += (limiters.empty() ? "" : ", ") + limiterName(l);
    r.lines.push_back("theoretical occupancy " + fmt("%.0f", 100.0 * o.occupancy) + "% (" +
                      std::to_string(o.activeWarps) + " of " + std::to_string(o.maxWarps) + " warps, " +
                      std::to_string(o.blocksPerSm) + " blocks per SM), limited by " +
                      (limiters.empty() ? "nothing that fits" : limiters));
    const Waves& w = occupancy->waves;
    r.lines.push_back("waves: " + std::to_string(w.blocks) + " blocks / " + std::to_string(w.perWave) +
                      " per wave = " + fmt("%.2f", w.waves) + " waves; last partial wave: " +
                      (w.lastBlocks ? std::to_string(w.lastBlocks) + " blocks" : std::string("none")) +
                      " (wave efficiency " + fmt("%.0f", 100.0 * w.efficiency) + "%)");
  } else {
    r.lines.push_back("occupancy: no resource usage recorded for this implementation's kernels");
  }
  const double efficiency = occupancy && occupancy->waves.efficiency > 0 ? occupancy->waves.efficiency : 1.0;
  if (p.status == Status::Ok && ceiling.gbs > 0 && p.bandwidthGBs > 0) {
    const double bytes = p.bandwidthGBs * p.kernelMs * 1e6;
    r.predictedMs = bytes / (ceiling.gbs * efficiency) / 1e6;
    r.gapPercent = 100.0 * (p.kernelMs - r.predictedMs) / r.predictedMs;
    r.lines.push_back(
        "predicted " + fmt("%.4g", r.predictedMs) + " ms at " + fmt("%.1f", ceiling.gbs) + " GB/s (" + ceiling.source +
        ")" + (efficiency < 1 ? " x " + fmt("%.0f", 100 * efficiency) + "% wave efficiency" : "") + "; measured is " +
        fmt("%.0f", std::abs(r.gapPercent)) + "% " + (r.gapPercent >= 0 ? "slower" : "faster"));
  }
  return r;
}

}  // namespace launchlab
