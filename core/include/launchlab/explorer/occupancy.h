#pragma once
/// Theoretical occupancy, computed the way NVIDIA's occupancy calculator (and cudaOccupancyMaxActiveBlocksPer-
/// Multiprocessor) does, from an architecture profile and a kernel's resource usage. Pure C++: it works on a machine
/// without a GPU; on a GPU the CUDA API's answer is reported beside it. Waves and launch hints follow from it.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "launchlab/engine/device.h"
#include "launchlab/engine/launch_config.h"

namespace launchlab {

/// The per-SM and per-block limits of one architecture (CUDA C Programming Guide, "Compute capabilities"), and the
/// SM count of a named common GPU of it.
struct ArchProfile {
  std::string arch;  ///< "sm_90"
  int ccMajor = 0, ccMinor = 0;
  std::string gpuName;  ///< the named GPU whose SM count this is, e.g. "NVIDIA H100 SXM5"
  int smCount = 0;
  int warpSize = 32;
  int maxThreadsPerBlock = 1024;
  int maxThreadsPerSm = 0;
  int maxBlocksPerSm = 0;
  int registersPerSm = 65536;
  int registersPerBlock = 65536;
  int maxRegistersPerThread = 255;
  int registerAllocUnit = 256;  ///< registers are allocated per warp, rounded up to this many
  int subPartitions = 4;        ///< the register file is split in 4: a warp's registers come from one quarter
  std::size_t sharedPerSm = 0;  ///< the largest shared-memory carveout (the default carveout allows it)
  std::size_t sharedPerBlock = 48 * 1024;  ///< without the opt-in (cudaFuncSetAttribute)
  std::size_t sharedPerBlockOptin = 0;
  std::size_t sharedAllocUnit = 0;         ///< a block's shared memory is rounded up to this
  std::size_t reservedSharedPerBlock = 0;  ///< taken by the driver from every block (1 KiB from sm_80 on)
  /// The datasheet of the named GPU (roofline.h's theoretical ceilings): kept with its name, which a present
  /// device's profile (profileForDevice) does not replace.
  std::string datasheetGpu;
  double datasheetDramGBs = 0;     ///< DRAM bandwidth, GB/s
  double datasheetFp32Gflops = 0;  ///< FP32 peak (non-tensor), GFLOP/s
  int maxWarpsPerSm() const { return maxThreadsPerSm / warpSize; }
};

/// sm_75, sm_80, sm_86, sm_89, sm_90, in that order.
const std::vector<ArchProfile>& archProfiles();
/// "sm_86" or "86"; nullptr when unknown.
const ArchProfile* findArchProfile(std::string_view name);
/// The profile used without a GPU and without --gpu-profile: sm_90 (the course's H100/H200).
const ArchProfile& defaultArchProfile();
/// "sm_75, sm_80, sm_86, sm_89, sm_90": for messages.
std::string archProfileNames();
/// The profile of a present device: its architecture's profile with the device's own name, SM count and the
/// limits it reports. nullopt for an architecture without a profile.
std::optional<ArchProfile> profileForDevice(const DeviceInfo& device);

/// What a kernel uses (cudaFuncGetAttributes, or the build's resource report).
struct KernelResources {
  int registersPerThread = 0;
  std::size_t staticSharedBytes = 0;
  std::size_t localBytesPerThread = 0;  ///< stack and spills: reported, not an occupancy limit
  int maxThreadsPerBlock = 0;           ///< the kernel's own limit (launch bounds, registers); 0: computed
  bool sharedOptIn = false;             ///< cudaFuncSetAttribute raised its dynamic shared memory above 48 KiB
  bool operator==(const KernelResources&) const = default;
};

/// What the CUDA API says for one kernel and block on a GPU (cudaFuncGetAttributes,
/// cudaOccupancyMaxActiveBlocksPerMultiprocessor), recorded by the kernels' launch resolution; matched to the
/// build's records by the kernel's mangled name.
struct ApiOccupancy {
  std::string symbol;
  KernelResources resources;  ///< registers, static shared, local, max threads per block
  int threadsPerBlock = 0;
  std::size_t dynamicSharedBytes = 0;
  std::uint64_t gridBlocks = 0;  ///< of the launch
  int blocksPerSm = 0;
  bool operator==(const ApiOccupancy&) const = default;
};

/// What limits the resident blocks per SM.
enum class Limiter { Threads, Warps, Registers, SharedMemory, Blocks };
/// "threads per block", "warps per SM", "registers", "shared memory", "blocks per SM".
std::string limiterName(Limiter l);

struct Occupancy {
  int threadsPerBlock = 0;
  int warpsPerBlock = 0;
  int blocksPerSm = 0;
  int activeWarps = 0;  ///< blocksPerSm x warpsPerBlock
  int maxWarps = 0;
  double occupancy = 0;  ///< activeWarps / maxWarps
  /// Blocks per SM each resource allows (kUnlimited where it sets none).
  int byThreads = 0, byWarps = 0, byRegisters = 0, byShared = 0, byBlocks = 0;
  std::vector<Limiter> limiters;   ///< every resource that allows exactly blocksPerSm (several on a tie)
  int registersPerBlock = 0;       ///< allocated: per warp rounded to the allocation unit, x warps
  std::size_t sharedPerBlock = 0;  ///< allocated: static + dynamic + reserved, rounded to the allocation unit
  std::string why;                 ///< one sentence on the limiter, or why no block fits
  static constexpr int kUnlimited = 1 << 30;
};

/// The largest block the kernel can be launched with: the architecture's limit, lowered by its registers.
int maxThreadsPerBlockFor(const ArchProfile& p, int registersPerThread);
/// Blocks per SM, occupancy and limiters of a kernel launched with `threadsPerBlock` threads.
Occupancy computeOccupancy(const ArchProfile& p, const KernelResources& k, int threadsPerBlock,
                           std::size_t dynamicSharedBytes = 0);

/// How a grid runs in waves of (blocks per SM x SMs) resident blocks.
struct Waves {
  std::uint64_t blocks = 0;
  std::uint64_t perWave = 0;     ///< 0 when no block fits
  std::uint64_t full = 0;        ///< full waves
  std::uint64_t lastBlocks = 0;  ///< blocks of the last, partial wave (0: none)
  double waves = 0;              ///< blocks / perWave
  /// waves / ceil(waves): the share of the launch's wave-time slots that do work, if every block takes as long.
  double efficiency = 0;
};
Waves wavesOf(std::uint64_t gridBlocks, int blocksPerSm, int smCount);

/// Advice in Nsight Compute's spirit: a block that is not a multiple of the warp size, a grid smaller than the SM
/// count, a partial last wave and what it costs, occupancy limited by registers or shared memory, no block fits.
std::vector<std::string> launchHints(const ArchProfile& p, const Occupancy& o, std::uint64_t gridBlocks);

}  // namespace launchlab
