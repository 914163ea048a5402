#pragma once
/// The theoretical occupancy of an implementation's kernels over block sizes (occupancy_report.h) as curves for the
/// sweep chart, which overlays them on the measured points: no GPU needed (the device's profile, else the default
/// one, and the kernels' resource usage recorded at build time). Plain data, no widgets.
#include <QString>
#include <vector>

#include "launchlab/explorer/occupancy_report.h"

namespace launchlab::ui {

/// One curve: a kernel (instantiation) and its occupancy in % at each block's threads.
struct OccupancyCurve {
  QString label;  ///< "occupancy vector_add::addVectorizedKernel<float> (34 regs)"
  std::vector<double> threads, percent;
};
/// The report's rows as curves, one per kernel, in the report's order.
std::vector<OccupancyCurve> occupancyCurves(const OccupancyReport& report);
/// The axis title: "theoretical occupancy (%): sm_90, NVIDIA H100 SXM5", or the report's first note when it has
/// no rows (no kernel recorded).
QString occupancyAxisLabel(const OccupancyReport& report);

}  // namespace launchlab::ui
