#pragma once
/// What the sweep tab shows, as plain data: the student's own sweep (live, measured here) or a recorded one (a
/// launchlab.sweep file, e.g. a reference sweep measured on the course's GPU and shipped with the app), each with
/// the label that says which it is; the two are never merged. Also the reference sweeps shipped in the resources,
/// and one cell's report with the occupancy of its launch (core's sweep_map.h and occupancy_report.h).
#include <QString>
#include <optional>
#include <string>
#include <vector>

#include "launchlab/engine/registry.h"
#include "launchlab/explorer/kernel_resources.h"
#include "launchlab/explorer/sweep_map.h"

namespace launchlab::ui {

struct ShownSweep {
  std::vector<SweepAxis> axes;
  std::vector<SweepPoint> points;
  DeviceStatus device;
  SweepRecord record;
  std::string workload;
  QString origin;  ///< the file a recorded sweep came from ("" for a live one)
  bool recorded = false;
  /// The implementation shown (the first point's; "" before any point).
  std::string implId() const { return points.empty() ? std::string() : points.front().implId; }
  bool hasGrid() const;  ///< a block axis and a grid axis: a heatmap
  /// "Recorded on NVIDIA H200 (driver 13.0), 2026-11-23 14:02 UTC: vector_add, reference sweep F.json" or
  /// "Your sweep: vector_add on <device>, measured here".
  QString label() const;
};

/// The GPUs whose points `s` holds (SweepPoint::deviceName, pointsByDevice's order); two or more only for a sweep
/// spread over the nodes of a cluster with different GPUs.
std::vector<std::string> gpusOf(const ShownSweep& s);
/// `s` with only the points `gpu` measured: timings of different GPUs are never drawn as one map or curve.
ShownSweep onGpu(const ShownSweep& s, const std::string& gpu);

/// The folder of the reference sweeps compiled into the app (resources/reference-sweeps/*.json).
inline const QString kReferenceSweepFolder = QStringLiteral(":/reference-sweeps");

/// Reads a launchlab.sweep file (a path or a Qt resource) as a recorded sweep; nullopt and one line in `error`
/// (naming the file) for anything else.
std::optional<ShownSweep> openSweepFile(const QString& path, QString* error);
/// The .json files of `folder`, sorted by name.
std::vector<QString> referenceSweepFiles(const QString& folder = kReferenceSweepFolder);

/// The report of point `index` of `s`: its figures, the occupancy of its launch (theory for the sweep's device, else
/// the default profile, when the workload and its kernels' resources are known here) and the gap to the prediction.
SweepCellReport cellReportOf(const ShownSweep& s, int index, const Registry& registry,
                             const std::vector<KernelRecord>& records);

}  // namespace launchlab::ui
