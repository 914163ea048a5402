#pragma once
/// A CUDA launch emulated on the CPU, for the lessons about the launch itself (launch_coverage, hypot's 1 x 1
/// launch, one thread per element against the grid-stride loop): the kernel's per-thread body runs for every
/// (block, thread) of the launch the user asked for, so a grid that is too small leaves the same elements unwritten
/// on a laptop as on a GPU. The bodies are the kernels' own LAUNCHLAB_HD functions, shared with the .cu files.
#include <cstdint>
#include <string>

#include "common/cpu_loops.h"
#include "launchlab/engine/launch_config.h"
#include "launchlab/engine/workload.h"

namespace launchlab::kernels {

/// Who one emulated thread is, as a 1-D kernel sees it (blockIdx.x, threadIdx.x, blockDim.x, gridDim.x).
struct EmulatedThread {
  std::uint64_t block = 0, thread = 0, blockDim = 1, gridDim = 1;
  std::uint64_t global() const { return block * blockDim + thread; }
  std::uint64_t gridStride() const { return gridDim * blockDim; }
};

/// The most threads one emulated launch runs (a larger one is refused: it would run for minutes on one core).
inline constexpr std::uint64_t kMaxEmulatedThreads = std::uint64_t(1) << 31;

/// How an emulated launch chooses its grid when the user leaves it on auto, as the GPU variant it mirrors does:
/// Cover = ceil(work / block) blocks (one thread per element); Resident = at most the blocks the default
/// architecture profile keeps resident at once (grid-stride loops).
enum class EmulatedGrid { Cover, Resident };

/// The 1-D launch of an emulated implementation: the user's block (else `autoBlock`) and grid (else by `policy`),
/// validated against the limits every CUDA GPU shares and kMaxEmulatedThreads, recorded in ctx.launched and
/// ctx.launchNote. Throws InvalidLaunch.
LaunchConfig resolveEmulatedLaunch1D(ImplContext& ctx, std::uint64_t work, EmulatedGrid policy,
                                     std::uint32_t autoBlock = 256);

/// Launches of fewer threads than this are emulated on one core even when Parallel.
inline constexpr std::uint64_t kParallelEmulationThreads = 65536;

/// body(t) for every thread of a 1-D launch: block after block, each block's threads in order on one core; with
/// Parallel the blocks are shared out over all cores (OpenMP), as SMs share them out on a GPU.
template <bool Parallel, typename Body>
void emulateLaunch1D(const LaunchConfig& cfg, Body&& body) {
  const std::int64_t blocks = std::int64_t(cfg.grid.x);
  const std::uint64_t threads = cfg.block.x;
  const auto runBlock = [&](std::int64_t b) {
    EmulatedThread t{std::uint64_t(b), 0, threads, std::uint64_t(blocks)};
    for (t.thread = 0; t.thread < threads; ++t.thread) body(t);
  };
  // Small launches stay on one core: starting the thread team would cost more than the launch.
  if (Parallel && cfg.totalThreads() >= kParallelEmulationThreads) {
#pragma omp parallel for schedule(static)
    for (std::int64_t b = 0; b < blocks; ++b) runBlock(b);
  } else {
    for (std::int64_t b = 0; b < blocks; ++b) runBlock(b);
  }
}

/// The two shapes of an element-wise kernel the course teaches.
enum class EmulatedKernel {
  OnePerThread,  ///< i = global index; if (i < n) out[i] = f(in[i]...): auto grid = ceil(n / block)
  GridStride,    ///< for (i = global index; i < n; i += grid stride) ...: auto grid = the resident blocks
};

/// An element-wise kernel out[i] = formula(in[i]...) of shape `kernel`, emulated thread by thread on all cores for
/// the run's dtype among Ts, timed like the other CPU implementations. Elements no thread reaches keep the
/// engine's poison, so verification counts them as it does for the GPU variant. Metrics: threads_launched and
/// threads_idle (threads that handled no element).
template <typename... Ts, typename Formula>
void runEmulatedMap(ImplContext& ctx, EmulatedKernel kernel, const Formula& formula) {
  visitDTypeAmong<Ts...>(ctx.setup.dtype, [&](auto tag) {
    using T = decltype(tag);
    const auto body = detail::elementBody<T>(ctx, formula, std::make_index_sequence<detail::arity<Formula, T>()>{});
    const std::uint64_t n = ctx.setup.n;
    const bool stride = kernel == EmulatedKernel::GridStride;
    const LaunchConfig cfg = resolveEmulatedLaunch1D(ctx, n, stride ? EmulatedGrid::Resident : EmulatedGrid::Cover);
    runCpuTimed(ctx, [&] {
      emulateLaunch1D<true>(cfg, [&](const EmulatedThread& t) {
        if (!stride) {
          if (t.global() < n) body(std::size_t(t.global()));
          return;
        }
        for (std::uint64_t i = t.global(); i < n; i += t.gridStride()) body(std::size_t(i));
      });
    });
    const std::uint64_t threads = cfg.totalThreads();
    ctx.metrics["threads_launched"] = double(threads);
    ctx.metrics["threads_idle"] = double(threads > n ? threads - n : 0);
  });
}

}  // namespace launchlab::kernels
