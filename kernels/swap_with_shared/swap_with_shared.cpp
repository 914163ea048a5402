#include "swap_with_shared/swap_with_shared.h"

#include <algorithm>
#include <cstdint>

#include "common/cpu_loops.h"
#include "launchlab/engine/registry.h"
#include "launchlab/engine/rng.h"

namespace launchlab::kernels {

namespace {

using swap_with_shared::mirrored;

/// swapped[i] = vector[the mirror of i within its segment], element by element (no shared array on the CPU).
template <bool Parallel>
void runCpu(ImplContext& ctx) {
  runCpuLoop<Parallel, std::int32_t, std::int64_t, float, double>(ctx, [&](auto tag) {
    using T = decltype(tag);
    const T* v = ctx.inputs[0].view<T>().data();
    T* out = ctx.outputs[0].view<T>().data();
    const std::uint64_t n = ctx.setup.n, seg = std::uint64_t(ctx.setup.params.integer("segment"));
    return [=](std::size_t i) {
      const std::uint64_t s0 = i / seg * seg, len = std::min(seg, n - s0);
      out[i] = v[s0 + mirrored(i - s0, len)];
    };
  });
}

class SwapWithShared final : public BasicWorkload {
 public:
  SwapWithShared() {
    auto& i = m_info;
    i.id = "swap_with_shared";
    i.title = "Swap through shared memory: a first __syncthreads()";
    i.chapter = kChapterMemory;
    i.dtypes = {DType::I32, DType::I64, DType::F32, DType::F64};
    i.defaultDType = DType::I32;
    i.defaultN = 4;
    i.maxN = (std::uint64_t(1) << 31) - 1;  // arange values stay within int32
    i.params = {{.name = "segment",
                 .label = "Segment",
                 .unit = "elements",
                 .help = "Elements reversed together, staged in one block's shared memory (the seed: 4, its block). "
                         "The automatic block has one thread per element (at most 1024).",
                 .kind = ParamSpec::Kind::Integer,
                 .defaultValue = 4,
                 .minValue = 1,
                 .maxValue = 4096}};
    i.inputs = {{.name = "vector", .title = "vector = arange(n)", .yLabel = "vector"}};
    i.outputs = {{.name = "swapped", .title = "swapped: each segment reversed", .yLabel = "swapped"}};

    addReference("CPU serial", "One core, swapped[i] = vector[the mirror of i in its segment]: the reference.",
                 runCpu<false>);
    addCpu("cpu-parallel", "CPU parallel (OpenMP)", "All cores, the same element by element.", runCpu<true>);
    addGpu("cuda-shared", "CUDA shared memory (the seed's kernel)",
           "temp[k] = vector[s0 + k]; __syncthreads(); swapped[s0 + k] = temp[len - 1 - k]: a block per segment, "
           "the segment in dynamic shared memory.",
           LAUNCHLAB_CUDA_ENTRY(swap_with_shared::cudaShared));
    ImplSpec& race = addGpu("cuda-shared-no-sync", "CUDA without __syncthreads() (race)",
                            "The same kernel with the barrier left out: a thread may read its mirror's slot before "
                            "that thread (in another warp) has written it. A demonstration: try --param "
                            "segment=1024 and look for the mismatches.",
                            LAUNCHLAB_CUDA_ENTRY(swap_with_shared::cudaSharedNoSync));
    race.demonstration = true;
  }

  std::vector<HostArray> makeInputs(const RunSetup& s) const override {
    auto v = allocateInputs(s);
    fillArange(v[0], 0, 1);
    return v;
  }

  Tolerance tolerance(const RunSetup&, std::size_t) const override { return Tolerance::exact(); }
  double bytesMoved(const RunSetup& s) const override { return 2.0 * double(s.n) * double(dtypeSize(s.dtype)); }
};

}  // namespace

void register_swap_with_shared(Registry& r) { r.add(std::make_unique<SwapWithShared>()); }

}  // namespace launchlab::kernels
