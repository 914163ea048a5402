// The sweep reader (parseSweepJson: the window's Open sweep and reference sweeps) on arbitrary bytes: never a crash,
// an error is one line; a document that reads is written back (sweepJson) and reads back to the same points, and
// its block x grid map and cell reports are made without fault.
#include <cstdint>
#include <cstdlib>
#include <string>

#include "launchlab/explorer/sweep.h"
#include "launchlab/explorer/sweep_map.h"

using namespace launchlab;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string error;
  const auto d = parseSweepJson(std::string(reinterpret_cast<const char*>(data), size), &error);
  if (!d) {
    if (error.empty() || error.find('\n') != std::string::npos) std::abort();
    return 0;
  }
  SweepPlan plan;
  plan.base.workload = d->workload;
  plan.axes = d->axes;
  const auto again = parseSweepJson(sweepJson(plan, d->points, d->device, d->record), &error);
  if (!again || again->points.size() != d->points.size()) std::abort();
  for (SweepMetric m : {SweepMetric::TimeMs, SweepMetric::BandwidthGBs, SweepMetric::PercentOfCopy}) {
    const SweepMap map = sweepMap(d->axes, d->points, "", m, d->record.copyGBs);
    if (!map.problem.empty()) continue;
    for (int p : map.points)
      if (p >= 0)
        sweepCellReport(d->points[std::size_t(p)],
                        sweepCeiling(d->points, d->points[std::size_t(p)].implId, d->record.copyGBs), nullptr);
  }
  return 0;
}
