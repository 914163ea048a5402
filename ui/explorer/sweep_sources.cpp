#include "explorer/sweep_sources.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <algorithm>
#include <string_view>
#include <unordered_set>

#include "launchlab/explorer/occupancy_report.h"
#include "launchlab/files/run_file.h"
#include "models/text.h"

namespace launchlab::ui {

namespace {}  // namespace

bool ShownSweep::hasGrid() const {
  bool block = false, grid = false;
  for (const auto& a : axes) {
    block = block || a.field == "block";
    grid = grid || a.field == "grid";
  }
  return block && grid;
}

std::vector<std::string> gpusOf(const ShownSweep& s) {
  // pointsByDevice's first-seen order, without copying every point into groups (this runs for each point shown),
  // and one look-up per point: a file may name a GPU per point.
  std::vector<std::string> names;
  std::unordered_set<std::string_view> seen;
  for (const auto& p : s.points)
    if (seen.insert(p.deviceName).second) names.push_back(p.deviceName);
  return names;
}

ShownSweep onGpu(const ShownSweep& s, const std::string& gpu) {
  ShownSweep out = s;
  std::erase_if(out.points, [&](const SweepPoint& p) { return p.deviceName != gpu; });
  return out;
}

QString ShownSweep::label() const {
  if (recorded)
    return "Recorded on " + q(runfile::recordedOn(device, record.timestamp)) + " \xE2\x80\x94 " + q(workload) + ", " +
           QFileInfo(origin).fileName() + ", not measured here";
  const QString where = device.available ? q(device.info.name) : QString("this machine (no GPU)");
  return "Your sweep: " + q(workload) + " on " + where + ", measured here";
}

std::optional<ShownSweep> openSweepFile(const QString& path, QString* error) {
  const std::string file = path.toStdString();
  std::string why;
  std::optional<SweepDocument> d;
  if (QFile resource(path); path.startsWith(':') && resource.open(QIODevice::ReadOnly))  // compiled in
    d = parseSweepJson(resource.readAll().toStdString(), &why);
  else  // core's reader: a regular file only (a FIFO is never opened blocking), the cap counted on what is read
    d = loadSweepFile(file, &why);
  if (!d) {
    if (why.rfind(file + ": ", 0) == 0) why.erase(0, file.size() + 2);  // the window names the file alone
    if (error) *error = QFileInfo(path).fileName() + ": " + q(why);
    return std::nullopt;
  }
  ShownSweep s;
  s.axes = std::move(d->axes);
  s.points = std::move(d->points);
  s.device = std::move(d->device);
  s.record = std::move(d->record);
  s.workload = std::move(d->workload);
  s.origin = path;
  s.recorded = true;
  return s;
}

std::vector<QString> referenceSweepFiles(const QString& folder) {
  std::vector<QString> out;
  for (const QFileInfo& fi : QDir(folder).entryInfoList({"*.json"}, QDir::Files, QDir::Name))
    out.push_back(fi.filePath());
  return out;
}

SweepCellReport cellReportOf(const ShownSweep& s, int index, const Registry& registry,
                             const std::vector<KernelRecord>& records) {
  const SweepPoint& p = s.points.at(std::size_t(index));
  const SweepCeiling ceiling = sweepCeiling(s.points, p.implId, s.record.copyGBs);
  const Workload* w = registry.find(s.workload);
  const ImplSpec* impl = w ? w->findImpl(p.implId) : nullptr;
  if (!impl || !impl->isGpu()) return sweepCellReport(p, ceiling, nullptr);
  const auto own = s.device.available ? profileForDevice(s.device.info) : std::nullopt;
  const OccupancyReport r =
      occupancyReport(w->info(), *impl, records, own.value_or(defaultArchProfile()), !own, {p.block},
                      GridChoice{sweepPointGrid(s.axes, p), w->info().defaultN}, w->info().defaultDType);
  return sweepCellReport(p, ceiling, r.rows.empty() ? nullptr : &r.rows.front());
}

}  // namespace launchlab::ui
