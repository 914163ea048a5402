#include "vector_add/vector_add.h"

#include <cstdint>

#include "common/cpu_loops.h"
#include "launchlab/registry.h"
#include "launchlab/rng.h"

namespace launchlab::kernels {

namespace {

template <bool Parallel> void runCpu(ImplContext& ctx) {
  runCpuMap<Parallel, float, double, std::int32_t, std::int64_t>(ctx, [](auto x, auto y) { return x + y; });
}

class VectorAdd final : public BasicWorkload {
 public:
  VectorAdd() {
    auto& i = m_info;
    i.id = "vector_add";
    i.title = "Vector addition";
    i.chapter = kChapterCustomKernels;
    i.lesson =
        "Each thread adds one pair of elements, so the kernel only moves bytes: its speed is the memory "
        "bandwidth. Shrink the grid below N threads with the one-thread-per-element kernel and the last elements "
        "stay unwritten; the grid-stride loop covers any N with any grid, and wide (16-byte) loads bring it "
        "close to a device-to-device copy.";
    i.seedNote = "TP 3.2: add_kernel on n = 4096 with 32 x 128 threads, then the grid-stride add_kernel on "
                 "n = 100000 with 30 x 128 threads (reproduce with --block 128 --grid 30).";
    i.dtypes = {DType::F32, DType::F64, DType::I32, DType::I64};
    i.defaultDType = DType::F32;
    i.defaultN = 1 << 24;
    i.params = {{.name = "input", .label = "Input pattern",
                 .help = "random: x and y uniform random; arange: x = 0, 1, 2, … and y = 1 (the course's example)",
                 .kind = ParamSpec::Kind::Choice, .choices = {"random", "arange"}}};
    i.inputs = {{.name = "x", .title = "x", .yLabel = "x"}, {.name = "y", .title = "y", .yLabel = "y"}};
    i.outputs = {{.name = "out", .title = "out = x + y", .yLabel = "x + y"}};

    addReference("CPU serial", "One core, a plain loop: the reference.", runCpu<false>);
    addCpu("cpu-parallel", "CPU parallel (OpenMP + SIMD)", "All cores, each on a contiguous chunk, SIMD inside.",
           runCpu<true>);
    addGpu("cuda-one-per-thread", "CUDA one thread per element",
           "The course's first add_kernel with a bounds check: grid = ceil(N / block) blocks by default. A grid "
           "smaller than that leaves the tail unwritten.",
           LAUNCHLAB_CUDA_ENTRY(vector_add::cudaOnePerThread));
    addGpu("cuda-grid-stride", "CUDA grid-stride loop",
           "The course's grid-stride add_kernel: any grid covers any N; auto grid = as many blocks as are resident.",
           LAUNCHLAB_CUDA_ENTRY(vector_add::cudaGridStride));
    addGpu("cuda-vectorized", "CUDA vectorized (16-byte loads)",
           "Each thread moves 16-byte vectors (float4/double2/int4), several in flight: the fewest memory "
           "instructions per byte.",
           LAUNCHLAB_CUDA_ENTRY(vector_add::cudaVectorized));
  }

  std::vector<HostArray> makeInputs(const RunSetup& s) const override {
    auto v = allocateInputs(s);
    HostArray &x = v[0], &y = v[1];
    if (s.params.choice("input") == "arange") {
      fillArange(x, 0, 1);
      fillConstant(y, 1);
    } else if (isFloating(s.dtype)) {
      fillUniform(x, -1, 1, s.seed, 0);
      fillUniform(y, -1, 1, s.seed, 1);
    } else {
      fillUniform(x, -(1 << 30), 1 << 30, s.seed, 0);
      fillUniform(y, -(1 << 30), 1 << 30, s.seed, 1);
    }
    return v;
  }

  // IEEE addition is correctly rounded on both sides: results must be identical.
  Tolerance tolerance(const RunSetup&, std::size_t) const override { return Tolerance::exact(); }

  double flops(const RunSetup& s) const override { return isFloating(s.dtype) ? double(s.n) : 0; }
};

}  // namespace

void register_vector_add(Registry& r) { r.add(std::make_unique<VectorAdd>()); }

}  // namespace launchlab::kernels
