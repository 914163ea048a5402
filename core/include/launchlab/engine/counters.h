#pragma once
/// Hardware counters: the catalogue a student chooses from (short ids, one-line meanings, units), the counters
/// measured for one implementation (per kernel and combined), the ways measuring them can fail, and the interface
/// the profiler module (profiler/: CUPTI's range profiler) implements. No Qt, no CUDA, no CUPTI here: the catalogue
/// names the hardware metrics as Nsight Compute spells them, and the arithmetic from them to a counter is here so
/// it is tested without a GPU.
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace launchlab {

/// One counter a student can ask for. Per kernel its value is scale × Σnumerator / Σdenominator (an empty
/// denominator is 1) over the hardware metrics named. An implementation's value combines its kernels: the same
/// ratio of the sums over every kernel when `weight` is empty (sectors per request over all requests, bytes over
/// all kernels), else the kernels' values averaged with `weight` as the weight (an occupancy weighted by each
/// kernel's duration, a hit rate by each kernel's sectors).
struct CounterInfo {
  std::string id;       ///< what a student types: "sectors_per_request"
  std::string title;    ///< a table's label: "sectors / request (loads)"
  std::string meaning;  ///< one line for a hover or the table
  std::string unit;     ///< "sectors", "%", "bytes", "conflicts", "warps", "instructions"
  std::vector<std::string> numerator;
  std::vector<std::string> denominator;
  double scale = 1;
  std::string weight;
  /// bandwidth_pct_of_memcpy: divided by the measured cudaMemcpy ceiling (GB/s, read + write) as well.
  bool overMemcpyCeiling = false;
};

/// Every counter, in the order tables list them.
const std::vector<CounterInfo>& counterCatalogue();
const CounterInfo* findCounter(std::string_view id);
/// What `run --counters` and the window's toggle measure when no list is given: the memory lessons' counters.
const std::vector<std::string>& defaultCounters();
/// The hardware metrics the counters need (each once, in a stable order): what the profiler collects.
std::vector<std::string> hardwareMetricsFor(const std::vector<std::string>& ids);

enum class CounterErrorKind {
  None,
  NoDevice,        ///< no GPU, no driver, a CPU-only build
  LibraryMissing,  ///< CUPTI or one of the libnvperf libraries was not found (detail: the file name)
  NotPermitted,    ///< the driver restricts counters to administrators
  UnknownMetric,   ///< a counter id that is not in the catalogue (detail: the id)
  Unsupported,     ///< this GPU or mode cannot be profiled (MIG, a virtual GPU, …; detail: why)
  Failed,          ///< any other CUPTI error (detail: the call and CUPTI's text)
};
struct CounterError {
  CounterErrorKind kind = CounterErrorKind::None;
  std::string detail;
  bool ok() const { return kind == CounterErrorKind::None; }
  bool operator==(const CounterError&) const = default;
};
std::string_view counterErrorKindName(CounterErrorKind k);
std::optional<CounterErrorKind> parseCounterErrorKind(std::string_view name);
/// The one line every front end shows (CLI stderr, the window where the counters would be).
std::string counterErrorMessage(const CounterError& e);
/// The fix for NotPermitted, in one line (part of its message; the window repeats it).
std::string_view counterPermissionFix();

/// "sectors_per_request,dram_bytes" or "all" → the ids; the first unknown id is an UnknownMetric error naming it
/// (its message lists the valid ids). Empty text or an empty item is an error too.
struct CounterList {
  std::vector<std::string> ids;
  CounterError error;
};
CounterList parseCounterList(std::string_view text);
/// Every id with its meaning, one per line: the CLI's help for --metrics.
std::string counterListHelp();

/// One kernel (every launch of it in the profiled kernel phase, summed).
struct KernelCounters {
  std::string kernel;  ///< demangled, without its parameter list
  int launches = 0;
  std::map<std::string, double> values;  ///< counter id → value
  bool operator==(const KernelCounters&) const = default;
};

/// One source line's memory accesses of one kind, as the access probes measured them (ImplCounters::lines).
struct CounterLine {
  std::string file;  ///< as the PTX's line info names it
  int line = 0;
  std::string kind;  ///< "load", "store", "atomic", "reduction"
  /// Only those with data: requests (warp-level), global_requests, sectors_per_request, ideal_sectors_per_request
  /// (global), shared_requests, wavefronts_per_request, bank_conflicts (shared), active_lanes_pct.
  std::map<std::string, double> values;
  std::string text;  ///< in a student's words: "line 12: each warp's load touches 32.0 sectors …"
  bool operator==(const CounterLine&) const = default;
};

/// The counters of one implementation, measured on a separate, untimed run of its kernel phase.
struct ImplCounters {
  std::vector<std::string> requested;    ///< the ids asked for
  std::map<std::string, double> values;  ///< combined over the kernels (CounterInfo says how)
  std::vector<KernelCounters> kernels;
  std::map<std::string, std::string> unavailable;  ///< id → why it has no value (GPU lacks a metric, no ceiling)
  int passes = 0;                                  ///< replay passes per kernel the metrics needed
  double profileMs = 0;                            ///< wall time of the profiled kernel phase (all passes, decoding)
  CounterError error;                              ///< when set, nothing was measured
  /// Where the figures come from, for every label: "hardware counters" (CUPTI) or "measured from the kernel's
  /// accesses" (the access probes, launchlab/ptx/ptx_counters.h); "" in files from before it was recorded.
  std::string source;
  std::string sourceReason;        ///< why that source ("this driver lets only administrators read hardware counters")
  std::vector<CounterLine> lines;  ///< the access probes: each source line that accesses memory, in source order
  bool operator==(const ImplCounters&) const = default;
};

/// What the profiler hands back for one profiled kernel phase: one entry per kernel launch (a CUPTI range) with
/// the hardware metrics' values.
struct RawRange {
  std::string kernel;
  std::map<std::string, double> metrics;
};
struct RawCounters {
  std::vector<RawRange> ranges;
  std::map<std::string, std::string> unsupportedMetrics;  ///< hardware metric → why (not on this GPU)
  int passes = 0;
  double profileMs = 0;
  std::size_t droppedRanges = 0;
  CounterError error;
  std::string source, sourceReason;  ///< ImplCounters::source and sourceReason
  std::vector<CounterLine> lines;    ///< ImplCounters::lines
};
/// The counters `ids` from raw values; `memcpyCeilingGBs` (0: unknown) for bandwidth_pct_of_memcpy.
ImplCounters deriveCounters(const std::vector<std::string>& ids, const RawCounters& raw, double memcpyCeilingGBs);
/// A value for tables, without its unit: "4.00" (sectors, warps), "81.2" (%), "16.4 M", "67.1 M", "950" (counts
/// and bytes with an SI prefix).
std::string formatCounter(const CounterInfo& c, double value);

/// What the standard GPU pipeline calls around its kernel phase when a run is profiled (ImplContext::kernelHook).
/// Neither call throws: a failure is kept and reported by the profiler's finish().
class KernelPhaseHook {
 public:
  virtual ~KernelPhaseHook() = default;
  virtual void beforeKernels() = 0;
  virtual void afterKernels() = 0;
};

/// A counter profiler (profiler/: CUPTI's range profiler, loaded at run time). The engine calls prepare, runs the
/// implementation once with the profiler as its kernel hook, then finish.
class CounterProfiler : public KernelPhaseHook {
 public:
  /// Whether the profiler's libraries can be loaded (no GPU needed): LibraryMissing naming the file, or ok.
  virtual CounterError libraryProblem() = 0;
  /// The next kernel phase collects these hardware metrics.
  virtual void prepare(const std::vector<std::string>& hardwareMetrics) = 0;
  /// The ranges collected since prepare (or why none were).
  virtual RawCounters finish() = 0;
};

}  // namespace launchlab
