#include "chart_data.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>

#include "launchlab/io/csv.h"

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
  return end > a.clipMs ? std::pair{std::max(a.clipMs, b.totalMs * unit), true} : std::pair{end, false};
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

TimingChartData timingChart(const RunResult& r) {
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
      for (Phase p : {Phase::H2D, Phase::Kernel, Phase::D2H, Phase::Cpu}) {
        auto it = i.phases.find(p);
        if (it == i.phases.end()) continue;
        b.segments.push_back({p, it->second.medianMs});
        seen[int(p)] = true;
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
    c.bars.push_back(std::move(b));
  }
  for (Phase p : {Phase::H2D, Phase::Kernel, Phase::D2H, Phase::Cpu})
    if (seen[int(p)]) c.phasesShown.push_back(p);
  c.minPositiveMs = minPos;
  c.maxMs = maxV;
  c.maxMedianMs = maxMedian > 0 ? maxMedian : maxV;
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
