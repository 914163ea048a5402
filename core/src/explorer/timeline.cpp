#include "launchlab/explorer/timeline.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

namespace launchlab {

std::string_view timelineEngineName(TimelineEngine e) {
  switch (e) {
    case TimelineEngine::H2D:
      return "H2D copy";
    case TimelineEngine::Kernel:
      return "kernel";
    case TimelineEngine::D2H:
      return "D2H copy";
  }
  return "?";
}

std::vector<TimelineSpan> timelineSpans(const HostArray& a) {
  std::vector<TimelineSpan> out;
  if (a.shape().size() != 2 || a.shape()[0] != 4) return out;
  const std::size_t k = a.shape()[1];
  for (std::size_t j = 0; j < k; ++j) {
    const double stream = a.at(j), engine = a.at(k + j), start = a.at(2 * k + j), end = a.at(3 * k + j);
    if (!std::isfinite(stream) || !std::isfinite(engine) || !std::isfinite(start) || !std::isfinite(end)) continue;
    if (stream < 0 || engine < 0 || engine >= double(kTimelineEngines) || end < start) continue;
    out.push_back({int(stream), TimelineEngine(int(engine)), start, end});
  }
  return out;
}

void writeTimeline(HostArray& a, const std::vector<TimelineSpan>& spans) {
  if (a.dtype() != DType::F64 || a.shape().size() != 2 || a.shape()[0] != 4 || a.shape()[1] < spans.size())
    throw std::logic_error("writeTimeline: '" + a.name() +
                           "' is not a 4 x K float64 array with K >= " + std::to_string(spans.size()));
  const std::size_t k = a.shape()[1];
  auto v = a.view<double>();
  std::fill(v.begin(), v.end(), std::numeric_limits<double>::quiet_NaN());
  for (std::size_t j = 0; j < spans.size(); ++j) {
    v[j] = spans[j].stream;
    v[k + j] = double(int(spans[j].engine));
    v[2 * k + j] = spans[j].startMs;
    v[3 * k + j] = spans[j].endMs;
  }
}

double unionLength(std::vector<std::array<double, 2>> intervals) {
  std::erase_if(intervals, [](const std::array<double, 2>& i) { return !(i[1] > i[0]); });
  std::sort(intervals.begin(), intervals.end());
  double total = 0, lo = 0, hi = 0;
  bool open = false;
  for (const auto& i : intervals) {
    if (open && i[0] <= hi) {
      hi = std::max(hi, i[1]);
      continue;
    }
    if (open) total += hi - lo;
    lo = i[0];
    hi = i[1];
    open = true;
  }
  return open ? total + (hi - lo) : total;
}

OverlapStats overlapStats(const std::vector<TimelineSpan>& spans) {
  OverlapStats s;
  s.spans = spans.size();
  if (spans.empty()) return s;
  std::array<std::vector<std::array<double, 2>>, kTimelineEngines> perEngine;
  double first = spans.front().startMs, last = spans.front().endMs;
  for (const auto& sp : spans) {
    perEngine[std::size_t(sp.engine)].push_back({sp.startMs, sp.endMs});
    first = std::min(first, sp.startMs);
    last = std::max(last, sp.endMs);
    s.streams = std::max(s.streams, sp.stream + 1);
  }
  s.wallMs = last - first;
  for (std::size_t e = 0; e < kTimelineEngines; ++e) {
    s.busyMs[e] = unionLength(std::move(perEngine[e]));
    if (s.busyMs[e] > s.busiestMs) {
      s.busiestMs = s.busyMs[e];
      s.busiest = TimelineEngine(int(e));
    }
  }
  s.overlapFraction = s.wallMs > 0 ? s.busiestMs / s.wallMs : 0;
  return s;
}

}  // namespace launchlab
