#include "hypot/hypot.h"

#include <cmath>

#include "common/cpu_launch.h"
#include "common/cpu_loops.h"
#include "launchlab/engine/registry.h"
#include "launchlab/engine/rng.h"

namespace launchlab::kernels {

namespace {

constexpr auto kHypot = [](auto a, auto b) { return std::hypot(a, b); };

template <bool Parallel>
void runCpu(ImplContext& ctx) {
  runCpuMap<Parallel, float, double>(ctx, kHypot);
}

void runEmulated(ImplContext& ctx) { runEmulatedMap<float, double>(ctx, EmulatedKernel::GridStride, kHypot); }

class Hypot final : public BasicWorkload {
 public:
  Hypot() {
    auto& i = m_info;
    i.id = "hypot";
    i.title = "Hypotenuse with a grid-stride loop";
    i.chapter = kChapterCustomKernels;
    i.dtypes = {DType::F32, DType::F64};
    i.defaultDType = DType::F32;
    i.defaultN = 1000000;
    i.inputs = {{.name = "a", .title = "a ~ uniform(-12, 12)", .yLabel = "a"},
                {.name = "b", .title = "b ~ uniform(-12, 12)", .yLabel = "b"}};
    i.outputs = {{.name = "c", .title = "c = hypot(a, b)", .yLabel = "hypot(a, b)"}};

    addReference("CPU serial", "One core, std::hypot in a loop: the reference.", runCpu<false>);
    addCpu("cpu-parallel", "CPU parallel (OpenMP)", "All cores, std::hypot on contiguous chunks.", runCpu<true>);
    addCpu("cpu-emulated-grid-stride", "CPU: hypot_stride's launch, emulated",
           "Runs hypot_stride's grid-stride body for every block and thread of the requested launch on the CPU: "
           "with [1, 1] one thread walks all N elements, with [128, 64] 8192 threads share them; the result is the "
           "same, as on a GPU.",
           runEmulated)
        .usesLaunchConfig = true;
    addGpu("cuda-grid-stride", "CUDA grid-stride hypot_stride",
           "The exercise's solution: each thread strides through the array by gridDim.x * blockDim.x.",
           LAUNCHLAB_CUDA_ENTRY(hypot_workload::cudaGridStride));
    nameKernels("hypot_workload", {{"cuda-grid-stride", {"hypotStrideKernel"}}});
  }

  std::vector<HostArray> makeInputs(const RunSetup& s) const override {
    auto v = allocateInputs(s);
    fillUniform(v[0], -12, 12, s.seed, 0);
    fillUniform(v[1], -12, 12, s.seed, 1);
    return v;
  }

  // CUDA's hypotf is within 3 ulp, glibc's correctly rounded or within 1 ulp.
  Tolerance tolerance(const RunSetup& s, std::size_t) const override {
    return s.dtype == DType::F32 ? Tolerance{0, 1e-6} : Tolerance{0, 1e-14};
  }

  // sqrt(a * a + b * b): mul x2, add, sqrt (hypot's scaling against overflow not counted): 4 per element.
  double flops(const RunSetup& s) const override { return 4.0 * double(s.n); }
};

}  // namespace

void register_hypot(Registry& r) { r.add(std::make_unique<Hypot>()); }

}  // namespace launchlab::kernels
