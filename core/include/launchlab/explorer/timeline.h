#pragma once
/// A measured GPU timeline (PlotKind::Timeline) and the overlap it achieved. Plain host code: no CUDA, no Qt.
///
/// A timeline array is 4 x K float64: column j is one copy or kernel, row 0 its stream (0, 1, …), row 1 its engine
/// (0 host-to-device copy, 1 kernel, 2 device-to-host copy), rows 2 and 3 its start and end in milliseconds after a
/// common start event. A column with a non-finite value is unused (an implementation that issued fewer operations
/// than K, or one that has no timeline at all, such as a CPU implementation: all NaN).
#include <array>
#include <cstddef>
#include <string_view>
#include <vector>

#include "launchlab/engine/array.h"

namespace launchlab {

/// The engines of a timeline, in row-1 code order.
enum class TimelineEngine { H2D = 0, Kernel = 1, D2H = 2 };
inline constexpr std::size_t kTimelineEngines = 3;
/// "H2D copy", "kernel", "D2H copy".
std::string_view timelineEngineName(TimelineEngine e);

/// One copy or kernel: when its stream reached it and when it finished (ms after the common start event).
struct TimelineSpan {
  int stream = 0;
  TimelineEngine engine = TimelineEngine::Kernel;
  double startMs = 0;
  double endMs = 0;
  bool operator==(const TimelineSpan&) const = default;
};

/// The spans of a 4 x K timeline array (unused columns and rows of a wrong shape: none). Any dtype.
std::vector<TimelineSpan> timelineSpans(const HostArray& a);
/// Writes `spans` into a 4 x K float64 array, NaN in the columns after them. Throws std::logic_error when the
/// array is not 4 x K float64 or has fewer than spans.size() columns.
void writeTimeline(HostArray& a, const std::vector<TimelineSpan>& spans);

/// How well the engines were kept busy together.
struct OverlapStats {
  std::size_t spans = 0;
  int streams = 0;                                ///< highest stream index + 1
  double wallMs = 0;                              ///< last end - first start
  std::array<double, kTimelineEngines> busyMs{};  ///< per engine: the length of the union of its spans
  TimelineEngine busiest = TimelineEngine::H2D;   ///< the engine with the most busy time
  double busiestMs = 0;
  /// busiestMs / wallMs: 1 when the other engines' work hides entirely under the busiest one's (the best any
  /// schedule can do), 1/3 for three equal engines one after the other; 0 without spans.
  double overlapFraction = 0;
};
OverlapStats overlapStats(const std::vector<TimelineSpan>& spans);

/// Total length of the union of [start, end) intervals (overlapping or touching ones merged; empty or reversed
/// ones ignored).
double unionLength(std::vector<std::array<double, 2>> intervals);

}  // namespace launchlab
