#pragma once
/// The data of the views some lessons have of their own, as plain functions (no widgets): go_fast's first call (its
/// compile) against the later calls, and the coalescing map's two kernels side by side, each with its sectors per
/// request. The views (first_call_view.cpp, sector_map_view.cpp) draw what these return.
#include <cstdint>
#include <string>
#include <vector>

#include "launchlab/engine/array.h"
#include "launchlab/engine/result.h"
#include "launchlab/engine/workload.h"

namespace launchlab::ui {

/// The outputs pane's tab of the first call against the later calls: a view of an implementation's metrics, not of
/// an array.
inline constexpr const char* kFirstCallView = "first_call";
/// Whether `info`'s GPU implementation times its first call (metrics first_call_ms, later_call_ms, compile_ms).
bool timesFirstCall(const WorkloadInfo& info);

/// The first call against the median later call, in milliseconds; `missing` says why there is nothing to draw.
struct FirstCallBars {
  std::string implId, impl;  ///< the implementation timed, and its title
  double firstMs = 0, laterMs = 0, compileMs = 0;
  double ratio = 0;     ///< firstMs / laterMs
  std::string missing;  ///< "" when measured
};
/// From the run's implementation that reports first_call_ms and later_call_ms. Without one, `missing` names the GPU
/// implementation and why it did not run: a CPU's first repetition is its thread team starting, not a compile, so no
/// contrast is drawn from it.
FirstCallBars firstCallBars(const RunResult& r);
/// Milliseconds with three significant digits, never in exponent form: "29.1 ms", "0.0570 ms", "1234 ms".
std::string msText(double ms);
/// "511×" (whole from 10 up), "3.2×".
std::string timesText(double ratio);

/// Whether `info` and `spec` are the coalescing lesson's sector picture (32 lanes x [coalesced | between | strided]).
bool isSectorPicture(const WorkloadInfo& info, const ArraySpec& spec);

/// One kernel's map in the sector picture: lanes x its sectors, with its sectors per request.
struct SectorPanel {
  std::string implId, title;        ///< the kernel's implementation
  std::size_t lanes = 0, cols = 0;  ///< rows (warp 0's lanes) and sectors drawn
  std::vector<std::int32_t> cells;  ///< lanes x cols: how many lanes load from that sector (0: none)
  double sectorsPerRequest = 0;     ///< measured (the run's counters) or counted from the map
  bool measured = false;
  std::string source;  ///< where measured figures come from (ImplCounters::source); "" when the file does not say
};
/// The sector picture split at its between column: the coalesced kernel's panel, then the strided kernel's, named
/// by the run's implementations (or by their ids when they did not run) and with their sectors per request from the
/// run's counters when measured, else the distinct sectors of the map. Empty when `sectors` has no between column.
std::vector<SectorPanel> sectorPanels(const HostArray& sectors, const RunResult& r);
/// "4.00 sectors / request": a panel's headline.
std::string sectorsPerRequestText(const SectorPanel& p);
/// Where that number comes from: "measured by the hardware counters", "measured from the kernel's own accesses (no
/// admin rights)", "measured by the counters" (a file that does not say which) or "counted from warp 0's map".
std::string sectorsSourceText(const SectorPanel& p);

}  // namespace launchlab::ui
