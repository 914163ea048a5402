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
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "launchlab/ptx_instrument.h"

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
  /// warp_execution_efficiency (of the memory accesses), accesses (warp-level requests): only those with data.
  std::map<std::string, double> values;
  std::vector<AccessCounterLine> lines;  ///< per source line and kind, in source order
};
AccessCounters reduceRecords(const PtxInstrumentation& inst, const std::vector<std::uint64_t>& records);

/// Per line, in a student's words: "line 12: each warp's load touches 32.0 sectors (4 is the ideal for 4-byte
/// elements)".
std::string describeLine(const AccessCounterLine& l);

}  // namespace launchlab::ptx
