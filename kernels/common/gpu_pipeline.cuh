#pragma once
/// The standard timed GPU pipeline and launch-configuration resolution (for .cu files).
///
/// runPipeline: per repetition, H2D of every input, the kernel phase (your callback), D2H of every output,
/// each bracketed by CUDA events; warm-up repetitions are not recorded. Device outputs are poisoned
/// (0xFF bytes) before every repetition so that unwritten elements show up in verification.
#include <cuda_runtime.h>

#include <string>
#include <vector>

#include "common/cuda_check.h"
#include "launchlab/engine/workload.h"

namespace launchlab::gpu {

/// Device copies of a run's inputs and outputs, in the order of the workload's specs.
struct DeviceArrays {
  std::vector<DeviceBuffer> in;
  std::vector<DeviceBuffer> out;
  template <typename T>
  const T* input(std::size_t i) const {
    return in.at(i).as<const T>();
  }
  template <typename T>
  T* output(std::size_t i) const {
    return out.at(i).as<T>();
  }
};

/// Allocates device buffers for every input and output of ctx.
DeviceArrays allocateFor(const ImplContext& ctx);
/// Copies every input host -> device (pageable host memory, like the course's cuda.to_device).
void copyInputs(const ImplContext& ctx, DeviceArrays& d, cudaStream_t s);
/// Copies every output device -> host in full (so the host outputs need no poison: it clears
/// ctx.hostPoisonPending; the device buffers are the ones poisoned).
void copyOutputs(ImplContext& ctx, const DeviceArrays& d, cudaStream_t s);
void poisonOutputs(const DeviceArrays& d, cudaStream_t s);

/// Holds a stream until the host has enqueued the timed work behind it (nvbench's "blocking kernel"): hold() queues
/// a one-thread kernel that spins on a flag in mapped host memory, release() sets the flag. Without it, the kernel
/// phase's start event can fire while the host is still returning from a pageable copy and launching the kernel,
/// and that host time (tens of microseconds after a large pageable copy, measured on the H200) would count as
/// kernel time. The spin gives up after 50 ms, so work that synchronizes the host inside the phase delays, never
/// deadlocks.
class LaunchGate {
 public:
  LaunchGate();
  ~LaunchGate();
  LaunchGate(const LaunchGate&) = delete;
  LaunchGate& operator=(const LaunchGate&) = delete;
  void hold(cudaStream_t s);
  void release();

 private:
  int* m_flag = nullptr;  ///< mapped host memory (cudaHostAllocMapped)
  int* m_deviceFlag = nullptr;
};

/// What one run of the standard pipeline needs from CUDA: buffers for its inputs and outputs, a stream, the phase
/// events and the launch gate (pipeline_pool.h: kept between runs).
struct PipelineKit {
  int device = 0;
  DeviceArrays arrays;
  Stream stream;
  Event e0, e1, e1k, e2, e3;
  LaunchGate gate;
  /// Sweeps (ImplContext::compareReference): the reference outputs on the device, uploaded once per generation, and
  /// the flag the comparison raises.
  std::vector<DeviceBuffer> reference;
  std::uint64_t referenceGeneration = 0;
  DeviceBuffer differs;
};

/// When ctx carries a reference (a sweep), compares every device output with it bit for bit on the device and
/// sets ctx.identicalToReference; uploads the reference into the kit first when its generation is new. Leaves
/// ctx.identicalToReference unset when the shapes differ or the reference does not fit in device memory.
void compareWithReference(ImplContext& ctx, PipelineKit& kit, cudaStream_t s);
/// When ctx.exportDeviceOutputs: fills ctx.deviceOutputs with CUDA IPC handles of the kit's output buffers (which
/// the pool keeps, holding the last repetition's outputs, until the next run).
void exportOutputs(ImplContext& ctx, const PipelineKit& kit);

/// A kit for ctx, from the pool when it holds one for this device (its buffers resized to ctx's arrays), else new.
/// The lease gives the kit back when it ends normally; when it ends by an exception (a CUDA error, a fault) the kit
/// is destroyed instead, so nothing touched by a failed run is reused.
class KitLease {
 public:
  explicit KitLease(const ImplContext& ctx);
  ~KitLease();
  KitLease(const KitLease&) = delete;
  KitLease& operator=(const KitLease&) = delete;
  PipelineKit& operator*() const { return *m_kit; }

 private:
  PipelineKit* m_kit = nullptr;
  int m_exceptions = 0;
};

/// The standard pipeline. `kernelPhase(DeviceArrays&, cudaStream_t)` enqueues the kernel(s) on the stream; the
/// stream is held (LaunchGate) until they are all enqueued, so the kernel phase times the GPU's work alone.
template <typename KernelPhase>
void runPipeline(ImplContext& ctx, KernelPhase&& kernelPhase) {
  KitLease lease(ctx);
  PipelineKit& kit = *lease;
  DeviceArrays& d = kit.arrays;
  Stream& stream = kit.stream;
  Event &e0 = kit.e0, &e1 = kit.e1, &e1k = kit.e1k, &e2 = kit.e2, &e3 = kit.e3;
  LaunchGate& gate = kit.gate;
  ctx.hostPoisonPending = false;  // every repetition overwrites every output from the poisoned device copy
  for (int r = -ctx.warmup; r < ctx.reps; ++r) {
    ctx.checkpoint(r);
    poisonOutputs(d, stream.get());
    e0.record(stream.get());
    {
      NvtxRange range("H2D");
      copyInputs(ctx, d, stream.get());
    }
    e1.record(stream.get());
    KernelPhaseHook* hook = ctx.kernelHook;  // a profiled run: no gate (CUPTI replays each kernel as it is launched)
    if (hook) {
      stream.sync();
      hook->beforeKernels();
    } else {
      gate.hold(stream.get());
    }
    e1k.record(stream.get());
    {
      NvtxRange range("kernel");
      kernelPhase(d, stream.get());
      LAUNCHLAB_CUDA_CHECK_LAUNCH();
    }
    e2.record(stream.get());
    if (hook) {
      stream.sync();
      hook->afterKernels();
    } else {
      gate.release();
    }
    {
      NvtxRange range("D2H");
      copyOutputs(ctx, d, stream.get());
    }
    e3.record(stream.get());
    stream.sync();
    if (r >= 0) {
      ctx.samples[Phase::H2D].push_back(e1.elapsedSince(e0));
      ctx.samples[Phase::Kernel].push_back(e2.elapsedSince(e1k));
      ctx.samples[Phase::D2H].push_back(e3.elapsedSince(e2));
    }
  }
  compareWithReference(ctx, kit, stream.get());
  exportOutputs(ctx, kit);
}

/// Records the CUDA API's view of `kernel` launched as `cfg` in ctx.kernelOccupancy (its attributes and resident
/// blocks per SM), for `launchlab-cli occupancy` to report beside the theoretical figures. Never throws.
void recordKernelOccupancy(ImplContext& ctx, const void* kernel, const LaunchConfig& cfg);

/// How the automatic grid is chosen.
enum class GridPolicy {
  CoverN,     ///< one thread per work item: ceil(work / threads per block)
  Occupancy,  ///< grid-stride: as many blocks as fit on the device at once (SMs x resident blocks per SM)
};

/// Resolves the user's request (auto parts included) into a LaunchConfig for `kernel`, validates it against
/// the device and records it (and a note on how auto was decided) in ctx. Throws InvalidLaunch.
template <typename Kernel>
LaunchConfig resolveLaunch1D(ImplContext& ctx, Kernel kernel, std::uint64_t work, GridPolicy policy,
                             std::size_t smemBytes = 0) {
  LaunchConfig cfg;
  cfg.dynamicSmemBytes = smemBytes;
  std::string note;
  if (ctx.launch.block) {
    cfg.block = *ctx.launch.block;
  } else {
    int minGrid = 0, block = 0;
    LAUNCHLAB_CUDA_CHECK(cudaOccupancyMaxPotentialBlockSize(&minGrid, &block, kernel, smemBytes, 0));
    // Memory-bound kernels gain nothing above 256 threads, and smaller blocks give finer tails.
    cfg.block = Dim3{static_cast<std::uint32_t>(block > 256 ? 256 : block), 1, 1};
    note += "auto block: " + std::to_string(cfg.block.x) + " (occupancy API suggests " + std::to_string(block) + ")";
  }
  if (ctx.launch.grid) {
    cfg.grid = *ctx.launch.grid;
  } else {
    const std::uint64_t threads = cfg.block.count();
    const std::uint64_t cover = ceilDiv(work ? work : 1, threads);
    std::uint64_t g = cover;
    if (policy == GridPolicy::Occupancy) {
      int perSm = 0;
      LAUNCHLAB_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&perSm, kernel, int(threads), smemBytes));
      const std::uint64_t resident = std::uint64_t(perSm > 0 ? perSm : 1) * std::uint64_t(ctx.device->multiprocessors);
      g = resident < cover ? resident : cover;
      note += std::string(note.empty() ? "" : "; ") + "auto grid: " + std::to_string(g) + " blocks = min(" +
              std::to_string(ctx.device->multiprocessors) + " SMs x " + std::to_string(perSm) +
              " resident blocks/SM, ceil(work/block) = " + std::to_string(cover) + ")";
    } else {
      note += std::string(note.empty() ? "" : "; ") + "auto grid: ceil(" + std::to_string(work) + " / " +
              std::to_string(threads) + ") = " + std::to_string(g) + " blocks";
    }
    if (g > ctx.device->limits.maxGridDim.x)
      throw InvalidLaunch("auto grid of " + std::to_string(g) + " blocks > " +
                          std::to_string(ctx.device->limits.maxGridDim.x) + " (the limit of " + ctx.device->name +
                          "): use a grid-stride variant or a larger block");
    cfg.grid = Dim3{static_cast<std::uint32_t>(g), 1, 1};
  }
  if (auto e = validateLaunch(cfg, ctx.device->limits); !e.empty()) throw InvalidLaunch(e);
  ctx.launched = cfg;
  ctx.launchNote = note.empty() ? "as requested" : note;
  recordKernelOccupancy(ctx, reinterpret_cast<const void*>(kernel), cfg);
  return cfg;
}

/// A 2-D launch's work: a cols x rows matrix, and what the automatic block is and why.
struct Work2D {
  Work2D(std::uint64_t c, std::uint64_t r) : cols(c), rows(r) {}
  std::uint64_t cols = 0, rows = 0;
  Dim3 autoBlock{32, 8, 1};
  std::string autoBlockWhy = "a warp along each row (coalesced), 256 threads";
  /// Elements one block covers per pass: {0, 0} means its threads (one element each); a tiled kernel gives its
  /// tile (e.g. 32 x 32, whatever the block).
  Dim3 perBlock{0, 0, 1};
};

/// resolveLaunch1D's 2-D counterpart: the user's block (or work.autoBlock) and grid (or autoGrid2D, which covers
/// the matrix and says how), validated against the device and recorded in ctx. The kernels stride over the grid in
/// both axes, so any valid grid is correct. Throws InvalidLaunch.
inline LaunchConfig resolveLaunch2D(ImplContext& ctx, const Work2D& work, std::size_t smemBytes = 0) {
  LaunchConfig cfg;
  cfg.dynamicSmemBytes = smemBytes;
  std::string note;
  cfg.block = ctx.launch.block ? *ctx.launch.block : work.autoBlock;
  if (!ctx.launch.block)
    note = "auto block: " + std::to_string(cfg.block.x) + "x" + std::to_string(cfg.block.y) + " (" + work.autoBlockWhy +
           ")";
  if (ctx.launch.grid) {
    cfg.grid = *ctx.launch.grid;
  } else {
    const Dim3 per = work.perBlock.x ? work.perBlock : cfg.block;
    const AutoGrid2D g = autoGrid2D(work.cols, work.rows, per, ctx.device->limits);
    cfg.grid = g.grid;
    note += (note.empty() ? "" : "; ") + g.note;
  }
  if (auto e = validateLaunch(cfg, ctx.device->limits); !e.empty()) throw InvalidLaunch(e);
  ctx.launched = cfg;
  ctx.launchNote = note.empty() ? "as requested" : note;
  return cfg;
}

inline dim3 toDim3(const Dim3& d) { return dim3(d.x, d.y, d.z); }

}  // namespace launchlab::gpu
