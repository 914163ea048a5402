#pragma once
/// Counters as the window shows them (launchlab/engine/counters.h): the columns a result's table gains, a cell's text
/// and hover, the stage's one line with the lesson's counter, and where the figures come from (CUPTI's hardware
/// counters, or the kernel's own accesses where the driver keeps those to administrators). Plain logic, no widgets.
#include <QString>
#include <string>
#include <string_view>
#include <vector>

#include "launchlab/engine/result.h"

namespace launchlab::ui {

/// Where an implementation's counters come from, as every figure is labelled: "hardware counters", "from the
/// kernel's own accesses (no admin rights)", or "" when the file predates the label.
QString counterSourceLabel(const ImplCounters& c);
/// The same from ImplCounters::source.
QString counterSourceLabel(std::string_view source);
/// The run's label: the one its measured implementations share, each distinct one joined by " and " (the first
/// implementation refused by CUPTI, the next measured from its accesses), "" when none says.
QString runCounterSource(const RunResult& r);
/// The label with why that source was used ("… (no admin rights): this driver lets only administrators read
/// hardware counters"): a hover's text; "" when none says.
QString runCounterSourceTip(const RunResult& r);

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
/// The header's text: the title, and under it where the run's figures come from ("hardware counters", "kernel's
/// own accesses"); the title alone when the run does not say.
QString counterHeaderText(const RunResult& r, const std::string& id);

/// The stage's line for the lesson's counter (the first asked for): "sectors / request (loads): CUDA coalesced 4.00
/// · CUDA strided 32.0 — hardware counters", per kernel where an implementation ran several ("row_sums 32.0,
/// col_sums 4.00"), ending with the source label; the profiler's one sentence when no implementation could be
/// measured; "" when no counters were asked for.
QString countersLine(const RunResult& r);

}  // namespace launchlab::ui
