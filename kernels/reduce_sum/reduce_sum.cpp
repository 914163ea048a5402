#include "reduce_sum/reduce_sum.h"

#include <cmath>
#include <cstdio>

#include "common/cpu_team.h"
#include "common/impl_helpers.h"
#include "launchlab/engine/registry.h"
#include "launchlab/engine/rng.h"

namespace launchlab::kernels {

namespace reduce_sum {

namespace {
template <typename T>
double neumaier(std::span<const T> x) {
  double s = 0, c = 0;
  for (const T v : x) {
    const double d = double(v);
    const double t = s + d;
    c += std::fabs(s) >= std::fabs(d) ? (s - t) + d : (d - t) + s;  // the part of the smaller term t lost
    s = t;
  }
  return s + c;
}
}  // namespace

double neumaierSum(std::span<const float> x) { return neumaier(x); }
double neumaierSum(std::span<const double> x) { return neumaier(x); }

std::int32_t wrappingSum(std::span<const std::int32_t> x) {
  std::uint32_t s = 0;  // unsigned arithmetic wraps modulo 2^32 by definition
  for (const std::int32_t v : x) s += std::uint32_t(v);
  return std::int32_t(s);
}

// What each implementation's code does (reduce_sum.cu), as stages. The GPU orders depend on the launch: a thread
// of a grid-stride loop adds ceil(n / threads) terms, a block's tree spans its block (gpu::blockSum: two warp
// shuffles, depth 10 whatever the block), and atomics add in arrival order.
SummationOrder summationOrder(std::string_view implId, DType dtype, std::uint64_t n, const LaunchConfig* launch) {
  using K = SummationStage::Kind;
  const DType acc = dtype == DType::F64 ? DType::F64 : DType::F32;
  if (implId == kCpuSerial) return SummationOrder::compensatedSum(DType::F64);
  if (implId == "cpu-parallel") return SummationOrder::anyOrder(DType::F64);  // OpenMP combines in no fixed order
  if (implId == "cuda-tree-global-halving") return SummationOrder::pairwise(acc);
  const std::uint64_t threads = launch ? launch->totalThreads() : 0;
  if (threads == 0) return SummationOrder::anyOrder(acc);  // atomics, the race, CUB's undocumented order, yours
  const std::uint64_t grid = launch->grid.count(), block = launch->block.count();
  if (implId == "cuda-tree-interleaved" || implId == "cuda-tree-sequential")
    return {{{K::Sequential, (n + threads - 1) / threads, threads, false},
             {K::Tree, nextPow2(unsigned(block)), grid, false},
             {K::Tree, kLaterPassBlock, 0, true}},
            acc,
            false,
            false};
  if (implId == "cuda-warp-shuffle") {
    // Each thread adds whole 16-byte vectors (four accumulators, lane sums as small trees) and maybe a tail term:
    // at most ceil(n / (w threads)) w + w terms in some order; then the block's tree; the last block adds the
    // per-block sums in grid-stride runs, then its tree.
    const std::uint64_t w = 16 / dtypeSize(dtype), perThread = (n + w * threads - 1) / (w * threads) * w + w;
    return {{{K::AnyOrder, perThread, threads, false},
             {K::Tree, 1024, grid, false},
             {K::Sequential, (grid + block - 1) / block, block, false},
             {K::Tree, 1024, 1, false}},
            acc,
            false,
            false};
  }
  return SummationOrder::anyOrder(acc);
}

}  // namespace reduce_sum

namespace {

template <bool Parallel>
void runCpu(ImplContext& ctx) {
  visitDTypeAmong<float, double, std::int32_t>(ctx.setup.dtype, [&](auto t) {
    using T = decltype(t);
    const auto x = ctx.inputs[0].view<T>();
    T& out = ctx.outputs[0].view<T>()[0];
    runCpuTimed(ctx, [&] {
      if constexpr (Parallel) {
        // Every core sums a contiguous chunk with SIMD lanes, in float64 (wrapping uint32 for int32).
        const std::size_t n = x.size();
        const T* p = x.data();
        if constexpr (std::is_same_v<T, std::int32_t>) {
          std::uint32_t s = 0;
#pragma omp parallel for simd reduction(+ : s) schedule(static) num_threads(cpuTeam(n))
          for (std::size_t i = 0; i < n; ++i) s += std::uint32_t(p[i]);
          out = std::int32_t(s);
        } else {
          double s = 0;
#pragma omp parallel for simd reduction(+ : s) schedule(static) num_threads(cpuTeam(n))
          for (std::size_t i = 0; i < n; ++i) s += double(p[i]);
          out = T(s);
        }
      } else {
        if constexpr (std::is_same_v<T, std::int32_t>)
          out = reduce_sum::wrappingSum(x);
        else
          out = T(reduce_sum::neumaierSum(x));
      }
    });
    using A = reduce_sum::Acc<T>;  // int32 pairs add as uint32, like the GPU's
    reduce_sum::pairwiseTree(reinterpret_cast<const A*>(x.data()), x.size(),
                             reinterpret_cast<A*>(ctx.outputs[1].view<T>().data()));
  });
}

class ReduceSum final : public BasicWorkload {
 public:
  ReduceSum() {
    auto& i = m_info;
    i.id = "reduce_sum";
    i.title = "Sum reduction";
    i.chapter = kChapterReduce;
    i.dtypes = {DType::F32, DType::F64, DType::I32};
    i.defaultDType = DType::F64;
    i.defaultN = 1234;
    i.maxN = (std::uint64_t(1) << 31) - 1;  // arange values stay within int32
    i.params = {
        {.name = "input",
         .label = "Input",
         .help = "arange: 1, 2, ..., n like the seed; random: uniform(-1, 1) (integers: uniform in [-1000, 1000)).",
         .kind = ParamSpec::Kind::Choice,
         .choices = {"arange", "random"}}};
    i.inputs = {{.name = "x", .title = "x", .yLabel = "x"}};
    i.outputs = {{.name = "sum", .title = "Sum of x", .plot = PlotKind::Scalar, .xLabel = "", .yLabel = "sum"},
                 {.name = "tree",
                  .title = "Reduction tree of x[0:8]: each row sums pairs of the row above",
                  .plot = PlotKind::Image,
                  .xLabel = "element",
                  .yLabel = "level (0 = x)"}};

    addReference("CPU compensated sum (float64 Neumaier)",
                 "One core, a compensated float64 sum (int32: wrapping sum): the reference.", runCpu<false>);
    addCpu("cpu-parallel", "CPU parallel (OpenMP + SIMD, float64)",
           "All cores, each summing a chunk in float64 SIMD lanes, partial sums combined.", runCpu<true>);
    addGpu("cuda-atomics", "CUDA atomics only",
           "Every element is added to the result with its own atomicAdd: one long chain on one address, in "
           "arrival order (the float result changes from run to run). In f64 this is ATLAS's float64 atomic add.",
           LAUNCHLAB_CUDA_ENTRY(reduce_sum::cudaAtomics));
    ImplSpec& race =
        addGpu("cuda-naive-race", "CUDA out[0] += x[i] (the race)",
               "ATLAS's first attempt: every thread reads out[0], adds its element and writes it back; the updates of "
               "different threads overwrite each other, so most elements are lost (the tutorial's linked notebook, not "
               "in the seeds, got -2.45 for a true -846.62). A demonstration: the mismatch is the lesson.",
               LAUNCHLAB_CUDA_ENTRY(reduce_sum::cudaNaiveRace));
    race.demonstration = true;
    race.expectedOutcome = "the race this experiment demonstrates";
    race.runByDefault = false;  // ATLAS's variants are run by the atlas-tree-reduction preset
    addGpu("cuda-tree-global-halving", "CUDA tree_sum_step, a launch per level",
           "ATLAS's tree: each launch adds pairs, out[i] = in[2i] + in[2i + 1], halving the array in global "
           "memory, e.g. [3, 1, 7, 0, 4, 1, 6, 3] -> [4, 7, 5, 9] -> [11, 14] -> [25]: ceil(log2 n) launches (20 "
           "for 2^20), each reading the previous level from global memory.",
           LAUNCHLAB_CUDA_ENTRY(reduce_sum::cudaTreeGlobalHalving))
        .runByDefault = false;
    addGpu("cuda-tree-interleaved", "CUDA shared-memory tree, interleaved addressing",
           "Harris's first kernel: a shared-memory tree where thread t adds s[t + stride] when t % (2 stride) == 0: "
           "most lanes of each warp idle and diverge. One launch per level of blocks (partial sums of partial sums).",
           LAUNCHLAB_CUDA_ENTRY(reduce_sum::cudaTreeInterleaved));
    addGpu("cuda-tree-sequential", "CUDA shared-memory tree, sequential addressing",
           "Harris's third kernel: thread t < stride adds s[t + stride], stride halving: active threads stay "
           "contiguous (whole warps retire) and shared-memory accesses are conflict-free.",
           LAUNCHLAB_CUDA_ENTRY(reduce_sum::cudaTreeSequential));
    addGpu("cuda-warp-shuffle", "CUDA grid-stride + 16-byte loads + warp shuffles (one pass)",
           "Enough blocks to fill the GPU, each thread sums many 16-byte vectors with several loads in flight, warps "
           "reduce with __shfl_down_sync, and the last block to finish adds the per-block partial sums.",
           LAUNCHLAB_CUDA_ENTRY(reduce_sum::cudaWarpShuffle));
    addGpu("cuda-cub", "CUB DeviceReduce::Sum", "The library reference: cub::DeviceReduce::Sum (its own launch).",
           LAUNCHLAB_CUDA_ENTRY(reduce_sum::cudaCub), ImplKind::CudaLibrary, false);
    addGpu("cuda-reduce-host-input", "sum_reduce(A): a host array",
           "Session 3's first call: the reduction on a host array, so the input is copied up and the sum copied back "
           "(CUB's reduction stands for Numba's generated one).",
           LAUNCHLAB_CUDA_ENTRY(reduce_sum::cudaReduceHostInput), ImplKind::CudaLibrary, false)
        .runByDefault = false;  // run by the s3-reduce preset
    addGpu("cuda-reduce-device-result", "sum_reduce(A, res=r): the sum stays on the device",
           "Session 3's res= call: the input copied up, the sum left in device memory (no copy back in the timing; "
           "it is read once afterwards for verification).",
           LAUNCHLAB_CUDA_ENTRY(reduce_sum::cudaReduceDeviceResult), ImplKind::CudaLibrary, false)
        .runByDefault = false;  // run by the s3-reduce preset
    addGpu("cuda-reduce-device-input", "sum_reduce(A_d): a device array, left untouched",
           "Session 3's call on a device array: no copy up in the timing (A_d is made before), and the metric "
           "input_untouched = 1 when A_d still equals A afterwards (the seed's np.allclose check).",
           LAUNCHLAB_CUDA_ENTRY(reduce_sum::cudaReduceDeviceInput), ImplKind::CudaLibrary, false)
        .runByDefault = false;  // run by the s3-reduce preset
    nameKernels("reduce_sum", {{"cuda-atomics", {"atomicsKernel"}},
                               {"cuda-naive-race", {"raceKernel"}},
                               {"cuda-tree-global-halving", {"treeSumStepKernel"}},
                               {"cuda-tree-interleaved", {"treeKernel"}},
                               {"cuda-tree-sequential", {"treeKernel"}},
                               {"cuda-warp-shuffle", {"shuffleKernel"}}});
  }

  std::vector<HostArray> makeInputs(const RunSetup& s) const override {
    auto v = allocateInputs(s);
    if (s.params.choice("input") == "arange")
      fillArange(v[0], 1, 1);
    else if (isFloating(s.dtype))
      fillUniform(v[0], -1, 1, s.seed, 0);
    else
      fillUniform(v[0], -1000, 1000, s.seed, 0);
    return v;
  }

  std::vector<std::vector<std::size_t>> outputShapes(const RunSetup&) const override {
    return {{1}, {reduce_sum::kTreeLevels, reduce_sum::kTreeWidth}};
  }

  // The sum's traffic: x read once, one value written (the 8-element tree is an illustration).
  double bytesMoved(const RunSetup& s) const override { return double(s.n + 1) * double(dtypeSize(s.dtype)); }

  Verification verifyLaunched(const RunSetup& s, const std::vector<HostArray>& inputs,
                              const std::vector<HostArray>& ref, const std::vector<HostArray>& got,
                              const ImplSpec& impl, const LaunchConfig* launched) const override {
    // The tree adds the same pairs in the same order everywhere: exact.
    const Verification tree = compareArrays(ref[1], got[1], Tolerance::exact());
    if (!isFloating(s.dtype)) {
      Verification v = mergeVerifications({compareArrays(ref[0], got[0], Tolerance::exact()), tree});
      v.note = "exact (int32 sums wrap modulo 2^32 on every implementation)";
      // Wrapping sums of any subset are possible: a lost update is all the race can be recognised by.
      declareRace(v, impl, tree, true, ref[0].at(0), got[0].at(0));
      return v;
    }
    double neg = 0, pos = 0;  // the sums of the negative and of the positive elements
    visitDTypeAmong<float, double>(s.dtype, [&](auto t) {
      using T = decltype(t);
      const auto x = inputs[0].view<T>();
      const std::size_t n = x.size();
      double a = 0, b = 0;
#pragma omp parallel for reduction(+ : a, b) schedule(static)
      for (std::size_t i = 0; i < n; ++i) (x[i] < 0 ? a : b) += double(x[i]);
      neg = a;
      pos = b;
    });
    const SumTolerance tol =
        sumTolerance(reduce_sum::summationOrder(impl.id, s.dtype, s.n, launched),
                     reduce_sum::summationOrder(kCpuSerial, s.dtype, s.n, nullptr), s.n, pos - neg, s.dtype);
    Verification v = mergeVerifications({compareArrays(ref[0], got[0], Tolerance{tol.atol, 0}), tree});
    v.note = tol.note + "; the tree of x[0:8] exactly";
    // Updates that overwrite each other leave the sum of some of the elements: between the sum of the negative
    // ones and that of the positive ones. Anything outside (or NaN) is no race's outcome but a broken kernel.
    const double sum = got[0].at(0);
    declareRace(v, impl, tree, sum >= neg - tol.atol && sum <= pos + tol.atol, ref[0].at(0), sum);
    return v;
  }

 private:
  /// The naive race's expected outcome: a sum that lost updates, the tree of x[0:8] intact.
  static void declareRace(Verification& v, const ImplSpec& impl, const Verification& tree, bool subsetSum, double want,
                          double got) {
    if (impl.expectedOutcome.empty() || v.outcome != Verification::Outcome::Fail) return;
    char b[160];
    std::snprintf(b, sizeof b, "the sum is %.10g instead of %.10g: the threads' updates overwrote each other", got,
                  want);
    declareExpectedOutcome(v, subsetSum && tree.outcome == Verification::Outcome::Pass,
                           b + std::string(" \xE2\x80\x94 ") + impl.expectedOutcome);
  }

  double flops(const RunSetup& s) const override { return isFloating(s.dtype) ? double(s.n) : 0; }
};

}  // namespace

void register_reduce_sum(Registry& r) { r.add(std::make_unique<ReduceSum>()); }

}  // namespace launchlab::kernels
