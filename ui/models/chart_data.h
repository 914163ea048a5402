#pragma once
/// Timing chart, block-size sweep and caption data as plain structs (no Qt), built from results.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "launchlab/engine/launch_config.h"
#include "launchlab/engine/result.h"
#include "launchlab/engine/workload.h"
#include "launchlab/explorer/block_trace.h"
#include "launchlab/explorer/sweep.h"

namespace launchlab::ui {

/// One segment of a stacked timing bar.
struct TimingSegment {
  Phase phase = Phase::Cpu;
  double ms = 0;  ///< median of that phase
  /// A Kernel phase that is a whole pipeline of copies and kernels at once (kOverlappedPipelineMetric): drawn as
  /// "copies overlapped with kernels", never as kernel time.
  bool overlapped = false;
};

/// One bar of the timing comparison: an implementation.
struct TimingBar {
  std::string implId, title;
  bool gpu = false, demonstration = false;
  Status status = Status::Ok;
  std::string reason;                        ///< skipped/failed reason
  std::vector<TimingSegment> segments;       ///< H2D, Kernel, D2H for GPU variants; Cpu for CPU ones
  double totalMs = 0, minMs = 0, maxMs = 0;  ///< Total median and its min-max over repetitions
  double speedup = 0;                        ///< cpu-serial total / this total (0 when unknown)
  bool noisy = false;                        ///< max over repetitions far above the median: not a result
  std::string label;                         ///< e.g. "12.4x vs cpu-serial", "reference", "skipped: …"
  std::string plainLabel;                    ///< the label without a kernel-first lead
};

/// Bars in result order. `phasesShown` lists the phases that occur in any bar (legend order).
struct TimingChartData {
  std::vector<TimingBar> bars;
  std::vector<Phase> phasesShown;       ///< a Kernel phase only when some bar's kernel segment is not overlapped
  bool overlappedShown = false;         ///< some bar's time is copies overlapped with kernels
  double minPositiveMs = 0, maxMs = 0;  ///< over every segment and whisker
  double maxMedianMs = 0;               ///< the longest median total: what the axis is scaled to
  bool gpuFit = false;                  ///< maxMedianMs is the GPU bars' (fitToGpuBars): CPU bars run past it
};
/// `kernelFirst`: leadWithKernel applied.
TimingChartData timingChart(const RunResult& r, bool kernelFirst = false);
/// Where the lesson is the kernel: every bar's kernel segment first (copies stacked after it, still drawn), the
/// kernel phase first in the legend, and a GPU bar's label led by its kernel time ("kernel 52.0 µs of 20.1 ms").
/// `on` false: phase order (H2D, Kernel, D2H) and the plain labels.
TimingChartData leadWithKernel(TimingChartData c, bool on);
/// Some bar's kernel segment is under 5 % of the longest median total: a sliver on a linear time axis.
bool kernelsHidden(const TimingChartData& c);
/// The legend's name of an overlapped pipeline's segment.
inline constexpr const char* kOverlappedLabel = "copies overlapped with kernels";
/// The time axis fitted to the GPU bars (a lesson about their phases): the longest GPU median total, with the CPU
/// bars running off the axis' end (clipped and labelled with their time); unchanged without GPU bars.
TimingChartData fitToGpuBars(TimingChartData c);

/// A measurement whose slowest repetition took more than this many times its median is flagged as noisy.
inline constexpr double kNoisySpread = 4.0;
/// max / median over repetitions > kNoisySpread (false when either is unknown).
bool isNoisy(double medianMs, double maxMs);

/// The time axis of the timing chart: scaled to the medians, so one slow repetition cannot squash the bars.
/// Whiskers past `clipMs` are drawn to it and marked as clipped; [lo, hi] leaves room for the labels.
struct TimingAxis {
  double lo = 0, hi = 1, clipMs = 1;
};
/// In display units (`unit` = 1 for ms, 1000 for µs), scaled to the medians (whiskers clip at clipMs), with
/// `labelFraction` of the axis (0..0.9) left free right of the clip edge for the bars' labels.
TimingAxis timingAxis(const TimingChartData& c, bool log, double unit, double labelFraction);
/// The whisker's end drawn for bar b on axis a (in display units) and whether it was clipped there.
std::pair<double, bool> drawnWhiskerEnd(const TimingBar& b, const TimingAxis& a, double unit);

/// "12.4x", "0.31x", "1.00x" (three significant digits); below 0.1 two significant digits ("0.0031x").
std::string speedupText(double s);
/// "0.123 ms", "12.3 ms", "1.23 s", "45.6 µs".
std::string durationText(double ms);

/// The Gantt chart's one line: "2 waves (1.17 predicted) \u00b7 tail 33 % of 30.0 \u00b5s \u00b7 3 to 4 blocks per SM".
std::string blockTraceCaption(const BlockTraceSummary& s);

/// The caption stamped under exported plots: workload, size, dtype, parameters, launch, device, date.
std::string captionText(const RunResult& r, const std::string& plotTitle);
/// Short launch description of a result: "block 256, grid auto (launched 65536 x 256)" style.
std::string launchText(const RunResult& r);

/// The hover readout: "index = 1234\nvalue = 0.5" (six significant digits; whole numbers without decimals).
std::string readoutText(const std::string& xName, double x, const std::string& yName, double y);
/// A number for readouts and value labels: six significant digits, "1.5e-07" style when tiny or huge.
std::string numberText(double v, int digits = 6);

/// Axis range with a margin; for log axes only positive values count and the range spans whole decades.
struct AxisRange {
  double lo = 0, hi = 1;
};
AxisRange paddedRange(double lo, double hi, bool log, double margin = 0.05);

}  // namespace launchlab::ui
