// launch_coverage: one thread per element, with and without the bounds check, and a guard zone that catches
// the writes past the end.
#include <algorithm>
#include <cstdint>

#include "common/gpu_pipeline.cuh"
#include "common/index_math.h"
#include "common/row_reduce.cuh"
#include "launch_coverage/launch_coverage.h"

namespace launchlab::kernels::launch_coverage {

namespace {

__global__ void writeBlockCheckedKernel(std::int32_t* __restrict__ map, std::uint64_t n, Value v) {
  writeCheckedThread(map, n, v, idx::global1D(blockIdx.x, blockDim.x, threadIdx.x), blockDim.x);
}

// The seed's add_kernel shape: no check. `map` is followed by a guard zone that holds every index of the launch.
__global__ void writeBlockUncheckedKernel(std::int32_t* __restrict__ map, Value v) {
  const std::uint64_t i = idx::global1D(blockIdx.x, blockDim.x, threadIdx.x);
  map[i] = writtenValue(v, i, blockDim.x);
}

// Counts the elements of `zone` that some thread overwrote (they were all kNeverWritten before the launch).
__global__ void countWrittenKernel(const std::int32_t* __restrict__ zone, std::uint64_t m,
                                   unsigned long long* __restrict__ count) {
  __shared__ unsigned long long scratch[33];
  unsigned long long c = 0;
  const std::uint64_t stride = idx::gridStride1D(gridDim.x, blockDim.x);
  for (std::uint64_t i = idx::global1D(blockIdx.x, blockDim.x, threadIdx.x); i < m; i += stride)
    c += zone[i] != kNeverWritten ? 1 : 0;
  c = gpu::blockSum(c, scratch);
  if (threadIdx.x == 0 && c) atomicAdd(count, c);
}

std::uint64_t countWritten(const std::int32_t* zone, std::uint64_t m, cudaStream_t s) {
  if (m == 0) return 0;
  gpu::DeviceBuffer d(sizeof(unsigned long long));
  LAUNCHLAB_CUDA_CHECK(cudaMemsetAsync(d.get(), 0, d.bytes(), s));
  const unsigned blocks = unsigned(std::min<std::uint64_t>(ceilDiv(m, 256), 1024));
  countWrittenKernel<<<blocks, 256, 0, s>>>(zone, m, d.as<unsigned long long>());
  LAUNCHLAB_CUDA_CHECK_LAUNCH();
  unsigned long long h = 0;
  LAUNCHLAB_CUDA_CHECK(cudaMemcpyAsync(&h, d.get(), sizeof h, cudaMemcpyDeviceToHost, s));
  LAUNCHLAB_CUDA_CHECK(cudaStreamSynchronize(s));
  return h;
}

void runMap(ImplContext& ctx, bool checked) {
  ctx.poisonHostOutputs();  // not the standard pipeline: the lesson is the elements this launch leaves unwritten
  const std::uint64_t n = ctx.setup.n;
  const Value value = parseValue(ctx.setup.params.choice("value"));
  const std::uint32_t block = blockSize(ctx.launch);
  std::uint64_t grid = gridSize(ctx.launch, n);
  std::string note = ctx.launch.block ? "" : "auto block: the seed's 128 threads";
  if (!ctx.launch.grid)
    note += std::string(note.empty() ? "" : "; ") + "auto grid: ceil(" + std::to_string(n) + " / " +
            std::to_string(block) + ") = " + std::to_string(grid) + " blocks";
  std::uint64_t guard = 0;
  if (!checked) {
    const GuardPlan plan = planGuard(n, block, grid, kMaxGuardElements);
    if (plan.clamped)
      note += std::string(note.empty() ? "" : "; ") + "grid reduced from " + std::to_string(grid) + " to " +
              std::to_string(plan.grid) + " blocks so that every write past the end lands in the " +
              std::to_string(kMaxGuardElements) + "-element guard zone";
    grid = plan.grid;
    guard = plan.guardElements;
  }
  if (grid > ctx.device->limits.maxGridDim.x)
    throw InvalidLaunch("grid of " + std::to_string(grid) + " blocks > " +
                        std::to_string(ctx.device->limits.maxGridDim.x) + " (the limit of " + ctx.device->name + ")");
  LaunchConfig cfg;
  cfg.grid = Dim3{std::uint32_t(grid), 1, 1};
  cfg.block = Dim3{block, 1, 1};
  if (auto e = validateLaunch(cfg, ctx.device->limits); !e.empty()) throw InvalidLaunch(e);
  ctx.launched = cfg;
  ctx.launchNote = note.empty() ? "as requested" : note;

  // The map and, behind it, the guard zone; all of it starts as kNeverWritten (0xFF bytes) every repetition.
  gpu::DeviceBuffer d((n + guard) * sizeof(std::int32_t));
  std::int32_t* map = d.as<std::int32_t>();
  HostArray& out = ctx.outputs[0];
  gpu::Stream stream;
  gpu::Event e0, e1, e2;
  for (int r = -ctx.warmup; r < ctx.reps; ++r) {
    ctx.checkpoint(r);
    LAUNCHLAB_CUDA_CHECK(cudaMemsetAsync(d.get(), 0xFF, d.bytes(), stream.get()));
    e0.record(stream.get());
    {
      gpu::NvtxRange range("kernel");
      if (checked)
        writeBlockCheckedKernel<<<gpu::toDim3(cfg.grid), gpu::toDim3(cfg.block), 0, stream.get()>>>(map, n, value);
      else
        writeBlockUncheckedKernel<<<gpu::toDim3(cfg.grid), gpu::toDim3(cfg.block), 0, stream.get()>>>(map, value);
      LAUNCHLAB_CUDA_CHECK_LAUNCH();
    }
    e1.record(stream.get());
    LAUNCHLAB_CUDA_CHECK(
        cudaMemcpyAsync(out.data(), map, n * sizeof(std::int32_t), cudaMemcpyDeviceToHost, stream.get()));
    e2.record(stream.get());
    stream.sync();
    if (r >= 0) {
      ctx.samples[Phase::Kernel].push_back(e1.elapsedSince(e0));
      ctx.samples[Phase::D2H].push_back(e2.elapsedSince(e1));
    }
  }
  auto view = out.view<std::int32_t>();
  std::fill(view.begin() + std::ptrdiff_t(n), view.end(), kPadding);

  const std::uint64_t threads = cfg.totalThreads();
  ctx.metrics["threads_launched"] = double(threads);
  ctx.metrics["elements_never_written"] = double(countNeverWritten(view, n));
  ctx.metrics["threads_past_end"] = double(threads > n ? threads - n : 0);
  if (!checked) {
    ctx.metrics["guard_elements"] = double(guard);
    ctx.metrics["writes_past_end"] = double(countWritten(map + n, guard, stream.get()));
  }
}

}  // namespace

void cudaBoundsChecked(ImplContext& ctx) { runMap(ctx, true); }
void cudaNoBoundsCheck(ImplContext& ctx) { runMap(ctx, false); }

}  // namespace launchlab::kernels::launch_coverage
