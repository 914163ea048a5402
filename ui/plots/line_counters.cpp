#include "plots/line_counters.h"

#include <algorithm>

#include "launchlab/engine/counters.h"
#include "launchlab/ptx/ptx_counters.h"
#include "models/counters_text.h"
#include "models/text.h"

namespace launchlab::ui {

namespace {

std::optional<double> valueOf(const CounterLine& l, const char* key) {
  const auto it = l.values.find(key);
  return it == l.values.end() ? std::nullopt : std::optional<double>(it->second);
}

/// The file's name without its folder: NVRTC names the student's file as given, nvcc the build's full path.
QString baseName(const QString& path) { return path.mid(std::max(path.lastIndexOf('/'), path.lastIndexOf('\\')) + 1); }

LineCounterRow rowOf(const CounterLine& l) {
  LineCounterRow row;
  row.file = q(l.file);
  row.line = l.line;
  row.kind = q(l.kind);
  row.text = q(l.text);
  row.requests = valueOf(l, "requests").value_or(0);
  row.sectorsPerRequest = valueOf(l, "sectors_per_request");
  row.idealSectors = valueOf(l, "ideal_sectors_per_request");
  row.bankConflicts = valueOf(l, "bank_conflicts");
  row.activeLanesPct = valueOf(l, "active_lanes_pct");
  if (row.sectorsPerRequest) {
    // Files from before the ideal was recorded: every sector beyond one per request counts.
    const double global = valueOf(l, "global_requests").value_or(row.requests);
    row.extra += global * std::max(0.0, *row.sectorsPerRequest - row.idealSectors.value_or(1.0));
  }
  row.extra += row.bankConflicts.value_or(0);
  return row;
}

QString missingText(const ImplResult& impl) {
  const QString name = q(impl.title.empty() ? impl.implId : impl.title);
  if (impl.status != Status::Ok) return name + " did not run: " + q(impl.reason);
  if (!impl.counters)
    return "No counters for " + name + ": turn Counters on (beside Run) and run again to see its lines.";
  const ImplCounters& c = *impl.counters;
  if (!c.error.ok()) return "No counters for " + name + ": " + q(counterErrorMessage(c.error));
  if (c.source == ptx::kHardwareSource)
    return name +
           " was measured by the hardware counters, which give no per-line figures. Run with "
           "LAUNCHLAB_COUNTER_SOURCE=accesses (or `launchlab-cli profile --counters=accesses --by-line`) to measure "
           "each line from the kernel's own accesses.";
  return name + " made no memory access the probes could count.";
}

}  // namespace

std::vector<std::string> implsWithLines(const RunResult& r) {
  std::vector<std::string> ids;
  for (const auto& i : r.impls)
    if (i.counters && i.counters->error.ok() && !i.counters->lines.empty()) ids.push_back(i.implId);
  return ids;
}

LineCountersTable lineCounters(const RunResult& r, const std::string& implId, const QString& file) {
  LineCountersTable t;
  t.implId = implId;
  const ImplResult* impl = r.find(implId);
  if (!impl) {
    t.impl = q(implId);
    t.missing = q(implId) + " is not in this run: tick it and run.";
    return t;
  }
  t.impl = q(impl->title.empty() ? impl->implId : impl->title);
  if (impl->counters) t.source = counterSourceLabel(*impl->counters);
  if (impl->status != Status::Ok || !impl->counters || !impl->counters->error.ok() || impl->counters->lines.empty()) {
    t.missing = missingText(*impl);
    return t;
  }
  const auto& lines = impl->counters->lines;
  const bool mine = !file.isEmpty() && std::any_of(lines.begin(), lines.end(), [&](const CounterLine& l) {
    return baseName(q(l.file)) == baseName(file);
  });
  for (const auto& l : lines)
    if (!mine || baseName(q(l.file)) == baseName(file)) t.rows.push_back(rowOf(l));
  double most = 0.5;  // less than one transaction beyond the ideal is rounding, not a cost
  for (std::size_t i = 0; i < t.rows.size(); ++i)
    if (t.rows[i].extra > most) {
      most = t.rows[i].extra;
      t.worst = int(i);
    }
  return t;
}

QString sectorsCellText(const LineCounterRow& row) {
  if (!row.sectorsPerRequest) return "\u2014";
  const QString v = QString::number(*row.sectorsPerRequest, 'f', *row.sectorsPerRequest >= 10 ? 1 : 2);
  return row.idealSectors ? v + " (ideal " + QString::number(*row.idealSectors, 'f', 0) + ")" : v;
}

QString conflictsCellText(const LineCounterRow& row) {
  if (!row.bankConflicts) return "\u2014";
  const CounterInfo* c = findCounter("bank_conflicts");
  return c ? q(formatCounter(*c, *row.bankConflicts)) : QString::number(*row.bankConflicts, 'g', 4);
}

QString worstLineText(const LineCountersTable& t) {
  if (t.rows.empty()) return {};
  if (t.worst < 0) return "Every line is at its ideal: no sector and no shared-memory cycle beyond what it needs.";
  const LineCounterRow& w = t.rows[std::size_t(t.worst)];
  return QString("Costliest: line %1 (%2, highlighted) \u2014 %3").arg(w.line).arg(w.kind, meaningText(w));
}

QString meaningText(const LineCounterRow& row) {
  const QString prefix = QString("line %1: ").arg(row.line);
  return row.text.startsWith(prefix) ? row.text.mid(prefix.size()) : row.text;
}

}  // namespace launchlab::ui
