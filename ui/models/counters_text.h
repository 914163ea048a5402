#pragma once
/// Hardware counters as the window shows them (launchlab/counters.h): the columns a result's table gains, a cell's
/// text and hover, and the stage's one line with the lesson's counter. Plain logic, no widgets.
#include <QString>
#include <string>
#include <vector>

#include "launchlab/result.h"

namespace launchlab::ui {

/// The counter ids the result's implementations were asked for, in the order asked (the first is the lesson's);
/// empty when the run measured none.
std::vector<std::string> counterColumns(const RunResult& r);

/// One cell: the value ("4.00", "16.4 M"), or "—" when the implementation has none (a CPU row: "", not asked).
struct CounterCell {
  QString text;
  QString tip;  ///< why there is no value (the profiler's sentence, a metric this GPU lacks), else the meaning
};
CounterCell counterCell(const ImplResult& impl, const std::string& id);

/// The header's hover: "sectors / request (loads), in sectors: <meaning>".
QString counterHeaderTip(const std::string& id);

/// The stage's line for the lesson's counter (the first asked for): "sectors / request (loads): CUDA coalesced 4.00
/// · CUDA strided 32.0", per kernel where an implementation ran several ("row_sums 32.0, col_sums 4.00"); the
/// profiler's one sentence when no implementation could be measured; "" when no counters were asked for.
QString countersLine(const RunResult& r);

}  // namespace launchlab::ui
