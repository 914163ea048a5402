#include "models/chart_data.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>

#include "launchlab/engine/overlapped_pipeline.h"
#include "launchlab/files/csv.h"

namespace launchlab::ui {

std::string speedupText(double s) {
  char buf[32];
  if (s >= 100)
    std::snprintf(buf, sizeof buf, "%.0fx", s);
  else if (s >= 10)
    std::snprintf(buf, sizeof buf, "%.1fx", s);
  else if (s >= 0.1 || s <= 0)
    std::snprintf(buf, sizeof buf, "%.2fx", s);
  else
    std::snprintf(buf, sizeof buf, "%.2gx", s);
  return buf;
}

bool isNoisy(double medianMs, double maxMs) { return medianMs > 0 && maxMs > kNoisySpread * medianMs; }

TimingAxis timingAxis(const TimingChartData& c, bool log, double unit, double labelFraction) {
  const double top = std::max(1e-6, c.maxMedianMs * unit);
  const double keep = 1.0 - std::clamp(labelFraction, 0.0, 0.9);
  if (log) {
    const AxisRange r = paddedRange(c.minPositiveMs * unit, top, true, 0.0);
    return {r.lo, r.lo * std::pow(r.hi / r.lo, 1.0 / keep), r.hi};
  }
  const double clip = top * 1.15;
  return {0.0, clip / keep, clip};
}

std::pair<double, bool> drawnWhiskerEnd(const TimingBar& b, const TimingAxis& a, double unit) {
  const double end = std::max(b.maxMs, b.totalMs) * unit;
  return end > a.clipMs ? std::pair{a.clipMs, true} : std::pair{end, false};
}

std::string durationText(double ms) {
  char buf[32];
  if (ms >= 1000)
    std::snprintf(buf, sizeof buf, "%.3g s", ms / 1000);
  else if (ms >= 1)
    std::snprintf(buf, sizeof buf, "%.3g ms", ms);
  else
    std::snprintf(buf, sizeof buf, "%.3g \xC2\xB5s", ms * 1000);
  return buf;
}

namespace {
std::string noisyLabel(const TimingBar& b) {
  char buf[96];
  std::snprintf(buf, sizeof buf, "%s, noisy (max %.0fx)", durationText(b.totalMs).c_str(), b.maxMs / b.totalMs);
  return buf;
}
}  // namespace

TimingChartData timingChart(const RunResult& r, bool kernelFirst) {
  TimingChartData c;
  bool seen[5] = {false, false, false, false, false};
  double minPos = 0, maxV = 0, maxMedian = 0;
  auto note = [&](double v) {
    if (v > 0 && (minPos == 0 || v < minPos)) minPos = v;
    maxV = std::max(maxV, v);
  };
  for (const auto& i : r.impls) {
    TimingBar b;
    b.implId = i.implId;
    b.title = i.title.empty() ? i.implId : i.title;
    b.gpu = i.gpu;
    b.demonstration = i.demonstration;
    b.status = i.status;
    b.reason = i.reason;
    if (i.status == Status::Ok) {
      const auto overlap = i.metrics.find(kOverlappedPipelineMetric);
      const bool overlapped = overlap != i.metrics.end() && overlap->second > 0;
      for (Phase p : {Phase::H2D, Phase::Kernel, Phase::D2H, Phase::Cpu}) {
        auto it = i.phases.find(p);
        if (it == i.phases.end()) continue;
        const bool pipeline = overlapped && p == Phase::Kernel;
        b.segments.push_back({p, it->second.medianMs, pipeline});
        (pipeline ? c.overlappedShown : seen[int(p)]) = true;
        note(it->second.medianMs);
      }
      if (auto t = i.phases.find(Phase::Total); t != i.phases.end()) {
        b.totalMs = t->second.medianMs;
        b.minMs = t->second.minMs;
        b.maxMs = t->second.maxMs;
        note(b.minMs);
        note(b.maxMs);
        maxMedian = std::max(maxMedian, b.totalMs);
      }
      b.speedup = i.speedupTotal;
      b.noisy = isNoisy(b.totalMs, b.maxMs);
      if (b.noisy)
        b.label = noisyLabel(b);
      else if (i.implId == kCpuSerial)
        b.label = "reference (" + durationText(b.totalMs) + ")";
      else if (b.speedup > 0)
        b.label = speedupText(b.speedup) + " vs cpu-serial (" + durationText(b.totalMs) + ")";
      else
        b.label = durationText(b.totalMs);
    } else {
      b.label = std::string(statusName(i.status)) + ": " + i.reason;
    }
    b.plainLabel = b.label;
    c.bars.push_back(std::move(b));
  }
  for (Phase p : {Phase::H2D, Phase::Kernel, Phase::D2H, Phase::Cpu})
    if (seen[int(p)]) c.phasesShown.push_back(p);
  c.minPositiveMs = minPos;
  c.maxMs = maxV;
  c.maxMedianMs = maxMedian > 0 ? maxMedian : maxV;
  return kernelFirst ? leadWithKernel(std::move(c), true) : c;
}

TimingChartData leadWithKernel(TimingChartData c, bool on) {
  // Kernel before the copies, else the phases' own order; a stable sort keeps the rest as measured.
  const auto rank = [on](Phase p) { return on && p == Phase::Kernel ? -1 : int(p); };
  const auto byRank = [&](Phase a, Phase b) { return rank(a) < rank(b); };
  std::stable_sort(c.phasesShown.begin(), c.phasesShown.end(), byRank);
  for (auto& b : c.bars) {
    std::stable_sort(b.segments.begin(), b.segments.end(),
                     [&](const TimingSegment& x, const TimingSegment& y) { return byRank(x.phase, y.phase); });
    b.label = b.plainLabel;
    if (!on || b.status != Status::Ok || b.noisy) continue;
    for (const auto& seg : b.segments)
      if (seg.phase == Phase::Kernel && !seg.overlapped)
        b.label = "kernel " + durationText(seg.ms) + " of " + durationText(b.totalMs) +
                  (b.speedup > 0 ? ", " + speedupText(b.speedup) + " vs cpu-serial" : "");
  }
  return c;
}

std::string blockTraceCaption(const BlockTraceSummary& s) {
  if (s.blocks == 0) return "no block traced";
  char predicted[48] = "";
  if (s.predicted.perWave > 0) std::snprintf(predicted, sizeof predicted, " (%.2f predicted)", s.predicted.waves);
  const double share = s.spanNs > 0 ? 100 * s.tailNs / s.spanNs : 0;
  return std::to_string(s.wavesObserved) + (s.wavesObserved == 1 ? " wave" : " waves") + predicted + " \u00b7 tail " +
         std::to_string(int(share + 0.5)) + " % of " + durationText(s.spanNs / 1e6) + " \u00b7 " +
         (s.minBlocksPerSm == s.maxBlocksPerSm
              ? std::to_string(s.maxBlocksPerSm) + " blocks on every SM used"
              : std::to_string(s.minBlocksPerSm) + " to " + std::to_string(s.maxBlocksPerSm) + " blocks per SM");
}

bool kernelsHidden(const TimingChartData& c) {
  for (const auto& b : c.bars)
    for (const auto& seg : b.segments)
      if (seg.phase == Phase::Kernel && !seg.overlapped && seg.ms < 0.05 * c.maxMedianMs) return true;
  return false;
}

TimingChartData fitToGpuBars(TimingChartData c) {
  double gpu = 0;
  for (const auto& b : c.bars)
    if (b.gpu && b.status == Status::Ok) gpu = std::max(gpu, b.totalMs);
  if (gpu <= 0 || gpu >= c.maxMedianMs) return c;
  c.maxMedianMs = gpu;
  c.gpuFit = true;
  return c;
}

std::string launchText(const RunResult& r) {
  for (const auto& i : r.impls)
    if (i.gpu && i.launch)
      return "launched " + formatDim3(i.launch->grid) + " blocks x " + formatDim3(i.launch->block) + " threads (" +
             i.implId + ")";
  return "no GPU launch";
}

std::string captionText(const RunResult& r, const std::string& plotTitle) {
  std::ostringstream o;
  o << plotTitle << " | " << r.workload << ", n = " << r.n << " " << r.dtype;
  for (const auto& [k, v] : r.params) o << ", " << k << " = " << v;
  o << " | " << launchText(r) << " | " << (r.device.available ? r.device.info.name : "no GPU: " + r.device.reason)
    << " | " << r.host << " | " << r.timestamp;
  return o.str();
}

std::string numberText(double v, int digits) {
  char buf[48];
  std::snprintf(buf, sizeof buf, "%.*g", digits, v);
  return buf;
}

std::string readoutText(const std::string& xName, double x, const std::string& yName, double y) {
  return xName + " = " + numberText(x) + "\n" + yName + " = " + numberText(y);
}

AxisRange paddedRange(double lo, double hi, bool log, double margin) {
  if (log) {
    if (!(lo > 0)) lo = hi > 0 ? hi / 1000 : 1e-3;
    if (!(hi > 0)) hi = 1;
    return {std::pow(10.0, std::floor(std::log10(lo))), std::pow(10.0, std::ceil(std::log10(hi) + 1e-9))};
  }
  if (!std::isfinite(lo) || !std::isfinite(hi)) return {0, 1};
  if (hi < lo) std::swap(lo, hi);
  double span = hi - lo;
  if (span == 0) span = lo != 0 ? std::fabs(lo) * 0.1 : 1.0;
  return {lo - span * margin, hi + span * margin};
}

}  // namespace launchlab::ui
