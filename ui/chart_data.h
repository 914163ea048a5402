#pragma once
/// Timing chart, block-size sweep and caption data as plain structs (no Qt), built from results.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "launchlab/launch_config.h"
#include "launchlab/result.h"
#include "launchlab/sweep.h"
#include "launchlab/workload.h"

namespace launchlab::ui {

/// One segment of a stacked timing bar.
struct TimingSegment {
  Phase phase = Phase::Cpu;
  double ms = 0;  ///< median of that phase
};

/// One bar of the timing comparison: an implementation.
struct TimingBar {
  std::string implId, title;
  bool gpu = false, demonstration = false;
  Status status = Status::Ok;
  std::string reason;                   ///< skipped/failed reason
  std::vector<TimingSegment> segments;  ///< H2D, Kernel, D2H for GPU variants; Cpu for CPU ones
  double totalMs = 0, minMs = 0, maxMs = 0;  ///< Total median and its min-max over repetitions
  double speedup = 0;                   ///< cpu-serial total / this total (0 when unknown)
  std::string label;                    ///< e.g. "12.4x vs cpu-serial", "reference", "skipped: …"
};

/// Bars in result order. `phasesShown` lists the phases that occur in any bar (legend order).
struct TimingChartData {
  std::vector<TimingBar> bars;
  std::vector<Phase> phasesShown;
  double minPositiveMs = 0, maxMs = 0;  ///< over every segment and whisker (axis ranges)
};
TimingChartData timingChart(const RunResult& r);

/// "12.4x", "0.31x", "1.00x" (three significant digits).
std::string speedupText(double s);
/// "0.123 ms", "12.3 ms", "1.23 s", "45.6 µs".
std::string durationText(double ms);

/// The caption stamped under exported plots: workload, size, dtype, parameters, launch, device, date.
std::string captionText(const RunResult& r, const std::string& plotTitle);
/// Short launch description of a result: "block 256, grid auto (launched 65536 x 256)" style.
std::string launchText(const RunResult& r);

/// Axis range with a margin; for log axes only positive values count and the range spans whole decades.
struct AxisRange {
  double lo = 0, hi = 1;
};
AxisRange paddedRange(double lo, double hi, bool log, double margin = 0.05);

}  // namespace launchlab::ui
