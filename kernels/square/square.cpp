#include "square/square.h"

#include <cstdint>

#include "common/cpu_loops.h"
#include "launchlab/engine/registry.h"
#include "launchlab/engine/rng.h"

namespace launchlab::kernels {

namespace {

template <bool Parallel>
void runCpu(ImplContext& ctx) {
  runCpuMap<Parallel, std::int64_t, std::int32_t, float, double>(ctx, [](auto a) { return square::squareOf(a); });
}

class Square final : public BasicWorkload {
 public:
  Square() {
    auto& i = m_info;
    i.id = "square";
    i.title = "Square: a CPU function rewritten as a kernel";
    i.chapter = kChapterCustomKernels;
    i.dtypes = {DType::I64, DType::I32, DType::F32, DType::F64};
    i.defaultDType = DType::I64;
    i.defaultN = 4096;
    i.maxN = (std::uint64_t(1) << 31) - (1 << 20) -
             1;  // arange stays within int32 whatever the start; larger squares wrap (squareOf)
    i.params = {
        {.name = "start",
         .label = "First value",
         .help = "a = start, start + 1, …: 0 is TP 3.2's np.arange(n), 1 the ATLAS training's np.arange(1, 13).",
         .kind = ParamSpec::Kind::Integer,
         .defaultValue = 0,
         .minValue = 0,
         .maxValue = 1 << 20}};
    i.inputs = {{.name = "a", .title = "a = arange(start, start + n)", .yLabel = "a"}};
    i.outputs = {{.name = "out", .title = "out = a**2", .yLabel = "a**2"}};

    addReference("CPU serial", "One core, a * a in a loop: the reference.", runCpu<false>);
    addCpu("cpu-parallel", "CPU parallel (OpenMP + SIMD)", "All cores, a * a on contiguous chunks.", runCpu<true>);
    addGpu("cuda-one-per-thread", "CUDA one thread per element",
           "The exercise's solution: i = cuda.grid(1), if i < n: out[i] = a[i] ** 2; auto grid = ceil(n / block).",
           LAUNCHLAB_CUDA_ENTRY(square::cudaOnePerThread));
  }

  std::vector<HostArray> makeInputs(const RunSetup& s) const override {
    auto v = allocateInputs(s);
    fillArange(v[0], double(s.params.integer("start")), 1);
    return v;
  }

  // Integer products are exact; a float product is correctly rounded on both sides.
  Tolerance tolerance(const RunSetup&, std::size_t) const override { return Tolerance::exact(); }

  double flops(const RunSetup& s) const override { return isFloating(s.dtype) ? double(s.n) : 0; }
};

}  // namespace

void register_square(Registry& r) { r.add(std::make_unique<Square>()); }

}  // namespace launchlab::kernels
