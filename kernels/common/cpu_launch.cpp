#include "common/cpu_launch.h"

#include <algorithm>

#include "launchlab/engine/errors.h"
#include "launchlab/explorer/occupancy.h"

namespace launchlab::kernels {

namespace {

// Blocks of `threads` threads the default profile keeps resident on all its SMs, limited by threads and blocks
// per SM only (an emulated kernel has no register or shared-memory footprint to count).
std::uint64_t residentBlocks(std::uint64_t threads) {
  const ArchProfile& p = defaultArchProfile();
  const std::uint64_t perSm = std::max<std::uint64_t>(
      1, std::min<std::uint64_t>(std::uint64_t(p.maxThreadsPerSm) / threads, std::uint64_t(p.maxBlocksPerSm)));
  return perSm * std::uint64_t(p.smCount);
}

}  // namespace

LaunchConfig resolveEmulatedLaunch1D(ImplContext& ctx, std::uint64_t work, EmulatedGrid policy,
                                     std::uint32_t autoBlock) {
  if ((ctx.launch.block && ctx.launch.block->count() != ctx.launch.block->x) ||
      (ctx.launch.grid && ctx.launch.grid->count() != ctx.launch.grid->x))
    throw InvalidLaunch("the emulated launch is 1-D: give the block and the grid as single numbers");
  LaunchConfig cfg;
  cfg.block = ctx.launch.block.value_or(Dim3{autoBlock, 1, 1});
  std::string note = ctx.launch.block ? "" : "auto block: " + std::to_string(autoBlock);
  if (ctx.launch.grid) {
    cfg.grid = *ctx.launch.grid;
  } else {
    const std::uint64_t cover = ceilDiv(work ? work : 1, cfg.block.x);
    std::uint64_t g = cover;
    std::string why = "ceil(" + std::to_string(work) + " / " + std::to_string(cfg.block.x) + ")";
    if (policy == EmulatedGrid::Resident) {
      const std::uint64_t resident = residentBlocks(cfg.block.x);
      g = std::min(cover, resident);
      why =
          "min(" + std::to_string(resident) + " blocks resident on " + defaultArchProfile().gpuName + ", " + why + ")";
    }
    cfg.grid = Dim3{std::uint32_t(std::min<std::uint64_t>(g, DeviceLimits::genericCuda().maxGridDim.x)), 1, 1};
    note += std::string(note.empty() ? "" : "; ") + "auto grid: " + std::to_string(cfg.grid.x) + " = " + why;
  }
  if (auto e = validateLaunch(cfg, DeviceLimits::genericCuda()); !e.empty()) throw InvalidLaunch(e);
  if (cfg.totalThreads() > kMaxEmulatedThreads)
    throw InvalidLaunch(std::to_string(cfg.totalThreads()) + " threads > " + std::to_string(kMaxEmulatedThreads) +
                        ", the most the CPU emulation runs: choose a smaller grid or block");
  ctx.launched = cfg;
  ctx.launchNote = (note.empty() ? "as requested" : note) + "; every thread emulated on the CPU";
  return cfg;
}

}  // namespace launchlab::kernels
