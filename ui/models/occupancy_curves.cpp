#include "models/occupancy_curves.h"

namespace launchlab::ui {

std::vector<OccupancyCurve> occupancyCurves(const OccupancyReport& report) {
  std::vector<OccupancyCurve> curves;
  for (const auto& row : report.rows) {
    const KernelRecord& k = row.kernel;
    const std::string name = k.displayName();
    const QString label =
        "occupancy " + QString::fromStdString(name) + QString(" (%1 regs)").arg(k.resources.registersPerThread);
    if (curves.empty() || curves.back().label != label) curves.push_back({label, {}, {}});
    curves.back().threads.push_back(double(row.block.count()));
    curves.back().percent.push_back(100.0 * row.occupancy.occupancy);
  }
  return curves;
}

QString occupancyAxisLabel(const OccupancyReport& report) {
  if (report.rows.empty() && !report.notes.empty()) return QString::fromStdString("occupancy: " + report.notes.front());
  return QString::fromStdString("theoretical occupancy (%): " + report.profile.arch + ", " + report.profile.gpuName);
}

}  // namespace launchlab::ui
