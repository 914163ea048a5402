#pragma once
/// Sweeps, in nvbench's shape: axes -> combinations -> one measurement each -> sinks. One implementation serves
/// the window's block-size sweep, `launchlab-cli sweep` and `launchlab-cli bench`, so what the CLI proves is what the
/// window shows. Every combination is parsed and validated like a single run; invalid ones are skipped with the
/// reason, which reaches the sinks like any other point.
#include <cstddef>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "launchlab/engine/cancel.h"
#include "launchlab/engine/device.h"
#include "launchlab/engine/request.h"
#include "launchlab/engine/result.h"

namespace launchlab {

/// One axis: a request field ("block", "grid", "n", "dtype", "param:<name>", …) and the values it takes, as typed.
struct SweepAxis {
  std::string field;
  std::vector<std::string> values;
};

/// Each value of an axis and its position (the first, for a repeated value): one look-up per point, so reading or
/// mapping a sweep of many points stays linear in its size.
std::unordered_map<std::string, std::size_t> axisPositions(const std::vector<std::string>& values);

/// Expands an axis' text: "32:1024:32" (start:stop:step, stop included), "a,b,c", or one value. A number may be
/// written "sm*k" (k times `smCount`, the SM count), in lists and ranges ("sm*1:sm*32:sm*1"); with smCount 0 that
/// is an error.
std::optional<std::vector<std::string>> axisValues(std::string_view text, std::string* error = nullptr,
                                                   int smCount = 0);
/// The SM count "sm*k" means: the device's, else the default architecture profile's (occupancy.h).
int smCountForSweeps(const DeviceStatus& device);
/// Threads per block 32, 64, …, up to maxThreads (step 32), as 1D blocks, or for 2D workloads 32 x (t / 32).
std::vector<Dim3> sweepBlocks(int launchDims, int maxThreads = 1024, int step = 32);

/// The most combinations one sweep may have (each is a run): a larger plan is refused with a problem saying so.
inline constexpr std::size_t kMaxSweepCells = 10000;

struct SweepPlan {
  RequestText base;             ///< every field the axes do not set; base.impls names the measured implementations
  std::vector<SweepAxis> axes;  ///< the first axis varies slowest
};

/// One combination of axis values: the request it makes, or why it is skipped.
struct SweepCell {
  std::vector<std::string> values;  ///< one per axis
  std::optional<RunRequest> request;
  std::string skipReason;
  std::optional<Dim3> block;  ///< the block it asks for (unset: auto, or the cell did not parse)
};

using RequestValidator = std::function<std::vector<RequestProblem>(const RunRequest&)>;

/// Every combination, parsed and validated. A problem in a field no axis sets (the base itself is invalid) or an
/// axis that names no request field is returned in `planProblems`, and no cell is made.
std::vector<SweepCell> expandSweep(const SweepPlan& plan, const RequestValidator& validate,
                                   std::vector<RequestProblem>& planProblems);

/// One measured implementation at one combination.
struct SweepPoint {
  std::vector<std::string> values;  ///< the cell's axis values
  std::string implId;
  bool gpu = false;           ///< a GPU implementation (its compute time is the kernel's)
  Dim3 block;                 ///< the requested block (the launched one when it was auto)
  std::uint64_t threads = 0;  ///< block.count()
  Status status = Status::Ok;
  std::string reason;                         ///< skipped/failed reason
  double kernelMs = 0, minMs = 0, maxMs = 0;  ///< compute (kernel or CPU) median, min, max
  double totalMs = 0;
  double bandwidthGBs = 0;
  std::optional<LaunchConfig> launched;
  Verification::Outcome outcome = Verification::Outcome::NotChecked;
  /// Host wall time of the cell's whole run (every implementation of it, warm-up, verification and the harness
  /// included), measured around the run by runSweep; what the harness adds per point is this minus the timed work.
  double cellWallMs = 0;
  /// Where it was measured: the Slurm node (RunResult::slurm, "" outside a job) and the GPU's name ("" without one).
  /// Points of different GPUs are never compared as one series (pointsByDevice).
  std::string node, deviceName;
  /// Counters of the point (a sweep with --counters: RunRequest::counters), by id, and where they come from
  /// (ImplCounters::source); countersError: why the point has none when they were asked for.
  std::map<std::string, double> counters;
  std::string counterSource, countersError;
};
/// The counter ids the points hold, in first-seen order (a column each in tables and CSV).
std::vector<std::string> sweepCounterIds(const std::vector<SweepPoint>& points);
/// The point of `implId` in a run's result (status Failed with the run's reason when it is missing).
SweepPoint sweepPointFrom(const RunResult& r, const std::string& implId, const Dim3& block);

/// The points grouped by the GPU that measured them (deviceName; "" for points without one), in first-seen order.
std::vector<std::pair<std::string, std::vector<SweepPoint>>> pointsByDevice(const std::vector<SweepPoint>& points);

/// Receives the points of a sweep as they are measured.
class SweepSink {
 public:
  virtual ~SweepSink() = default;
  virtual void begin(const SweepPlan& plan, std::size_t cells) { (void)plan, (void)cells; }
  /// `cell` is the index of the combination, `result` its run (empty for a skipped cell).
  virtual void point(std::size_t cell, const SweepPoint& p, const RunResult& result) = 0;
  virtual void end(bool cancelled) { (void)cancelled; }
};

/// A sink that calls a function for each point (e.g. to post it to a window, or to look at the whole result).
class SweepCallback final : public SweepSink {
 public:
  using Fn = std::function<void(std::size_t cell, const SweepPoint& p, const RunResult& result)>;
  explicit SweepCallback(Fn fn) : m_fn(std::move(fn)) {}
  void point(std::size_t cell, const SweepPoint& p, const RunResult& result) override { m_fn(cell, p, result); }

 private:
  Fn m_fn;
};

/// A sink that keeps the points, for tables, CSV and JSON.
class SweepTable final : public SweepSink {
 public:
  void begin(const SweepPlan& plan, std::size_t cells) override;
  void point(std::size_t cell, const SweepPoint& p, const RunResult& result) override;
  void end(bool cancelled) override { m_cancelled = cancelled; }
  const std::vector<SweepPoint>& points() const { return m_points; }
  const std::vector<std::string>& fields() const { return m_fields; }
  bool cancelled() const { return m_cancelled; }

 private:
  std::vector<std::string> m_fields;
  std::vector<SweepPoint> m_points;
  bool m_cancelled = false;
};

/// The points as CSV: one column per axis field, then impl, threads, status, reason, the compute median, min and
/// max, the total median, GB/s, the launched grid and block and the verification outcome; with counters, one
/// column per counter id (sweepCounterIds) and counter_source.
std::string sweepCsv(const std::vector<std::string>& axisFields, const std::vector<SweepPoint>& points);

/// When a sweep was measured and the ceiling measured with it, written beside its points.
struct SweepRecord {
  std::string timestamp;  ///< ISO 8601 UTC ("" unknown)
  double copyGBs = 0;     ///< cudaMemcpy device-to-device GB/s (read + write) measured in the same sweep; 0: none
};

/// The sweep as JSON (schema "launchlab.sweep", docs/JSON_SCHEMA.md): axes, device, when, the cudaMemcpy
/// ceiling when measured, and one object per point.
std::string sweepJson(const SweepPlan& plan, const std::vector<SweepPoint>& points, const DeviceStatus& device,
                      const SweepRecord& record = {});

/// A sweep read back from its JSON: a recorded sweep (e.g. a reference measured on the course's GPU).
struct SweepDocument {
  std::string workload;
  std::vector<SweepAxis> axes;
  DeviceStatus device;
  SweepRecord record;
  std::vector<SweepPoint> points;  ///< values in axis order; block from `at`, else the launched one, else threads
};
/// The most bytes and points a sweep document may have (a hostile file must not exhaust memory).
inline constexpr std::size_t kMaxSweepJsonBytes = 64u << 20;
inline constexpr std::size_t kMaxSweepPoints = 16 * kMaxSweepCells;
/// Parses sweepJson's output. Anything else (not JSON, cut short, another schema, a wrong type, a point whose axis
/// values do not match the axes, too large) gives nullopt and one line in `error`; never throws.
std::optional<SweepDocument> parseSweepJson(std::string_view text, std::string* error = nullptr);
/// Reads and parses a file: errors name the file ("F: not a launchlab.sweep document").
std::optional<SweepDocument> loadSweepFile(const std::string& path, std::string* error = nullptr);

using RunFn = std::function<RunResult(const RunRequest&, const CancelToken*, const ProgressFn&)>;

/// Runs every valid cell once with `run` and hands each measured implementation (or, for a skipped cell, each
/// requested one with the reason) to every sink. `progress(cell, p)` reports inside a cell. Returns false when
/// cancelled (checked before each cell and after each run).
bool runSweep(const SweepPlan& plan, const std::vector<SweepCell>& cells, const RunFn& run,
              const std::vector<SweepSink*>& sinks, const CancelToken* cancel = nullptr,
              const std::function<void(std::size_t, const Progress&)>& progress = {});

}  // namespace launchlab
