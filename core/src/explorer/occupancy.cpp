// Theoretical occupancy: the rules of NVIDIA's occupancy calculator (registers allocated per warp in units of 256
// from one of the SM's 4 register-file quarters, shared memory rounded to its allocation unit plus the driver's
// reserved 1 KiB per block, warp slots, the per-SM block limit), waves and launch hints.
#include "launchlab/explorer/occupancy.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace launchlab {

namespace {

constexpr std::size_t KiB = 1024;

ArchProfile profile(std::string arch, int major, int minor, std::string gpu, int sms, int threadsPerSm, int blocksPerSm,
                    std::size_t sharedPerSm, std::size_t optin, std::size_t unit, std::size_t reserved) {
  ArchProfile p;
  p.arch = std::move(arch);
  p.ccMajor = major;
  p.ccMinor = minor;
  p.gpuName = std::move(gpu);
  p.smCount = sms;
  p.maxThreadsPerSm = threadsPerSm;
  p.maxBlocksPerSm = blocksPerSm;
  p.sharedPerSm = sharedPerSm;
  p.sharedPerBlockOptin = optin;
  p.sharedAllocUnit = unit;
  p.reservedSharedPerBlock = reserved;
  return p;
}

ArchProfile withDatasheet(ArchProfile p, double dramGBs, double fp32Gflops) {
  p.datasheetGpu = p.gpuName;
  p.datasheetDramGBs = dramGBs;
  p.datasheetFp32Gflops = fp32Gflops;
  return p;
}

int roundUp(int x, int unit) { return (x + unit - 1) / unit * unit; }
std::size_t roundUp(std::size_t x, std::size_t unit) { return (x + unit - 1) / unit * unit; }

std::string pct(double x) {
  char b[32];
  std::snprintf(b, sizeof b, "%.0f%%", 100 * x);
  return b;
}

/// Registers: each warp gets regs x 32 rounded up to the allocation unit, from one quarter of the register file;
/// the hardware also checks a block's registers as if its warps were spread over the 4 quarters.
int blocksByRegisters(const ArchProfile& p, int regs, int warps, int& perBlock) {
  const int perWarp = roundUp(regs * p.warpSize, p.registerAllocUnit);
  perBlock = perWarp * warps;
  if (perWarp == 0) return Occupancy::kUnlimited;
  if (perWarp * roundUp(warps, p.subPartitions) > p.registersPerBlock) return 0;
  const int warpsPerQuarter = (p.registersPerSm / p.subPartitions) / perWarp;
  return warpsPerQuarter * p.subPartitions / warps;
}

int blocksByShared(const ArchProfile& p, const KernelResources& k, std::size_t dynamic, std::size_t& perBlock) {
  perBlock = roundUp(k.staticSharedBytes + dynamic + p.reservedSharedPerBlock, p.sharedAllocUnit);
  const std::size_t limit = (k.sharedOptIn ? p.sharedPerBlockOptin : p.sharedPerBlock) + p.reservedSharedPerBlock;
  if (perBlock > limit) return 0;
  return perBlock == 0 ? Occupancy::kUnlimited : int(p.sharedPerSm / perBlock);
}

std::string whyOf(const ArchProfile& p, const KernelResources& k, const Occupancy& o) {
  if (o.blocksPerSm == 0) {
    if (o.byThreads == 0)
      return std::to_string(o.threadsPerBlock) + " threads per block > " +
             std::to_string(k.maxThreadsPerBlock ? std::min(k.maxThreadsPerBlock, p.maxThreadsPerBlock)
                                                 : maxThreadsPerBlockFor(p, k.registersPerThread)) +
             ", the kernel's limit on " + p.arch;
    if (o.byRegisters == 0)
      return std::to_string(o.registersPerBlock) + " registers per block > " + std::to_string(p.registersPerBlock);
    return std::to_string(o.sharedPerBlock) + " bytes of shared memory per block > the " +
           std::to_string((k.sharedOptIn ? p.sharedPerBlockOptin : p.sharedPerBlock) / KiB) + " KiB limit";
  }
  const Limiter l = o.limiters.front();
  std::string s = std::to_string(o.blocksPerSm) + " blocks per SM, limited by " + limiterName(l);
  if (l == Limiter::Registers)
    s += " (" + std::to_string(k.registersPerThread) + " per thread, " + std::to_string(o.registersPerBlock) +
         " per block of " + std::to_string(p.registersPerSm) + ")";
  else if (l == Limiter::SharedMemory)
    s += " (" + std::to_string(o.sharedPerBlock) + " bytes per block of " + std::to_string(p.sharedPerSm) + ")";
  else if (l == Limiter::Warps)
    s += " (" + std::to_string(o.warpsPerBlock) + " per block of " + std::to_string(o.maxWarps) + ")";
  else if (l == Limiter::Blocks)
    s += " (at most " + std::to_string(p.maxBlocksPerSm) + " on " + p.arch + ")";
  return s;
}

}  // namespace

const std::vector<ArchProfile>& archProfiles() {
  // SM counts: Tesla T4 40, A100 SXM4 108, RTX 3090 82, RTX 4090 128, H100 SXM5 132 (the H200 has 132 too).
  // The datasheet figures (DRAM GB/s, FP32 GFLOP/s without tensor cores) are NVIDIA's product pages for each GPU:
  // Tesla T4 320 GB/s, 8.1 TFLOPS; A100 SXM4 40GB 1555 GB/s, 19.5 TFLOPS; GeForce RTX 3090 936 GB/s, 35.6 TFLOPS;
  // GeForce RTX 4090 1008 GB/s, 82.6 TFLOPS; H100 SXM5 3.35 TB/s, 67 TFLOPS.
  static const std::vector<ArchProfile> v = {
      withDatasheet(profile("sm_75", 7, 5, "Tesla T4", 40, 1024, 16, 64 * KiB, 64 * KiB, 256, 0), 320, 8100),
      withDatasheet(profile("sm_80", 8, 0, "NVIDIA A100-SXM4", 108, 2048, 32, 164 * KiB, 163 * KiB, 128, KiB), 1555,
                    19500),
      withDatasheet(profile("sm_86", 8, 6, "NVIDIA GeForce RTX 3090", 82, 1536, 16, 100 * KiB, 99 * KiB, 128, KiB), 936,
                    35600),
      withDatasheet(profile("sm_89", 8, 9, "NVIDIA GeForce RTX 4090", 128, 1536, 24, 100 * KiB, 99 * KiB, 128, KiB),
                    1008, 82600),
      withDatasheet(profile("sm_90", 9, 0, "NVIDIA H100 SXM5", 132, 2048, 32, 228 * KiB, 227 * KiB, 128, KiB), 3350,
                    67000),
  };
  return v;
}

const ArchProfile* findArchProfile(std::string_view name) {
  if (name.rfind("sm_", 0) == 0) name.remove_prefix(3);
  for (const auto& p : archProfiles())
    if (std::string_view(p.arch).substr(3) == name) return &p;
  return nullptr;
}

const ArchProfile& defaultArchProfile() { return *findArchProfile("sm_90"); }

std::string archProfileNames() {
  std::string s;
  for (const auto& p : archProfiles()) s += (s.empty() ? "" : ", ") + p.arch;
  return s;
}

std::optional<ArchProfile> profileForDevice(const DeviceInfo& d) {
  const ArchProfile* base = findArchProfile(std::to_string(d.ccMajor * 10 + d.ccMinor));
  if (!base) return std::nullopt;
  ArchProfile p = *base;
  p.gpuName = d.name;
  if (d.multiprocessors > 0) p.smCount = d.multiprocessors;
  if (d.maxThreadsPerMultiprocessor > 0) p.maxThreadsPerSm = d.maxThreadsPerMultiprocessor;
  if (d.maxBlocksPerMultiprocessor > 0) p.maxBlocksPerSm = d.maxBlocksPerMultiprocessor;
  if (d.registersPerMultiprocessor > 0) p.registersPerSm = d.registersPerMultiprocessor;
  if (d.registersPerBlock > 0) p.registersPerBlock = d.registersPerBlock;
  if (d.sharedMemPerMultiprocessor > 0) p.sharedPerSm = d.sharedMemPerMultiprocessor;
  return p;
}

std::string limiterName(Limiter l) {
  switch (l) {
    case Limiter::Threads:
      return "threads per block";
    case Limiter::Warps:
      return "warps per SM";
    case Limiter::Registers:
      return "registers";
    case Limiter::SharedMemory:
      return "shared memory";
    case Limiter::Blocks:
      return "blocks per SM";
  }
  return "?";
}

int maxThreadsPerBlockFor(const ArchProfile& p, int registersPerThread) {
  const int perWarp = roundUp(registersPerThread * p.warpSize, p.registerAllocUnit);
  if (perWarp == 0) return p.maxThreadsPerBlock;
  // The largest warp count, in whole register-file quarters, whose registers fit the per-block limit.
  const int warps = p.registersPerBlock / perWarp / p.subPartitions * p.subPartitions;
  return std::min(p.maxThreadsPerBlock, warps * p.warpSize);
}

Occupancy computeOccupancy(const ArchProfile& p, const KernelResources& k, int threadsPerBlock,
                           std::size_t dynamicSharedBytes) {
  Occupancy o;
  o.threadsPerBlock = threadsPerBlock;
  o.warpsPerBlock = (threadsPerBlock + p.warpSize - 1) / p.warpSize;
  o.maxWarps = p.maxWarpsPerSm();
  const int kernelMax = k.maxThreadsPerBlock > 0 ? std::min(k.maxThreadsPerBlock, p.maxThreadsPerBlock)
                                                 : maxThreadsPerBlockFor(p, k.registersPerThread);
  const bool fits = threadsPerBlock >= 1 && threadsPerBlock <= kernelMax;
  o.byThreads = fits ? Occupancy::kUnlimited : 0;
  o.byWarps = threadsPerBlock >= 1 && threadsPerBlock <= p.maxThreadsPerBlock ? o.maxWarps / o.warpsPerBlock : 0;
  o.byRegisters = blocksByRegisters(p, k.registersPerThread, std::max(o.warpsPerBlock, 1), o.registersPerBlock);
  o.byShared = blocksByShared(p, k, dynamicSharedBytes, o.sharedPerBlock);
  o.byBlocks = p.maxBlocksPerSm;
  o.blocksPerSm = std::min({o.byThreads, o.byWarps, o.byRegisters, o.byShared, o.byBlocks});
  const std::pair<Limiter, int> each[] = {{Limiter::Threads, o.byThreads},
                                          {Limiter::Warps, o.byWarps},
                                          {Limiter::Registers, o.byRegisters},
                                          {Limiter::SharedMemory, o.byShared},
                                          {Limiter::Blocks, o.byBlocks}};
  for (const auto& [l, n] : each)
    if (n == o.blocksPerSm) o.limiters.push_back(l);
  o.activeWarps = o.blocksPerSm * o.warpsPerBlock;
  o.occupancy = o.maxWarps ? double(o.activeWarps) / o.maxWarps : 0;
  o.why = whyOf(p, k, o);
  return o;
}

Waves wavesOf(std::uint64_t gridBlocks, int blocksPerSm, int smCount) {
  Waves w;
  w.blocks = gridBlocks;
  w.perWave = std::uint64_t(std::max(blocksPerSm, 0)) * std::uint64_t(std::max(smCount, 0));
  if (w.perWave == 0 || gridBlocks == 0) return w;
  w.full = gridBlocks / w.perWave;
  w.lastBlocks = gridBlocks % w.perWave;
  w.waves = double(gridBlocks) / double(w.perWave);
  w.efficiency = w.waves / std::ceil(w.waves);
  return w;
}

std::vector<std::string> launchHints(const ArchProfile& p, const Occupancy& o, std::uint64_t gridBlocks) {
  std::vector<std::string> h;
  if (o.blocksPerSm == 0) {
    h.push_back("no block fits on an SM: " + o.why);
    return h;
  }
  const int idle = o.warpsPerBlock * p.warpSize - o.threadsPerBlock;
  if (idle > 0)
    h.push_back("block of " + std::to_string(o.threadsPerBlock) + " threads is not a multiple of the warp size (" +
                std::to_string(p.warpSize) + "): " + std::to_string(idle) + " of " +
                std::to_string(o.warpsPerBlock * p.warpSize) + " lanes of its " + std::to_string(o.warpsPerBlock) +
                " warps idle");
  if (gridBlocks > 0 && gridBlocks < std::uint64_t(p.smCount))
    h.push_back("grid of " + std::to_string(gridBlocks) + " blocks < " + std::to_string(p.smCount) +
                " SMs: " + std::to_string(p.smCount - gridBlocks) + " SMs idle");
  const Waves w = wavesOf(gridBlocks, o.blocksPerSm, p.smCount);
  if (w.lastBlocks > 0 && w.full > 0)
    h.push_back("partial last wave: " + std::to_string(w.full) + " full wave(s) of " + std::to_string(w.perWave) +
                " blocks, then " + std::to_string(w.lastBlocks) + " blocks (" +
                pct(double(w.lastBlocks) / double(w.perWave)) + " of a wave); if blocks take equal time, " +
                pct(1 - w.efficiency) + " of the launch's wave slots idle");
  if (w.full == 0 && w.lastBlocks >= std::uint64_t(p.smCount))
    h.push_back("grid of " + std::to_string(gridBlocks) + " blocks fills " +
                pct(double(w.lastBlocks) / double(w.perWave)) + " of one wave (" + std::to_string(w.perWave) +
                " resident blocks): the SMs are not full");
  const Limiter l = o.limiters.front();
  if (o.occupancy < 0.5 && (l == Limiter::Registers || l == Limiter::SharedMemory))
    h.push_back("occupancy " + pct(o.occupancy) + ": " + o.why);
  return h;
}

}  // namespace launchlab
