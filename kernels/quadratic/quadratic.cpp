#include "quadratic/quadratic.h"

#include <memory>

#include "common/cpu_loops.h"
#include "launchlab/engine/registry.h"
#include "launchlab/engine/rng.h"

namespace launchlab::kernels {

namespace {

using quadratic::root;

template <bool Parallel>
void runCpuFused(ImplContext& ctx) {
  runCpuMap<Parallel, float, double>(ctx, [](auto a, auto b, auto c) { return root(a, b, c); });
}

// NumPy's evaluation: one loop per operation over whole arrays, temporaries allocated (uninitialised, like
// np.empty) and freed in the order of the seed's `del` statements.
template <typename T>
void numpyPasses(const T* a, const T* b, const T* c, T* out, std::size_t n, int form) {
  auto tmp = [n] { return std::make_unique_for_overwrite<T[]>(n); };
  auto t1 = tmp();
  for (std::size_t i = 0; i < n; ++i) t1[i] = -b[i];
  auto t2 = tmp();
  for (std::size_t i = 0; i < n; ++i) t2[i] = quadratic::squareOf(b[i], form);
  auto t3 = tmp();
  for (std::size_t i = 0; i < n; ++i) t3[i] = T(4) * a[i];
  auto t4 = tmp();
  for (std::size_t i = 0; i < n; ++i) t4[i] = t3[i] * c[i];
  t3.reset();
  auto t5 = tmp();
  for (std::size_t i = 0; i < n; ++i) t5[i] = t2[i] - t4[i];
  t2.reset();
  t4.reset();
  auto t6 = tmp();
  for (std::size_t i = 0; i < n; ++i) t6[i] = hd::sqrt(t5[i]);
  t5.reset();
  auto t7 = tmp();
  for (std::size_t i = 0; i < n; ++i) t7[i] = t1[i] + t6[i];
  t1.reset();
  t6.reset();
  auto t8 = tmp();
  for (std::size_t i = 0; i < n; ++i) t8[i] = T(2) * a[i];
  for (std::size_t i = 0; i < n; ++i) out[i] = t7[i] / t8[i];
}

void runCpuNumpy(ImplContext& ctx) {
  visitDTypeAmong<float, double>(ctx.setup.dtype, [&](auto t) {
    using T = decltype(t);
    const std::size_t n = ctx.outputs[0].size();
    const int form = quadratic::squareFormOf(ctx);
    runCpuTimed(ctx, [&] {
      numpyPasses(ctx.inputs[0].view<T>().data(), ctx.inputs[1].view<T>().data(), ctx.inputs[2].view<T>().data(),
                  ctx.outputs[0].view<T>().data(), n, form);
    });
    ctx.bytesMoved = quadratic::kUnfusedElementsMoved * double(n) * sizeof(T);
    ctx.metrics["passes"] = quadratic::kUnfusedPasses;
  });
}

constexpr const char* kSquareForms[] = {"mul", "pow", "intpow"};

class Quadratic final : public BasicWorkload {
 public:
  Quadratic() {
    auto& i = m_info;
    i.id = "quadratic";
    i.title = "Quadratic formula: nine array passes against one fused kernel";
    i.chapter = kChapterAtlasPython;
    i.dtypes = {DType::F64, DType::F32};
    i.defaultDType = DType::F64;
    i.defaultN = 1000000;
    i.params = {{.name = "square",
                 .label = "b**2 in the passes",
                 .help = "How the nine-pass variants square b: mul (b * b), pow (pow(b, 2.0): CuPy's b**2, as the seed "
                         "notices) or intpow (the seed's ElementwiseKernel intpow(b, 2): a loop of multiplications). "
                         "The fused kernels use b * b.",
                 .kind = ParamSpec::Kind::Choice,
                 .choices = {kSquareForms[0], kSquareForms[1], kSquareForms[2]}},
                {.name = "input",
                 .label = "Input",
                 .help = "uniform: a ~ U(5, 10), b ~ U(10, 20), c ~ U(-0.1, 0.1) (the seed's arrays); seed-scalar: "
                         "a = 5, b = 10, c = -0.1 everywhere (the seed's quadratic_formula(5, 10, -0.1)).",
                 .kind = ParamSpec::Kind::Choice,
                 .choices = {"uniform", "seed-scalar"}}};
    i.inputs = {{.name = "a", .title = "a ~ uniform(5, 10)", .yLabel = "a"},
                {.name = "b", .title = "b ~ uniform(10, 20)", .yLabel = "b"},
                {.name = "c", .title = "c ~ uniform(-0.1, 0.1)", .yLabel = "c"}};
    i.outputs = {{.name = "root", .title = "(-b + sqrt(b^2 - 4ac)) / 2a", .yLabel = "root"}};

    addReference("CPU serial (one fused loop)", "One core, one pass (Numba's @njit loop): the reference.",
                 runCpuFused<false>);
    addCpu("cpu-parallel", "CPU parallel (OpenMP + SIMD)", "All cores, one fused pass.", runCpuFused<true>);
    addCpu("cpu-numpy-passes", "CPU NumPy-style (9 passes, serial)",
           "One core, one loop per operation with temporaries, as NumPy evaluates the expression.", runCpuNumpy);
    addGpu("cuda-numpy-passes", "CUDA one kernel per operation (9 passes)",
           "What CuPy runs for the NumPy expression: nine element-wise kernels and their temporaries on the device.",
           LAUNCHLAB_CUDA_ENTRY(quadratic::cudaUnfused));
    addGpu("cuda-fused", "CUDA fused kernel (1 pass)",
           "The CuPy RawKernel / Numba kernel: one thread per element computes the whole formula in registers.",
           LAUNCHLAB_CUDA_ENTRY(quadratic::cudaFused));
  }

  std::vector<HostArray> makeInputs(const RunSetup& s) const override {
    auto v = allocateInputs(s);
    if (s.params.choice("input") == "seed-scalar") {
      fillConstant(v[0], 5);
      fillConstant(v[1], 10);
      fillConstant(v[2], -0.1);
      return v;
    }
    fillUniform(v[0], 5, 10, s.seed, 0);
    fillUniform(v[1], 10, 20, s.seed, 1);
    fillUniform(v[2], -0.1, 0.1, s.seed, 2);
    return v;
  }

  // Every operation is IEEE-exact on both sides and the products are not contracted into FMAs, so the results
  // should agree bit for bit; the tolerance allows a few ulps of b (the root is a difference of numbers ~b).
  Tolerance tolerance(const RunSetup& s, std::size_t) const override {
    return s.dtype == DType::F32 ? Tolerance{2e-6, 1e-6} : Tolerance{4e-15, 1e-14};
  }

  // neg, mul, mul, mul, sub, sqrt, add, mul, div
  double flops(const RunSetup& s) const override { return 9.0 * double(s.n); }
};

}  // namespace

int quadratic::squareFormOf(const ImplContext& ctx) {
  const std::string& form = ctx.setup.params.choice("square");
  for (int i = 0; i < 3; ++i)
    if (form == kSquareForms[i]) return i;
  return int(SquareForm::Mul);
}

void register_quadratic(Registry& r) { r.add(std::make_unique<Quadratic>()); }

}  // namespace launchlab::kernels
