#pragma once
/// A block x grid sweep as a map (the window's heatmap) and the story of one cell: its measured figures, theoretical
/// occupancy and limiter, waves and the last partial wave, and the gap between measured and predicted. Plain data:
/// the window draws it, tests check it without a GPU.
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "launchlab/explorer/occupancy_report.h"
#include "launchlab/explorer/sweep.h"

namespace launchlab {

/// What a heatmap colours a cell by.
enum class SweepMetric { TimeMs, BandwidthGBs, PercentOfCopy };
/// "kernel time (ms)", "bandwidth (GB/s)", "% of cudaMemcpy".
std::string_view sweepMetricName(SweepMetric m);

/// The points of one implementation on a block (columns) x grid (rows) map.
struct SweepMap {
  std::vector<std::string> blocks, grids;  ///< column and row labels, in their axes' order
  /// value of column b, row g at [g * blocks.size() + b]; NaN where nothing was measured (skipped, failed, absent)
  std::vector<double> values;
  std::vector<int> points;            ///< the index in the points of each cell, -1 for none
  double minValue = 0, maxValue = 0;  ///< over the measured cells
  std::string problem;                ///< why there is no map ("" when there is one)
  std::string note;                   ///< e.g. which values of the other axes it shows
  bool empty() const { return blocks.empty() || grids.empty(); }
  double at(std::size_t block, std::size_t grid) const { return values[grid * blocks.size() + block]; }
  int pointAt(std::size_t block, std::size_t grid) const { return points[grid * blocks.size() + block]; }
};

/// The map of `implId`'s points (its first one when empty) over the "block" and "grid" axes; other axes are held at
/// their first value (the note says so). PercentOfCopy needs `copyGBs` > 0 (else the problem says so).
SweepMap sweepMap(const std::vector<SweepAxis>& axes, const std::vector<SweepPoint>& points, std::string implId,
                  SweepMetric metric, double copyGBs);

/// The ceiling a cell is measured against: cudaMemcpy measured in the same sweep, else the sweep's best GB/s.
struct SweepCeiling {
  double gbs = 0;
  std::string source;  ///< "cudaMemcpy D2D measured in the same sweep" / "the best point of this sweep"
};
SweepCeiling sweepCeiling(const std::vector<SweepPoint>& points, const std::string& implId, double copyGBs);

/// One cell explained. The prediction: the bytes the kernel moved (its GB/s x its time) at the ceiling's bandwidth,
/// slowed by the launch's wave efficiency (a partial last wave leaves SMs idle if every block takes as long).
struct SweepCellReport {
  SweepPoint point;
  std::optional<OccupancyRow> occupancy;  ///< of the implementation's first kernel, when its resources are recorded
  SweepCeiling ceiling;
  double predictedMs = 0;          ///< 0 when it cannot be predicted (not measured, no ceiling)
  double gapPercent = 0;           ///< (measured - predicted) / predicted x 100
  std::vector<std::string> lines;  ///< the whole story as text, one fact a line
};
/// `occupancy`: the row of the cell's block and grid (occupancyReport with that block and grid), or null.
SweepCellReport sweepCellReport(const SweepPoint& p, const SweepCeiling& ceiling, const OccupancyRow* occupancy);

/// The launched grid of a point, else the grid its "grid" axis asked for (nullopt: auto, or no grid axis).
std::optional<Dim3> sweepPointGrid(const std::vector<SweepAxis>& axes, const SweepPoint& p);

}  // namespace launchlab
