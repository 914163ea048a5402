#pragma once
/// Blocks on SMs: where and when each block of a traced kernel ran (an instrumented launch records %smid and
/// %globaltimer at the start and end of every block), and what a student reads from it: the SMs used, the blocks per
/// SM (imbalance), the waves observed against the occupancy's prediction, and the tail of the last partial wave.
/// Plain host code: no CUDA, no Qt.
#include <cstdint>
#include <string>
#include <vector>

#include "launchlab/explorer/occupancy.h"

namespace launchlab {

struct ImplResult;
struct DeviceStatus;

/// One block of a traced launch. Times are nanoseconds of the GPU's global timer, relative to the earliest start of
/// the launch once made relative (relativeBlockRecords).
struct BlockRecord {
  std::uint32_t block = 0;  ///< linear block index: x + gridDim.x * (y + gridDim.y * z)
  std::uint32_t sm = 0;     ///< %smid
  std::uint64_t startNs = 0;
  std::uint64_t endNs = 0;
  bool operator==(const BlockRecord&) const = default;
};

/// The most blocks one traced launch records (24 bytes each on the device): larger grids are not traced.
inline constexpr std::uint64_t kMaxTracedBlocks = std::uint64_t(1) << 20;
/// SM indices a trace may hold: far above any GPU's SM count (132 on an H100), so a larger one is a damaged or
/// crafted record, refused when a result is read (views draw one lane per SM).
inline constexpr std::uint32_t kMaxTracedSms = 4096;

/// Absolute timer stamps -> times after the earliest start. Records with no stamp (start 0: the block never
/// wrote it) or ending before they start are dropped; the rest keep their order.
std::vector<BlockRecord> relativeBlockRecords(std::vector<BlockRecord> absolute);

struct BlockTraceSummary {
  std::uint64_t blocks = 0;
  int smCount = 0;                                       ///< the device's SMs (0: unknown)
  int smsUsed = 0;                                       ///< SMs that ran at least one block
  std::uint64_t minBlocksPerSm = 0, maxBlocksPerSm = 0;  ///< over the SMs used
  int residentPerSm = 0;                                 ///< resident blocks per SM by the occupancy (0: unknown)
  int maxConcurrentPerSm = 0;                            ///< observed: the most blocks running at once on one SM
  Waves predicted;                                       ///< wavesOf(blocks, residentPerSm, smCount)
  /// Waves the busiest SM ran: ceil(its blocks / resident per SM), with the observed concurrency when the
  /// occupancy is unknown.
  std::uint64_t wavesObserved = 0;
  double spanNs = 0;  ///< from the first start to the last end
  /// From the moment the first SM ran out of blocks (its last block ended) to the last end: the time some SMs
  /// that had work sat idle while others finished (the tail of a partial wave, or imbalance).
  double tailNs = 0;
};

/// The summary of a launch's records (relative or absolute times), `smCount` the device's SMs and `residentPerSm`
/// the occupancy's resident blocks per SM (0 when unknown).
BlockTraceSummary summarizeBlockTrace(const std::vector<BlockRecord>& records, int smCount, int residentPerSm);
/// The same for an implementation's result: the SM count of the device it ran on, resident blocks per SM from the
/// CUDA API's occupancy of the launch whose grid matches the records (else of its first kernel).
BlockTraceSummary summarizeBlockTrace(const ImplResult& r, const DeviceStatus& device);

/// The wave of each record (same order): its start's rank among the blocks of its SM, divided by `perSm` (the
/// resident blocks per SM; the observed concurrency when 0 or less). For colouring a Gantt chart by wave.
std::vector<int> blockWaves(const std::vector<BlockRecord>& records, int perSm);

/// Three lines: blocks on SMs, waves, time and tail ("" lines are not returned). Times in microseconds.
std::vector<std::string> blockTraceSummaryLines(const BlockTraceSummary& s);

}  // namespace launchlab
