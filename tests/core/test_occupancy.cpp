// Theoretical occupancy against values computed by hand (the occupancy calculator's rules), one case per limiter,
// the architecture profiles' figures, waves and launch hints.
#include <gtest/gtest.h>

#include <algorithm>

#include "launchlab/explorer/occupancy.h"

using namespace launchlab;

namespace {
const ArchProfile& sm(const char* name) { return *findArchProfile(name); }
KernelResources regs(int r, std::size_t staticShared = 0) {
  return {.registersPerThread = r, .staticSharedBytes = staticShared};
}
bool limitedBy(const Occupancy& o, Limiter l) { return std::count(o.limiters.begin(), o.limiters.end(), l) == 1; }
}  // namespace

TEST(ArchProfiles, FiguresOfTheComputeCapabilityTable) {
  ASSERT_EQ(archProfiles().size(), 5u);
  EXPECT_EQ(archProfileNames(), "sm_75, sm_80, sm_86, sm_89, sm_90");
  const ArchProfile& h100 = sm("sm_90");
  EXPECT_EQ(h100.smCount, 132);
  EXPECT_EQ(h100.maxWarpsPerSm(), 64);
  EXPECT_EQ(h100.maxBlocksPerSm, 32);
  EXPECT_EQ(h100.sharedPerSm, 233472u);          // 228 KiB
  EXPECT_EQ(h100.sharedPerBlockOptin, 232448u);  // 227 KiB
  EXPECT_EQ(h100.reservedSharedPerBlock, 1024u);
  EXPECT_EQ(sm("80").smCount, 108);
  EXPECT_EQ(sm("sm_80").sharedPerSm, 167936u);  // 164 KiB
  EXPECT_EQ(sm("sm_86").maxWarpsPerSm(), 48);
  EXPECT_EQ(sm("sm_86").maxBlocksPerSm, 16);
  EXPECT_EQ(sm("sm_89").maxBlocksPerSm, 24);
  EXPECT_EQ(sm("sm_89").sharedPerSm, 102400u);
  const ArchProfile& t4 = sm("sm_75");
  EXPECT_EQ(t4.maxWarpsPerSm(), 32);
  EXPECT_EQ(t4.sharedAllocUnit, 256u);
  EXPECT_EQ(t4.reservedSharedPerBlock, 0u);
  for (const auto& p : archProfiles()) {
    EXPECT_EQ(p.registersPerSm, 65536) << p.arch;
    EXPECT_EQ(p.registerAllocUnit, 256) << p.arch;
    EXPECT_EQ(p.maxRegistersPerThread, 255) << p.arch;
  }
  EXPECT_EQ(findArchProfile("sm_70"), nullptr);
  EXPECT_EQ(defaultArchProfile().arch, "sm_90");
}

TEST(ArchProfiles, APresentDeviceKeepsItsOwnNameAndSmCount) {
  DeviceInfo d;
  d.name = "NVIDIA H200";
  d.ccMajor = 9;
  d.multiprocessors = 132;
  auto p = profileForDevice(d);
  ASSERT_TRUE(p);
  EXPECT_EQ(p->gpuName, "NVIDIA H200");
  EXPECT_EQ(p->arch, "sm_90");
  d.ccMajor = 7, d.ccMinor = 0;
  EXPECT_FALSE(profileForDevice(d));
}

// 16 registers, 1 warp per block: 32 warps per quarter, shared 1 KiB (reserved) -> 228; 64 warp slots; 32 blocks.
TEST(Occupancy, LimitedByBlocksPerSm) {
  const Occupancy o = computeOccupancy(sm("sm_90"), regs(16), 32);
  EXPECT_EQ(o.byWarps, 64);
  EXPECT_EQ(o.byRegisters, 128);
  EXPECT_EQ(o.byShared, 228);
  EXPECT_EQ(o.blocksPerSm, 32);
  EXPECT_EQ(o.limiters, std::vector<Limiter>{Limiter::Blocks});
  EXPECT_EQ(o.activeWarps, 32);
  EXPECT_DOUBLE_EQ(o.occupancy, 0.5);
}

// 24 registers: 768 per warp, 21 warps per quarter = 84 -> 10 blocks of 8 warps; warp slots allow 64 / 8 = 8.
TEST(Occupancy, LimitedByWarps) {
  const Occupancy o = computeOccupancy(sm("sm_90"), regs(24), 256);
  EXPECT_EQ(o.byRegisters, 10);
  EXPECT_EQ(o.blocksPerSm, 8);
  EXPECT_EQ(o.limiters, std::vector<Limiter>{Limiter::Warps});
  EXPECT_DOUBLE_EQ(o.occupancy, 1.0);
}

// 40 registers: 1280 per warp; a quarter (16384) holds 12 warps, so 48 warps = 16 blocks of 3 warps (the whole file
// divided at once would give 51 warps, 17 blocks: the quarter rule matters). Warp slots allow 21, blocks 32.
TEST(Occupancy, LimitedByRegistersPerQuarterOfTheRegisterFile) {
  const Occupancy o = computeOccupancy(sm("sm_90"), regs(40), 96);
  EXPECT_EQ(o.registersPerBlock, 3840);
  EXPECT_EQ(o.byWarps, 21);
  EXPECT_EQ(o.byRegisters, 16);
  EXPECT_EQ(o.blocksPerSm, 16);
  EXPECT_EQ(o.limiters, std::vector<Limiter>{Limiter::Registers});
  EXPECT_DOUBLE_EQ(o.occupancy, 0.75);
  EXPECT_NE(o.why.find("limited by registers (40 per thread"), std::string::npos);
}

// 48 KiB static + 1 KiB reserved = 50176 bytes per block: 233472 / 50176 = 4 blocks of 4 warps = 25%.
TEST(Occupancy, LimitedBySharedMemory) {
  const Occupancy o = computeOccupancy(sm("sm_90"), regs(16, 48 * 1024), 128);
  EXPECT_EQ(o.sharedPerBlock, 50176u);
  EXPECT_EQ(o.byShared, 4);
  EXPECT_EQ(o.blocksPerSm, 4);
  EXPECT_EQ(o.limiters, std::vector<Limiter>{Limiter::SharedMemory});
  EXPECT_DOUBLE_EQ(o.occupancy, 0.25);
}

// Dynamic shared memory: 10000 + 1024 reserved = 11024, rounded to 128 -> 11136; 233472 / 11136 = 20 blocks.
TEST(Occupancy, DynamicSharedMemoryIsRoundedToTheAllocationUnit) {
  const Occupancy o = computeOccupancy(sm("sm_90"), regs(16), 64, 10000);
  EXPECT_EQ(o.sharedPerBlock, 11136u);
  EXPECT_EQ(o.blocksPerSm, 20);
  EXPECT_EQ(o.limiters, std::vector<Limiter>{Limiter::SharedMemory});
  EXPECT_DOUBLE_EQ(o.occupancy, 40.0 / 64);
  // On sm_75 the unit is 256 and nothing is reserved: 10000 -> 10240, 65536 / 10240 = 6.
  EXPECT_EQ(computeOccupancy(sm("sm_75"), regs(16, 10000), 64).byShared, 6);
}

// Above the 48 KiB a block gets without the opt-in, no block fits.
TEST(Occupancy, SharedMemoryBeyondThePerBlockLimitFitsNoBlock) {
  const Occupancy o = computeOccupancy(sm("sm_90"), regs(16, 48 * 1024), 128, 1);
  EXPECT_EQ(o.blocksPerSm, 0);
  EXPECT_TRUE(limitedBy(o, Limiter::SharedMemory));
  EXPECT_NE(o.why.find("48 KiB limit"), std::string::npos);
  KernelResources optIn = regs(16, 48 * 1024);
  optIn.sharedOptIn = true;
  EXPECT_EQ(computeOccupancy(sm("sm_90"), optIn, 128, 1).blocksPerSm, 4);
}

// 128 registers: 4096 per warp, so at most 16 warps (512 threads) per block. 1024 threads cannot launch; 512 fit
// once per SM (a quarter holds 4 warps: 16 warps per SM).
TEST(Occupancy, LimitedByTheKernelsMaximumThreadsPerBlock) {
  EXPECT_EQ(maxThreadsPerBlockFor(sm("sm_90"), 128), 512);
  EXPECT_EQ(maxThreadsPerBlockFor(sm("sm_90"), 72), 896);  // 2304 per warp: 28 warps (a multiple of 4)
  EXPECT_EQ(maxThreadsPerBlockFor(sm("sm_90"), 32), 1024);
  const Occupancy none = computeOccupancy(sm("sm_90"), regs(128), 1024);
  EXPECT_EQ(none.blocksPerSm, 0);
  EXPECT_EQ(none.limiters.front(), Limiter::Threads);
  EXPECT_TRUE(limitedBy(none, Limiter::Registers));
  EXPECT_NE(none.why.find("1024 threads per block > 512"), std::string::npos);
  const Occupancy one = computeOccupancy(sm("sm_90"), regs(128), 512);
  EXPECT_EQ(one.blocksPerSm, 1);
  EXPECT_DOUBLE_EQ(one.occupancy, 0.25);
  EXPECT_TRUE(limitedBy(one, Limiter::Registers));
  EXPECT_TRUE(limitedBy(one, Limiter::Warps) == false);
  // A kernel's own limit (launch bounds) below the architecture's.
  KernelResources bounded = regs(16);
  bounded.maxThreadsPerBlock = 256;
  EXPECT_EQ(computeOccupancy(sm("sm_90"), bounded, 512).limiters.front(), Limiter::Threads);
  EXPECT_EQ(computeOccupancy(sm("sm_90"), regs(16), 1025).blocksPerSm, 0);
}

TEST(Occupancy, TiesReportEveryLimiterAndOtherArchitecturesUseTheirLimits) {
  // sm_75: 64 registers x 256 threads: 8 warps per quarter -> 4 blocks; 32 warp slots / 8 -> 4 blocks too.
  const Occupancy t4 = computeOccupancy(sm("sm_75"), regs(64), 256);
  EXPECT_EQ(t4.blocksPerSm, 4);
  EXPECT_EQ(t4.limiters, (std::vector<Limiter>{Limiter::Warps, Limiter::Registers}));
  EXPECT_DOUBLE_EQ(t4.occupancy, 1.0);
  // sm_86: 2 warps per block, 24 fit the 48 slots but 16 blocks is the limit: 32 of 48 warps.
  const Occupancy ga = computeOccupancy(sm("sm_86"), regs(16), 64);
  EXPECT_EQ(ga.blocksPerSm, 16);
  EXPECT_EQ(ga.limiters, std::vector<Limiter>{Limiter::Blocks});
  EXPECT_DOUBLE_EQ(ga.occupancy, 32.0 / 48);
  // sm_89: 24 blocks per SM: 24 one-warp blocks = 24 of 48 warps.
  EXPECT_EQ(computeOccupancy(sm("sm_89"), regs(16), 32).blocksPerSm, 24);
  // 48 threads are 2 warps: the warp slots and the block limit both give 32 on sm_90.
  const Occupancy odd = computeOccupancy(sm("sm_90"), regs(16), 48);
  EXPECT_EQ(odd.limiters, (std::vector<Limiter>{Limiter::Warps, Limiter::Blocks}));
}

TEST(Waves, FullWavesAndTheLastPartialOne) {
  const Waves w = wavesOf(133, 1, 132);
  EXPECT_EQ(w.perWave, 132u);
  EXPECT_EQ(w.full, 1u);
  EXPECT_EQ(w.lastBlocks, 1u);
  EXPECT_NEAR(w.efficiency, 133.0 / 264, 1e-12);
  const Waves exact = wavesOf(4224, 8, 132);  // 4 waves of 1056
  EXPECT_EQ(exact.full, 4u);
  EXPECT_EQ(exact.lastBlocks, 0u);
  EXPECT_DOUBLE_EQ(exact.efficiency, 1.0);
  EXPECT_EQ(wavesOf(100, 0, 132).perWave, 0u);
}

TEST(LaunchHints, WarpMultipleSmallGridPartialWaveAndNoFit) {
  const ArchProfile& h = sm("sm_90");
  auto hints = launchHints(h, computeOccupancy(h, regs(16), 48), 100);
  ASSERT_EQ(hints.size(), 2u);
  EXPECT_EQ(hints[0],
            "block of 48 threads is not a multiple of the warp size (32): 16 of 64 lanes of its 2 warps idle");
  EXPECT_EQ(hints[1], "grid of 100 blocks < 132 SMs: 32 SMs idle");
  // 1024 threads, 2 blocks per SM: waves of 264; 265 blocks leave one block in the second wave.
  hints = launchHints(h, computeOccupancy(h, regs(16), 1024), 265);
  ASSERT_EQ(hints.size(), 1u);
  EXPECT_EQ(hints[0],
            "partial last wave: 1 full wave(s) of 264 blocks, then 1 blocks (0% of a wave); if blocks take "
            "equal time, 50% of the launch's wave slots idle");
  EXPECT_TRUE(launchHints(h, computeOccupancy(h, regs(16), 256), 1056).empty());
  hints = launchHints(h, computeOccupancy(h, regs(16), 256), 264);  // 8 blocks per SM: waves of 1056
  ASSERT_EQ(hints.size(), 1u);
  EXPECT_EQ(hints[0], "grid of 264 blocks fills 25% of one wave (1056 resident blocks): the SMs are not full");
  hints = launchHints(h, computeOccupancy(h, regs(128), 1024), 132);
  ASSERT_EQ(hints.size(), 1u);
  EXPECT_EQ(hints[0].rfind("no block fits on an SM: 1024 threads per block > 512", 0), 0u);
  hints = launchHints(h, computeOccupancy(h, regs(16, 48 * 1024), 128), 528);
  ASSERT_EQ(hints.size(), 1u);
  EXPECT_EQ(hints[0].rfind("occupancy 25%: 4 blocks per SM, limited by shared memory", 0), 0u);
}
