#include "polar_distance/polar_distance.h"

#include <numbers>

#include "common/cpu_loops.h"
#include "launchlab/engine/registry.h"
#include "launchlab/engine/rng.h"

namespace launchlab::kernels {

namespace {

template <bool Parallel>
void runCpu(ImplContext& ctx) {
  using polar_distance::polarToCartesian;
  runCpuMap<Parallel, float, double>(ctx, [](auto rho1, auto theta1, auto rho2, auto theta2) {
    return polar_distance::distance(polarToCartesian(rho1, theta1), polarToCartesian(rho2, theta2));
  });
}

class PolarDistance final : public BasicWorkload {
 public:
  PolarDistance() {
    auto& i = m_info;
    i.id = "polar_distance";
    i.title = "Polar distance with a device function";
    i.chapter = kChapterUfuncs;
    i.dtypes = {DType::F32, DType::F64};
    i.defaultDType = DType::F32;
    i.defaultN = 1000000;
    i.params = {
        {.name = "rho_min",
         .label = "rho min",
         .help = "Radii are drawn uniformly from [rho_min, rho_max).",
         .defaultValue = 0.5,
         .minValue = 0.0,
         .maxValue = 1e6},
        {.name = "rho_max",
         .label = "rho max",
         .help = "Radii are drawn uniformly from [rho_min, rho_max).",
         .defaultValue = 1.5,
         .minValue = 0.0,
         .maxValue = 1e6},
    };
    i.inputs = {{.name = "rho1", .title = "rho1 ~ uniform(rho_min, rho_max)", .yLabel = "rho1"},
                {.name = "theta1", .title = "theta1 ~ uniform(-pi, pi)", .yLabel = "theta1 (rad)"},
                {.name = "rho2", .title = "rho2 ~ uniform(rho_min, rho_max)", .yLabel = "rho2"},
                {.name = "theta2", .title = "theta2 ~ uniform(-pi, pi)", .yLabel = "theta2 (rad)"}};
    i.outputs = {
        {.name = "distance", .title = "distance between (rho1, theta1) and (rho2, theta2)", .yLabel = "distance"}};

    addReference("CPU serial", "One core, the same helper and formula in a loop: the reference.", runCpu<false>);
    addCpu("cpu-parallel", "CPU parallel (OpenMP + SIMD)", "All cores, SIMD inside each chunk.", runCpu<true>);
    addGpu("cuda-device-function", "CUDA ufunc + __device__ helper",
           "What the course builds: one thread per element, polar_to_cartesian as a __device__ function that the "
           "compiler inlines.",
           LAUNCHLAB_CUDA_ENTRY(polar_distance::cudaDeviceFunction));
    addGpu("cuda-noinline", "CUDA helper as a real call (__noinline__)",
           "The same helper marked __noinline__: a real call with its arguments and results passed by the calling "
           "convention, which is what inlining saves.",
           LAUNCHLAB_CUDA_ENTRY(polar_distance::cudaNoInline));
    addGpu("cuda-fast-math", "CUDA fast math (__sincosf)",
           "float32: the hardware approximations __sincosf (accurate to about 4e-7 on [-pi, pi]); float64 has no "
           "such intrinsics and uses sincos, one call for both values.",
           LAUNCHLAB_CUDA_ENTRY(polar_distance::cudaFastMath));
  }

  std::string validate(const RunSetup& s) const override {
    if (s.params.number("rho_min") >= s.params.number("rho_max")) return "rho_min must be below rho_max";
    return {};
  }

  std::vector<HostArray> makeInputs(const RunSetup& s) const override {
    auto v = allocateInputs(s);
    const double lo = s.params.number("rho_min"), hi = s.params.number("rho_max");
    fillUniform(v[0], lo, hi, s.seed, 0);
    fillUniform(v[1], -std::numbers::pi, std::numbers::pi, s.seed, 1);
    fillUniform(v[2], lo, hi, s.seed, 2);
    fillUniform(v[3], -std::numbers::pi, std::numbers::pi, s.seed, 3);
    return v;
  }

  // sin/cos differ by an ulp or two between libm and CUDA; distances near 0 need an absolute term.
  Tolerance tolerance(const RunSetup& s, std::size_t) const override {
    const double scale = s.params.number("rho_max");
    return s.dtype == DType::F32 ? Tolerance{4e-6 * scale, 2e-6} : Tolerance{1e-14 * scale, 1e-13};
  }

  Verification verify(const RunSetup& s, const std::vector<HostArray>& ref, const std::vector<HostArray>& got,
                      const ImplSpec& impl) const override {
    if (impl.id != "cuda-fast-math" || s.dtype != DType::F32) return Workload::verify(s, ref, got, impl);
    // __sincosf: absolute error up to 2^-21.41 per value on [-pi, pi], times rho, four values per distance.
    Verification v = compareArrays(ref[0], got[0], Tolerance{2e-5 * s.params.number("rho_max"), 2e-6});
    v.note += " (fast-math tolerance: __sincosf is an approximation)";
    return v;
  }

  // Two points: cos and sin (counted as ~8 each, as gaussian_pdf counts exp) and rho * each, 2 x (16 + 2); then
  // dx, dy, their squares, the sum and sqrt: 6. A nominal 42 operations per distance.
  double flops(const RunSetup& s) const override { return 42.0 * double(s.n); }
};

}  // namespace

void register_polar_distance(Registry& r) { r.add(std::make_unique<PolarDistance>()); }

}  // namespace launchlab::kernels
