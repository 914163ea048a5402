#include "launchlab/explorer/block_trace.h"

#include <algorithm>
#include <functional>
#include <iomanip>
#include <map>
#include <queue>
#include <sstream>

#include "launchlab/engine/result.h"

namespace launchlab {

std::vector<BlockRecord> relativeBlockRecords(std::vector<BlockRecord> records) {
  std::erase_if(records, [](const BlockRecord& r) { return r.startNs == 0 || r.endNs < r.startNs; });
  if (records.empty()) return records;
  const std::uint64_t first =
      std::min_element(records.begin(), records.end(), [](auto& a, auto& b) { return a.startNs < b.startNs; })->startNs;
  for (auto& r : records) {
    r.startNs -= first;
    r.endNs -= first;
  }
  return records;
}

namespace {

/// The most blocks running at once: [start, end) intervals, so a block starting when another ends follows it.
int maxConcurrent(std::vector<const BlockRecord*> blocks) {
  std::sort(blocks.begin(), blocks.end(), [](auto* a, auto* b) { return a->startNs < b->startNs; });
  std::priority_queue<std::uint64_t, std::vector<std::uint64_t>, std::greater<>> ends;
  std::size_t most = 0;
  for (const BlockRecord* b : blocks) {
    while (!ends.empty() && ends.top() <= b->startNs) ends.pop();
    ends.push(b->endNs);
    most = std::max(most, ends.size());
  }
  return int(most);
}

std::string us(double ns) {
  std::ostringstream o;
  o << std::fixed << std::setprecision(ns < 10'000 ? 2 : 1) << ns / 1000 << " us";
  return o.str();
}

std::string fixed2(double v) {
  std::ostringstream o;
  o << std::fixed << std::setprecision(2) << v;
  return o.str();
}

}  // namespace

BlockTraceSummary summarizeBlockTrace(const std::vector<BlockRecord>& records, int smCount, int residentPerSm) {
  BlockTraceSummary s;
  s.blocks = records.size();
  s.smCount = smCount;
  s.residentPerSm = residentPerSm;
  s.predicted = wavesOf(s.blocks, residentPerSm, smCount);
  if (records.empty()) return s;
  std::map<std::uint32_t, std::vector<const BlockRecord*>> bySm;
  std::uint64_t first = records.front().startNs, last = records.front().endNs;
  for (const auto& r : records) {
    bySm[r.sm].push_back(&r);
    first = std::min(first, r.startNs);
    last = std::max(last, r.endNs);
  }
  s.smsUsed = int(bySm.size());
  s.minBlocksPerSm = s.blocks;
  std::uint64_t firstIdle = last;
  for (const auto& [sm, blocks] : bySm) {
    s.minBlocksPerSm = std::min<std::uint64_t>(s.minBlocksPerSm, blocks.size());
    s.maxBlocksPerSm = std::max<std::uint64_t>(s.maxBlocksPerSm, blocks.size());
    s.maxConcurrentPerSm = std::max(s.maxConcurrentPerSm, maxConcurrent(blocks));
    const auto lastOfSm =
        std::max_element(blocks.begin(), blocks.end(), [](auto* a, auto* b) { return a->endNs < b->endNs; });
    firstIdle = std::min(firstIdle, (*lastOfSm)->endNs);
  }
  const int perWave = residentPerSm > 0 ? residentPerSm : s.maxConcurrentPerSm;
  s.wavesObserved = (s.maxBlocksPerSm + std::uint64_t(perWave) - 1) / std::uint64_t(perWave);
  s.spanNs = double(last - first);
  s.tailNs = double(last - firstIdle);
  return s;
}

BlockTraceSummary summarizeBlockTrace(const ImplResult& r, const DeviceStatus& device) {
  int resident = 0;
  for (const auto& k : r.kernelOccupancy)
    if (k.gridBlocks == r.blockTrace.size()) {
      resident = k.blocksPerSm;
      break;
    }
  if (resident == 0 && !r.kernelOccupancy.empty()) resident = r.kernelOccupancy.front().blocksPerSm;
  return summarizeBlockTrace(r.blockTrace, device.available ? device.info.multiprocessors : 0, resident);
}

std::vector<int> blockWaves(const std::vector<BlockRecord>& records, int perSm) {
  std::map<std::uint32_t, std::vector<std::size_t>> bySm;
  for (std::size_t k = 0; k < records.size(); ++k) bySm[records[k].sm].push_back(k);
  if (perSm <= 0) perSm = std::max(1, summarizeBlockTrace(records, 0, 0).maxConcurrentPerSm);
  std::vector<int> waves(records.size(), 0);
  for (auto& [sm, ks] : bySm) {
    std::stable_sort(ks.begin(), ks.end(),
                     [&](std::size_t a, std::size_t b) { return records[a].startNs < records[b].startNs; });
    for (std::size_t rank = 0; rank < ks.size(); ++rank) waves[ks[rank]] = int(rank) / perSm;
  }
  return waves;
}

std::vector<std::string> blockTraceSummaryLines(const BlockTraceSummary& s) {
  std::vector<std::string> lines;
  if (s.blocks == 0) return {"no block traced"};
  lines.push_back("blocks: " + std::to_string(s.blocks) + " on " + std::to_string(s.smsUsed) + " of " +
                  (s.smCount > 0 ? std::to_string(s.smCount) : std::string("?")) + " SMs, " +
                  std::to_string(s.minBlocksPerSm) + " to " + std::to_string(s.maxBlocksPerSm) + " per SM; up to " +
                  std::to_string(s.maxConcurrentPerSm) + " at once on one SM" +
                  (s.residentPerSm > 0 ? " (occupancy: " + std::to_string(s.residentPerSm) + " resident)" : ""));
  std::string waves = "waves: " + std::to_string(s.wavesObserved) + " observed on the busiest SM";
  if (s.predicted.perWave > 0)
    waves += ", " + fixed2(s.predicted.waves) + " predicted (" + std::to_string(s.blocks) + " blocks / " +
             std::to_string(s.predicted.perWave) + " per wave" +
             (s.predicted.lastBlocks > 0 && s.predicted.full > 0
                  ? ": " + std::to_string(s.predicted.full) + " full, then " + std::to_string(s.predicted.lastBlocks)
                  : std::string()) +
             ")";
  lines.push_back(waves);
  const double share = s.spanNs > 0 ? 100 * s.tailNs / s.spanNs : 0;
  lines.push_back("time: " + us(s.spanNs) + " from the first block's start to the last one's end; tail " +
                  us(s.tailNs) + " (" + std::to_string(int(share + 0.5)) + "%) after the first SM ran out of blocks");
  return lines;
}

}  // namespace launchlab
