#include "sort/sort.h"

#include <algorithm>
#include <cstdint>
#include <vector>

#include "common/cpu_team.h"
#include "common/impl_helpers.h"
#include "launchlab/engine/registry.h"
#include "launchlab/engine/rng.h"

namespace launchlab::kernels {

namespace {

/// Sorts x in place on every core: equal chunks sorted at once, then merged pairwise (log2(chunks) rounds).
template <typename T>
void parallelSort(T* x, std::size_t n) {
  const std::size_t chunks = std::size_t(cpuTeam(n));
  std::vector<std::size_t> bound(chunks + 1);
  for (std::size_t c = 0; c <= chunks; ++c) bound[c] = n * c / chunks;
#pragma omp parallel for schedule(static) num_threads(int(chunks))
  for (std::ptrdiff_t c = 0; c < std::ptrdiff_t(chunks); ++c) std::sort(x + bound[c], x + bound[c + 1]);
  for (std::size_t width = 1; width < chunks; width *= 2) {
#pragma omp parallel for schedule(static) num_threads(int(chunks))
    for (std::ptrdiff_t c = 0; c < std::ptrdiff_t(chunks); c += std::ptrdiff_t(2 * width)) {
      const std::size_t mid = std::min(std::size_t(c) + width, chunks),
                        end = std::min(std::size_t(c) + 2 * width, chunks);
      std::inplace_merge(x + bound[c], x + bound[mid], x + bound[end]);
    }
  }
}

/// Each repetition sorts a fresh copy of the input (CuPy's array.sort() sorts in place): the copy is timed too.
template <bool Parallel>
void runCpu(ImplContext& ctx) {
  visitDTypeAmong<float, double>(ctx.setup.dtype, [&](auto tag) {
    using T = decltype(tag);
    auto in = ctx.inputs[0].view<T>();
    auto out = ctx.outputs[0].view<T>();
    runCpuTimed(ctx, [&] {
      std::copy(in.begin(), in.end(), out.begin());
      if constexpr (Parallel)
        parallelSort(out.data(), out.size());
      else
        std::sort(out.begin(), out.end());
    });
  });
}

class Sort final : public BasicWorkload {
 public:
  Sort() {
    auto& i = m_info;
    i.id = "sort";
    i.title = "Sort: CUB's radix sort against std::sort";
    i.chapter = kChapterAtlasPython;
    i.dtypes = {DType::F64, DType::F32};
    i.defaultDType = DType::F64;
    i.defaultN = 1000000;
    i.maxN = std::uint64_t(1) << 30;
    i.inputs = {{.name = "x", .title = "x ~ uniform(5, 10)", .yLabel = "x"}};
    i.outputs = {{.name = "sorted", .title = "x sorted", .xLabel = "rank", .yLabel = "x"}};

    addReference("CPU serial (std::sort)", "One core, std::sort on a copy of x (introsort): the reference.",
                 runCpu<false>);
    addCpu("cpu-parallel", "CPU parallel (sorted chunks, merged)",
           "All cores: one chunk per thread sorted with std::sort, then merged pairwise.", runCpu<true>);
    addGpu("cuda-cub-radix", "CUB DeviceRadixSort::SortKeys",
           "What CuPy runs for array.sort() of a float64 array: CUB's LSD radix sort (onesweep), one histogram and one "
           "scan kernel for all the digits, then one kernel per 8-bit digit that ranks, scans and scatters (the "
           "profiler's view in the seed).",
           LAUNCHLAB_CUDA_ENTRY(sort::cudaCubRadix), ImplKind::CudaLibrary, false);
  }

  std::vector<HostArray> makeInputs(const RunSetup& s) const override {
    auto v = allocateInputs(s);
    fillUniform(v[0], 5, 10, s.seed, 0);
    return v;
  }

  // A sort moves values, never computes them: every implementation gives the same array.
  Tolerance tolerance(const RunSetup&, std::size_t) const override { return Tolerance::exact(); }
};

}  // namespace

void register_sort(Registry& r) { r.add(std::make_unique<Sort>()); }

}  // namespace launchlab::kernels
