#include "groupby_sum/groupby_sum.h"

#include <omp.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "common/cpu_loops.h"
#include "common/cpu_team.h"
#include "launchlab/engine/registry.h"
#include "launchlab/engine/rng.h"

namespace launchlab::kernels {

namespace groupby_sum {

void requireSorted(std::span<const std::int64_t> keys) {
  for (std::size_t i = 1; i < keys.size(); ++i)
    if (keys[i] < keys[i - 1])
      throw std::invalid_argument("jetid must be sorted (non-decreasing), as cumsum makes it: row " +
                                  std::to_string(i) + " has " + std::to_string(keys[i]) + " after " +
                                  std::to_string(keys[i - 1]) + " (sort the rows by jetid first)");
}

std::uint64_t countGroups(std::span<const std::int64_t> keys) {
  std::uint64_t groups = keys.empty() ? 0 : 1;
  for (std::size_t i = 1; i < keys.size(); ++i) groups += keys[i] != keys[i - 1] ? 1 : 0;
  return groups;
}

std::uint64_t denseSpan(std::span<const std::int64_t> keys) {
  if (keys.empty()) return 0;
  const std::uint64_t span = std::uint64_t(keys.back()) - std::uint64_t(keys.front()) + 1;
  const std::uint64_t bound = kDenseSpanPerRow * keys.size() + 1024;
  if (span == 0 || span > bound)
    throw std::invalid_argument("jetid spans " + std::to_string(keys.back()) + " - " + std::to_string(keys.front()) +
                                " + 1 values for " + std::to_string(keys.size()) +
                                " rows: too sparse for a dense table indexed by key - key[0] (at most " +
                                std::to_string(bound) + "); use a segment or CUB variant");
  return span;
}

template <bool Parallel>
void findStarts(std::span<const std::int64_t> keys, std::span<std::uint64_t> starts) {
  const std::size_t n = keys.size();
  auto isStart = [&](std::size_t i) { return i == 0 || keys[i] != keys[i - 1]; };
  if constexpr (!Parallel) {
    std::size_t g = 0;
    for (std::size_t i = 0; i < n; ++i)
      if (isStart(i)) starts[g++] = i;
  } else {
    // Each thread counts the starts of its chunk of rows, an exclusive scan of the counts gives where its starts
    // go, and each thread writes them: the same array as the serial loop.
    std::vector<std::size_t> first(std::size_t(omp_get_max_threads()) + 1, 0);
#pragma omp parallel num_threads(cpuTeam(n))
    {
      const std::size_t t = std::size_t(omp_get_thread_num()), threads = std::size_t(omp_get_num_threads());
      const std::size_t lo = n * t / threads, hi = n * (t + 1) / threads;
      std::size_t mine = 0;
      for (std::size_t i = lo; i < hi; ++i) mine += isStart(i) ? 1 : 0;
      first[t + 1] = mine;
#pragma omp barrier
#pragma omp single
      std::partial_sum(first.begin(), first.begin() + std::ptrdiff_t(threads) + 1, first.begin());
      std::size_t g = first[t];
      for (std::size_t i = lo; i < hi; ++i)
        if (isStart(i)) starts[g++] = i;
    }
  }
  starts[starts.size() - 1] = n;
}

template <bool Parallel, typename T>
void sumLists(std::span<const std::uint64_t> offsets, const T* x, T* out, std::size_t outStride) {
  const std::size_t lists = offsets.empty() ? 0 : offsets.size() - 1;
  forEachRow<Parallel>(lists, [&](std::size_t j) {
    T acc = 0;
    for (std::uint64_t i = offsets[j]; i < offsets[j + 1]; ++i) acc += x[i];
    out[j * outStride] = acc;
  });
}

template void findStarts<false>(std::span<const std::int64_t>, std::span<std::uint64_t>);
template void findStarts<true>(std::span<const std::int64_t>, std::span<std::uint64_t>);
template void sumLists<false, float>(std::span<const std::uint64_t>, const float*, float*, std::size_t);
template void sumLists<true, float>(std::span<const std::uint64_t>, const float*, float*, std::size_t);
template void sumLists<false, double>(std::span<const std::uint64_t>, const double*, double*, std::size_t);
template void sumLists<true, double>(std::span<const std::uint64_t>, const double*, double*, std::size_t);

void recordRowRate(ImplContext& ctx, Phase timed) {
  const double ms = summarize(ctx.samples[timed]).medianMs;
  if (ms > 0) ctx.metrics["rows_per_s"] = double(ctx.setup.n) / (ms * 1e-3);
  // Bytes moved: every input read once and the groups' rows written once (the workload's default counts the
  // outputs' upper bound, a row per input row).
  const double rowBytes = double(sizeof(std::int64_t) + kColumns * dtypeSize(ctx.setup.dtype));
  ctx.bytesMoved = rowBytes * double(ctx.setup.n + ctx.outputs[0].size());
}

std::int64_t poissonDraw(double u, double mean) {
  double p = std::exp(-mean), cdf = p;
  std::int64_t k = 0;
  while (u >= cdf && k < 1000) {
    ++k;
    p *= mean / double(k);
    cdf += p;
  }
  return k;
}

}  // namespace groupby_sum

namespace {

using namespace groupby_sum;

/// The reference and cpu-parallel: segment starts, then each segment summed in row order (the Awkward sum of
/// each column), segments shared over the cores when Parallel. Both give the same bits.
template <bool Parallel>
void runCpu(ImplContext& ctx) {
  const auto keys = ctx.inputs[0].view<std::int64_t>();
  requireSorted(keys);
  const std::size_t groups = ctx.outputs[0].size();
  std::vector<std::uint64_t> starts(groups + 1);
  auto outKeys = ctx.outputs[0].view<std::int64_t>();
  visitDTypeAmong<float, double>(ctx.setup.dtype, [&](auto tag) {
    using T = decltype(tag);
    T* sums = ctx.outputs[1].view<T>().data();
    runCpuTimed(ctx, [&] {
      findStarts<Parallel>(keys, starts);
      forEachIndex<Parallel>(groups, [&](std::size_t g) { outKeys[g] = keys[starts[g]]; });
      for (std::size_t c = 0; c < kColumns; ++c)
        sumLists<Parallel, T>(starts, ctx.inputs[1 + c].view<T>().data(), sums + c, kColumns);
    });
  });
  recordRowRate(ctx, Phase::Cpu);
}

const char* const kColumnNames[kColumns] = {"px", "py", "pz", "E"};

class GroupbySum final : public BasicWorkload {
 public:
  GroupbySum() {
    auto& i = m_info;
    i.id = "groupby_sum";
    i.title = "Group-by sum: cuDF's groupby(\"jetid\").sum() and Awkward's per-list sum";
    i.chapter = kChapterAtlasPython;
    i.dtypes = {DType::F32, DType::F64};
    i.defaultDType = DType::F32;
    i.defaultN = 1000000;
    i.maxN = std::uint64_t(1) << 28;
    i.sizeLabel = "rows";
    i.inputs = {{.name = "jetid",
                 .title = "jetid = cumsum(Poisson(0.1)) (sorted keys)",
                 .xLabel = "row",
                 .yLabel = "jetid",
                 .dtype = DType::I64}};
    for (const char* c : kColumnNames) i.inputs.push_back({.name = c, .title = c, .xLabel = "row", .yLabel = c});
    i.outputs = {{.name = "keys",
                  .title = "Distinct jetid, increasing (one per group)",
                  .xLabel = "group",
                  .yLabel = "jetid",
                  .dtype = DType::I64},
                 {.name = "sums",
                  .title = "Sums per group: columns px, py, pz, E",
                  .plot = PlotKind::Image,
                  .xLabel = "column (px, py, pz, E)",
                  .yLabel = "sum"}};

    addReference("CPU serial", "Segment starts, then each segment's rows added in order: the reference.",
                 runCpu<false>);
    addCpu("cpu-parallel", "CPU parallel (OpenMP segments)",
           "Starts found by per-thread counts and a scan, segments shared over the cores; same order inside each "
           "segment, so the same bits as " +
               std::string(kCpuSerial) + ".",
           runCpu<true>);
    addGpu("cuda-atomics", "CUDA atomics per key",
           "Each row atomicAdds its 4 values into row key - key[0] of a dense table; the keys that occur are marked, "
           "scanned and compacted.",
           LAUNCHLAB_CUDA_ENTRY(groupby_sum::cudaAtomics));
    addGpu("cuda-atomics-warp-runs", "CUDA atomics, one per run of a warp",
           "A segmented sum over each warp's 32 rows (shuffles), then one atomicAdd per key run and column instead of "
           "one per row; same dense table and compaction.",
           LAUNCHLAB_CUDA_ENTRY(groupby_sum::cudaAtomicsWarpRuns));
    addGpu("cuda-thread-per-segment", "CUDA a thread per segment (the seed's sum_in_cuda)",
           "Segment starts from a flag per row and a scan, then thread g adds the rows of segment g, as the seed's "
           "Awkward kernel gives a thread to each list.",
           LAUNCHLAB_CUDA_ENTRY(groupby_sum::cudaThreadPerSegment));
    addGpu("cuda-warp-per-segment", "CUDA a warp per segment",
           "The same starts, then a warp per segment: lanes stride over its rows (coalesced) and a shuffle reduction "
           "adds them; short segments leave most lanes idle.",
           LAUNCHLAB_CUDA_ENTRY(groupby_sum::cudaWarpPerSegment));
    addGpu("cuda-cub", "CUB DeviceReduce::ReduceByKey",
           "The library reference: cub::DeviceReduce::ReduceByKey over the keys with the 4 columns as one 4-vector "
           "value (its own launch).",
           LAUNCHLAB_CUDA_ENTRY(groupby_sum::cudaCub), ImplKind::CudaLibrary, false);
  }

  /// The seed's DataFrame: jetid = cumsum of Poisson(0.1) draws (stream 0), the columns normal draws (streams 1-4).
  std::vector<HostArray> makeInputs(const RunSetup& s) const override {
    auto in = allocateInputs(s);
    auto jet = in[0].view<std::int64_t>();
    forEachIndex<true>(jet.size(),
                       [&](std::size_t r) { jet[r] = poissonDraw(toUnit(counterBits(s.seed, 0, r)), kPoissonMean); });
    std::partial_sum(jet.begin(), jet.end(), jet.begin());
    const double mean[kColumns] = {0, 0, 0, 20};
    for (std::size_t c = 0; c < kColumns; ++c) fillNormal(in[1 + c], mean[c], 10, s.seed, 1 + c);
    return in;
  }

  /// At most one group per row: the memory estimate. makeOutputsFor allocates one row per distinct key.
  std::vector<std::vector<std::size_t>> outputShapes(const RunSetup& s) const override {
    return {{std::size_t(s.n)}, {std::size_t(s.n), kColumns}};
  }
  std::vector<HostArray> makeOutputsFor(const RunSetup& s, const std::vector<HostArray>& in) const override {
    const std::size_t groups = in.empty() ? std::size_t(s.n) : std::size_t(countGroups(in[0].view<std::int64_t>()));
    return makeArrays(m_info.outputs, {{groups}, {groups, kColumns}}, s.dtype);
  }

  /// Keys exactly. A sum of L terms added in any order differs from the exact sum by at most (L - 1) u sum|x|
  /// (u = 2^-24 in f32, 2^-53 in f64), so two orders differ by at most 2 (L - 1) u sum|x| <= L eps sum|x|: that,
  /// per group and column, is the tolerance (the atomics and CUB add in another order than the reference).
  Verification verifyWithInputs(const RunSetup& s, const std::vector<HostArray>& in, const std::vector<HostArray>& ref,
                                const std::vector<HostArray>& got, const ImplSpec&) const override {
    Verification v = compareArrays(ref[0], got[0], Tolerance::exact());
    if (got[1].shape() != ref[1].shape() || v.mismatches || v.outcome == Verification::Outcome::Fail) {
      v.outcome = Verification::Outcome::Fail;
      v.note = "keys or the shape of sums differ from the reference";
      return v;
    }
    const auto keys = in[0].view<std::int64_t>();
    const double eps =
        s.dtype == DType::F32 ? double(std::numeric_limits<float>::epsilon()) : std::numeric_limits<double>::epsilon();
    std::vector<std::uint64_t> starts(ref[0].size() + 1);
    findStarts<false>(keys, starts);
    for (std::size_t g = 0; g + 1 < starts.size(); ++g)
      for (std::size_t c = 0; c < kColumns; ++c) {
        double mag = 0;
        for (std::uint64_t r = starts[g]; r < starts[g + 1]; ++r) mag += std::fabs(in[1 + c].at(r));
        const double want = ref[1].at(g * kColumns + c), have = got[1].at(g * kColumns + c);
        const double err = std::fabs(have - want), allowed = double(starts[g + 1] - starts[g]) * eps * mag;
        ++v.compared;
        v.maxAbsError = std::max(v.maxAbsError, err);
        if (want != 0) v.maxRelError = std::max(v.maxRelError, err / std::fabs(want));
        if (!(err <= allowed)) {
          ++v.mismatches;
          if (v.firstMismatches.size() < 16) v.firstMismatches.push_back(ref[0].size() + g * kColumns + c);
        }
      }
    v.outcome = v.mismatches ? Verification::Outcome::Fail : Verification::Outcome::Pass;
    std::ostringstream o;
    o << ref[0].size() << " groups: keys exact; each sum within L eps sum|x| of the reference (L rows in the "
      << "group; any two summation orders are that close)";
    v.note = o.str();
    return v;
  }
};

}  // namespace

void register_groupby_sum(Registry& r) { r.add(std::make_unique<GroupbySum>()); }

}  // namespace launchlab::kernels
