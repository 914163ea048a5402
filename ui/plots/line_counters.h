#pragma once
/// A kernel's memory accesses per source line (ImplCounters::lines, what `profile --by-line` prints) as the window's
/// per-line table shows them: one row per line and kind of access, its warp requests, sectors per request against
/// the ideal, shared-memory bank conflicts and active lanes, the line in a student's words, and the worst line: the
/// one that costs the most memory transactions beyond its ideal. Plain logic, no widgets.
#include <QString>
#include <optional>
#include <string>
#include <vector>

#include "launchlab/engine/result.h"

namespace launchlab::ui {

struct LineCounterRow {
  QString file;  ///< as the PTX's line info names it
  int line = 0;
  QString kind;  ///< "load", "store", "atomic", "reduction"
  double requests = 0;
  std::optional<double> sectorsPerRequest, idealSectors;  ///< global accesses (ideal: absent in older files)
  std::optional<double> bankConflicts;                    ///< shared accesses: wavefronts beyond the ideal, summed
  std::optional<double> activeLanesPct;
  double extra = 0;  ///< sectors beyond the ideal plus bank conflicts: the transactions the line wastes
  QString text;      ///< "line 12: each warp's load touches 32.0 sectors …"
};

struct LineCountersTable {
  std::string implId;
  QString impl;    ///< the implementation's title
  QString source;  ///< counterSourceLabel: "from the kernel's own accesses (no admin rights)"
  std::vector<LineCounterRow> rows;
  int worst = -1;   ///< the row with the most extra transactions; -1 when every line is at its ideal
  QString missing;  ///< why there are no rows ("" when there are)
};

/// The implementations of `r` whose counters have per-line figures, in the run's order.
std::vector<std::string> implsWithLines(const RunResult& r);

/// The per-line table of implementation `implId` of `r`; only lines of `file` (compared by file name, without its
/// folder) when `file` is given and some line is of it. `missing` says why there is none: not run, no counters,
/// counters from the hardware (CUPTI gives no per-line figures), an error.
LineCountersTable lineCounters(const RunResult& r, const std::string& implId, const QString& file = {});

/// "32.0 (ideal 4)", "4.00", "—".
QString sectorsCellText(const LineCounterRow& row);
/// "16.4 M", "0", "—" (no shared access).
QString conflictsCellText(const LineCounterRow& row);
/// The row's sentence without its "line 12: " (the table has a line column).
QString meaningText(const LineCounterRow& row);
/// One line under the table: "Costliest: line 13 (load, highlighted) — each warp's shared load takes 32.0
/// cycles, 31.0 more than the ideal (bank conflicts); …", or that every line is at its ideal; "" without rows.
QString worstLineText(const LineCountersTable& t);

}  // namespace launchlab::ui
