#pragma once
/// Memory counters measured from a kernel's own accesses (docs/ACCESS_COUNTERS.md): the layout of the counter
/// record each probe adds to, the probe's arithmetic as a CPU model, and the reduction of the records to the
/// counters `--counters=accesses` reports. No CUDA here: the instrumenting pass (ptx_instrument.h) generates the
/// device probe from the same constants, and tests/core/test_ptx_model.cpp checks the model's textbook values.
///
/// Global (and generic addresses that are global): a lane's access touches the 32-byte sector addr >> 5 (PTX
/// requires natural alignment and the widest access is 16 bytes, so no access straddles two sectors); the warp's
/// request touches as many sectors as there are distinct keys.
///
/// Shared: 32 banks of 4 bytes, 128 bytes per wavefront. An access of w bytes is counted in units of max(w, 4)
/// bytes: unit = addr >> unitShift(w), in slot unit & (slots(w) − 1) of a 128-byte row (for w ≤ 4 the slot is the
/// bank, the unit the 4-byte word). Lanes on the same unit are served together (broadcast); distinct units in one
/// slot take one wavefront each. The request takes the largest number of distinct units in any slot; the ideal is
/// ceil(distinct units / slots(w)) (1 for w ≤ 4), and the wavefronts beyond it are the bank conflicts.
#include <array>
#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "launchlab/engine/counters.h"
#include "launchlab/ptx/ptx_instrument.h"

namespace launchlab::ptx {

inline constexpr int kSectorShift = 5;  ///< 32-byte sectors
inline constexpr int kBankRowBytes = 128;
inline constexpr int kWarpLanes = 32;

/// log2 of the unit a shared access of `widthBytes` is counted in (4-byte words for 1 to 4 bytes).
constexpr int unitShift(int widthBytes) { return widthBytes >= 16 ? 4 : widthBytes >= 8 ? 3 : 2; }
/// Units per 128-byte row: 32 (the banks) for 1–4 bytes, 16 for 8, 8 for 16.
constexpr int slotCount(int widthBytes) { return kBankRowBytes >> unitShift(widthBytes); }
constexpr int log2Slots(int widthBytes) { return 7 - unitShift(widthBytes); }

/// One probe's counter record: kRecordFields unsigned 64-bit sums in this order (the probe adds at 8 × field).
enum RecordField : int {
  kExecutions = 0,       ///< warp executions of the access with at least one lane taking part
  kLanes = 1,            ///< lanes taking part, summed (active and, for a predicated access, predicate true)
  kGlobalRequests = 2,   ///< executions with at least one lane addressing global memory
  kSectors = 3,          ///< distinct 32-byte sectors of those requests
  kSharedRequests = 4,   ///< executions with at least one lane addressing shared memory
  kWavefronts = 5,       ///< shared wavefronts: the most distinct units in one slot
  kIdealWavefronts = 6,  ///< the fewest wavefronts those distinct units could take
  kOtherLanes = 7,       ///< lanes of a generic access whose address was neither global nor shared (local)
  kRecordFields = 8,
};
inline constexpr int kRecordBytes = kRecordFields * 8;
using Record = std::array<std::uint64_t, kRecordFields>;

/// One lane of a warp at a probe: whether it takes part (active, predicate true), its address, and the space a
/// generic address resolves to (isspacep).
struct Lane {
  bool takesPart = false;
  std::uint64_t address = 0;
  PtxSpace resolved = PtxSpace::Global;  ///< Global, Shared or Local (anything else counts as other)
};

/// What one warp's execution of a probe adds to its record: the device probe's arithmetic on the CPU.
/// `space` is the instruction's (Global, Shared or Generic: then each lane's `resolved` decides).
Record modelProbe(const std::array<Lane, kWarpLanes>& warp, PtxSpace space, int widthBytes);

/// The counters of a run from its records: record i belongs to the access whose `counter` is i.
struct AccessCounterLine {
  std::string file;
  int line = 0;
  PtxAccessKind kind = PtxAccessKind::Load;
  int widthBytes = 0;  ///< the widest access of the line and kind
  Record sums{};
};
struct AccessCounters {
  /// sectors_per_request, store_sectors_per_request, bank_conflicts, bank_conflicts_ld, bank_conflicts_st,
  /// shared_wavefronts_per_request, warp_execution_efficiency (of the memory accesses), accesses (warp-level requests):
  /// only those with data.
  std::map<std::string, double> values;
  std::vector<AccessCounterLine> lines;  ///< per source line and kind, in source order
  Record loads{}, stores{}, all{};       ///< the records summed over the loads, the stores, every access
};
AccessCounters reduceRecords(const PtxInstrumentation& inst, const std::vector<std::uint64_t>& records);

/// Per line, in a student's words: "line 12: each warp's load touches 32.0 sectors (4 is the ideal for 4-byte
/// elements)".
std::string describeLine(const AccessCounterLine& l);

/// What a run keeps loaded to measure compiled-in kernels from their accesses (kernels/common/probe_launch.cu: the
/// workload's instrumented kernels, JIT-compiled one by one as they are launched, and their counter buffer). The
/// session holds it until finish(), which reads its records; destroying it unloads the kernels.
class ProbeModule {
 public:
  virtual ~ProbeModule() = default;
  /// The counter buffer (kRecordFields sums per record); empty when it cannot be read (the run failed).
  virtual std::vector<std::uint64_t> records() = 0;
};

/// What an implementation that loads its kernel from PTX asks of its kernel hook when the run is measured from the
/// kernel's accesses. A student's kernel (kernels/common/user_kernel.cu) loads `instrument(ptx).ptx` instead of its
/// own module, points the module's kCountersSymbol at a zeroed buffer of `records` × kRecordBytes, runs its kernel
/// phase as always and hands the buffer back (addRecords). A built-in kernel (gpu::launch,
/// kernels/common/probe_launch.cuh) instruments its workload's compiled-in PTX once per run, keeps what it loaded
/// with keepRunModule, and names each kernel it launches.
class AccessProbeSession {
 public:
  virtual ~AccessProbeSession() = default;
  /// Whether the run is measured this way (a fallback profiler may be using CUPTI instead).
  virtual bool probing() const = 0;
  /// The instrumentation of `ptx` (kept for the reduction); its error when the PTX cannot be read.
  virtual const PtxInstrumentation& instrument(std::string_view ptx) = 0;
  /// The buffer's records after the kernel phase.
  virtual void addRecords(const std::vector<std::uint64_t>& records) = 0;
  /// The module this run's built-in launches loaded (null until the first launch), and keeping it for the run.
  virtual ProbeModule* runModule() = 0;
  virtual void keepRunModule(std::unique_ptr<ProbeModule> module) = 0;
  /// A kernel (its PTX entry) was launched: the figures are those of the kernels launched, one range each.
  virtual void launched(const std::string& entry) = 0;
};
/// The session behind a kernel hook when it measures from the accesses; null otherwise (CUPTI, no hook).
AccessProbeSession* accessProbesOf(KernelPhaseHook* hook);

/// The label of counters measured this way, and of CUPTI's: every figure says where it comes from.
inline constexpr std::string_view kAccessSource = "measured from the kernel's accesses";
inline constexpr std::string_view kHardwareSource = "hardware counters";

/// The counter profiler of the access probes: no profiling rights needed. finish() reports the catalogue's counters
/// that the probes measure (sectors per request, bank conflicts, warp execution efficiency of the memory accesses)
/// under the hardware metrics' names, so deriveCounters and every table treat them alike, one range per kernel
/// launched; the others are unavailable with the reason. An implementation whose kernels were not launched through
/// the probes gets Unsupported, saying so.
class AccessProfiler : public CounterProfiler, public AccessProbeSession {
 public:
  CounterError libraryProblem() override { return {}; }
  void prepare(const std::vector<std::string>& hardwareMetrics) override;
  void beforeKernels() override {}
  void afterKernels() override {}
  RawCounters finish() override;
  bool probing() const override { return true; }
  /// The same PTX as the last call's (every point of a sweep) is not instrumented again.
  const PtxInstrumentation& instrument(std::string_view ptx) override;
  void addRecords(const std::vector<std::uint64_t>& records) override;
  ProbeModule* runModule() override { return m_module.get(); }
  void keepRunModule(std::unique_ptr<ProbeModule> module) override { m_module = std::move(module); }
  void launched(const std::string& entry) override;
  /// Per source line, in words, of each finish() so far (one entry per profiled implementation, in order).
  const std::vector<std::vector<std::string>>& lines() const { return m_lines; }

 private:
  RawRange rangeOf(const PtxInstrumentation& inst, const std::string& kernel, RawCounters& raw) const;
  std::vector<std::string> m_metrics;
  std::string m_source;  ///< the PTX m_inst instruments
  PtxInstrumentation m_inst;
  std::vector<std::uint64_t> m_records;
  bool m_loaded = false;
  std::unique_ptr<ProbeModule> m_module;
  std::vector<std::string> m_launched;              ///< entries, in first-launch order (built-in kernels)
  std::chrono::steady_clock::time_point m_started;  ///< prepare(): profileMs is measured from there
  std::vector<std::vector<std::string>> m_lines;
};

}  // namespace launchlab::ptx
