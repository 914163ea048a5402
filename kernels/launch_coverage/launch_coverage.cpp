#include "launch_coverage/launch_coverage.h"

#include <algorithm>

#include "common/cpu_launch.h"
#include "common/cpu_loops.h"
#include "launchlab/engine/registry.h"

namespace launchlab::kernels {

namespace launch_coverage {

Value parseValue(const std::string& name) { return name == "x-plus-y" ? Value::SeedSum : Value::BlockId; }

std::uint32_t blockSize(const LaunchRequest& launch) { return launch.block ? launch.block->x : kDefaultBlock; }

std::uint64_t gridSize(const LaunchRequest& launch, std::uint64_t n) {
  return launch.grid ? launch.grid->x : ceilDiv(n ? n : 1, blockSize(launch));
}

std::vector<std::size_t> mapShape(std::uint64_t n, std::uint64_t width) {
  return {std::size_t(ceilDiv(n, width)), std::size_t(width)};
}

GuardPlan planGuard(std::uint64_t n, std::uint32_t block, std::uint64_t grid, std::uint64_t maxGuard) {
  GuardPlan p;
  p.grid = grid;
  if (grid * block > n + maxGuard) {
    // The largest grid whose overshoot fits the guard (at least one block: maxGuard >= any block size).
    p.grid = std::max<std::uint64_t>(1, (n + maxGuard) / block);
    p.clamped = true;
  }
  const std::uint64_t threads = p.grid * block;
  p.guardElements = threads > n ? threads - n : 0;
  return p;
}

void fillIdealMap(std::span<std::int32_t> map, std::uint64_t n, std::uint32_t block, Value v, bool parallel) {
  std::int32_t* m = map.data();
  const auto writer = [=](std::size_t i) { m[i] = i < n ? writtenValue(v, i, block) : kPadding; };
  if (parallel)
    forEachIndex<true>(map.size(), writer);
  else
    forEachIndex<false>(map.size(), writer);
}

std::uint64_t countNeverWritten(std::span<const std::int32_t> map, std::uint64_t n) {
  const std::size_t end = std::min<std::size_t>(map.size(), n);
  return std::uint64_t(std::count(map.begin(), map.begin() + std::ptrdiff_t(end), kNeverWritten));
}

}  // namespace launch_coverage

namespace {

using namespace launch_coverage;

template <bool Parallel>
void runCpu(ImplContext& ctx) {
  auto map = ctx.outputs[0].view<std::int32_t>();
  const std::uint32_t block = blockSize(ctx.launch);
  const Value v = parseValue(ctx.setup.params.choice("value"));
  runCpuTimed(ctx, [&] { fillIdealMap(map, ctx.setup.n, block, v, Parallel); });
}

// The bounds-checked kernel's launch, every block and thread of it, on the CPU: the map starts never written
// each repetition, as on the GPU, so a grid that is too small leaves the same tail at -1.
void runEmulated(ImplContext& ctx) {
  auto map = ctx.outputs[0].view<std::int32_t>();
  const std::uint64_t n = ctx.setup.n;
  const Value v = parseValue(ctx.setup.params.choice("value"));
  const LaunchConfig cfg = resolveEmulatedLaunch1D(ctx, n, EmulatedGrid::Cover, kDefaultBlock);
  runCpuTimed(ctx, [&] {
    std::fill(map.begin(), map.begin() + std::ptrdiff_t(n), kNeverWritten);
    emulateLaunch1D<true>(cfg, [&](const EmulatedThread& t) {
      writeCheckedThread(map.data(), n, v, t.global(), std::uint32_t(t.blockDim));
    });
  });
  std::fill(map.begin() + std::ptrdiff_t(n), map.end(), kPadding);
  const std::uint64_t threads = cfg.totalThreads();
  ctx.metrics["threads_launched"] = double(threads);
  ctx.metrics["elements_never_written"] = double(countNeverWritten(map, n));
  ctx.metrics["threads_past_end"] = double(threads > n ? threads - n : 0);
}

class LaunchCoverage final : public BasicWorkload {
 public:
  LaunchCoverage() {
    auto& i = m_info;
    i.id = "launch_coverage";
    i.title = "Launch coverage: which block wrote which element";
    i.chapter = kChapterCustomKernels;
    i.dtypes = {DType::I32};
    i.defaultDType = DType::I32;
    i.defaultN = 4096;
    i.maxN = std::uint64_t(1) << 30;
    i.referenceUsesLaunch = true;  // the ideal map depends on the block size
    i.params = {{.name = "width",
                 .label = "Image width",
                 .unit = "elements",
                 .help = "The map is drawn as rows of this many elements (the seed's 128 makes one row per block).",
                 .kind = ParamSpec::Kind::Integer,
                 .defaultValue = 128,
                 .minValue = 1,
                 .maxValue = 65536},
                {.name = "value",
                 .label = "Each thread writes",
                 .help = "block-id: its block number, so the image shows which block wrote what; x-plus-y: the "
                         "seed's add_kernel value x[i] + y[i] with x = arange(n), y = ones (1 ... n).",
                 .kind = ParamSpec::Kind::Choice,
                 .choices = {"block-id", "x-plus-y"}}};
    i.outputs = {{.name = "writer_block",
                  .title = "Who wrote each element (-1: never written, -2: padding)",
                  .plot = PlotKind::Image,
                  .xLabel = "element % width",
                  .yLabel = "block id, or x + y",
                  .dtype = DType::I32,
                  .markers = {{double(kNeverWritten), "never written"}, {double(kPadding), "padding (past n)"}}}};

    addReference("CPU: the ideal map",
                 "Element i is written by block i / blockDim (the launched block size), every element exactly once, "
                 "with its block number or i + 1: the reference.",
                 runCpu<false>);
    addCpu("cpu-parallel", "CPU parallel: the ideal map", "The same map filled by all cores (OpenMP).", runCpu<true>);
    addCpu("cpu-emulated-launch", "CPU: the launch, emulated",
           "Runs the bounds-checked kernel's body for every block and thread of the requested grid and block on the "
           "CPU: a grid of fewer than ceil(n / block) blocks leaves the same elements never written (-1) as on a "
           "GPU, without one.",
           runEmulated)
        .usesLaunchConfig = true;
    addGpu("cuda-bounds-checked", "CUDA one thread per element with if (i < n)",
           "map[i] = blockIdx.x guarded by i < n: threads past the end do nothing. Correct when the grid has at "
           "least n threads; a smaller grid leaves the tail never written.",
           LAUNCHLAB_CUDA_ENTRY(launch_coverage::cudaBoundsChecked));
    addGpu("cuda-no-bounds-check", "CUDA without a bounds check (the seed's add_kernel)",
           "map[i] = blockIdx.x for every thread: with more than n threads the extra ones write past the end of the "
           "array. The engine puts a guard zone there and reports how many threads wrote into it.",
           LAUNCHLAB_CUDA_ENTRY(launch_coverage::cudaNoBoundsCheck))
        .demonstration = true;
    nameKernels("launch_coverage", {{"cuda-bounds-checked", {"writeBlockCheckedKernel", "countWrittenKernel"}},
                                    {"cuda-no-bounds-check", {"writeBlockUncheckedKernel", "countWrittenKernel"}}});
  }

  std::vector<HostArray> makeInputs(const RunSetup&) const override { return {}; }

  std::vector<std::vector<std::size_t>> outputShapes(const RunSetup& s) const override {
    return {mapShape(s.n, std::uint64_t(s.params.integer("width")))};
  }

  Verification verifyLaunched(const RunSetup& s, const std::vector<HostArray>&, const std::vector<HostArray>& ref,
                              const std::vector<HostArray>& got, const ImplSpec& impl,
                              const LaunchConfig* launched) const override {
    Verification v = compareArrays(ref[0], got[0], Tolerance::exact());
    if (got[0].dtype() != DType::I32 || got[0].shape() != ref[0].shape()) return v;
    const std::uint64_t never = countNeverWritten(got[0].view<std::int32_t>(), s.n);
    const std::uint64_t wrong = v.mismatches - std::min(v.mismatches, never);
    if (v.mismatches == 0) {
      v.note = "every element written once, by block i / blockDim";
      if (parseValue(s.params.choice("value")) == Value::SeedSum)
        v.note = "every element written once: x + y = 1 ... n";
    } else {
      v.note = std::to_string(never) + " of " + std::to_string(s.n) +
               " elements never written (the grid needs at least ceil(n / blockDim) blocks to cover n)";
      if (wrong) v.note += "; " + std::to_string(wrong) + " elements hold an unexpected value";
    }
    // Without the check every thread past n writes into the guard zone: said only when the launch had some.
    const std::uint64_t past = launched && launched->totalThreads() > s.n ? launched->totalThreads() - s.n : 0;
    if (impl.demonstration && past)
      v.note += "; " + std::to_string(past) +
                " threads past the end wrote into the guard zone (metric writes_past_end), not into other data";
    // A grid too small for n leaves exactly the tail never written: on a launch that honours the requested grid
    // (the emulated one, a CUDA kernel) that is the outcome this workload teaches, not a failure. Any other
    // difference (a wrong value, a gap elsewhere, nothing written at all) stays a failure.
    const auto map = got[0].view<std::int32_t>();
    const bool honoured = impl.usesLaunchConfig || impl.isGpu();
    const bool tailOnly = v.mismatches > 0 && wrong == 0 && never < s.n && map.size() >= s.n &&
                          std::all_of(map.begin() + std::ptrdiff_t(s.n - never), map.begin() + std::ptrdiff_t(s.n),
                                      [](std::int32_t x) { return x == kNeverWritten; });
    declareExpectedOutcome(v, honoured && tailOnly, v.note);
    // A grid larger than n covers it, and the bounds check quietly masks the surplus threads: the map looks like
    // the exact launch, so the count of masked threads is what this launch teaches (a whole block or more: an
    // automatic grid rounds n up by less than one).
    const std::uint64_t threads = launched ? launched->totalThreads() : 0;
    if (honoured && !impl.demonstration && v.mismatches == 0 && threads >= s.n + launched->block.count())
      declareExpectedOutcome(v, true,
                             std::to_string(threads) + " threads for " + std::to_string(s.n) +
                                 " elements: the bounds check if (i < n) masked " + std::to_string(threads - s.n) +
                                 " surplus threads; " + v.note);
    return v;
  }

  // The n elements the kernel writes, not the padding of the image's last row.
  double bytesMoved(const RunSetup& s) const override { return 4.0 * double(s.n); }
};

}  // namespace

void register_launch_coverage(Registry& r) { r.add(std::make_unique<LaunchCoverage>()); }

}  // namespace launchlab::kernels
