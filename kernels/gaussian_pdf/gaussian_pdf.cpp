#include "gaussian_pdf/gaussian_pdf.h"

#include "common/cpu_loops.h"
#include "launchlab/engine/registry.h"
#include "launchlab/engine/rng.h"

namespace launchlab::kernels {

namespace {

template <bool Parallel>
void runCpu(ImplContext& ctx) {
  const double mean = ctx.setup.params.number("mean"), sigma = ctx.setup.params.number("sigma");
  runCpuMap<Parallel, float, double>(ctx, [=](auto x) {
    using T = decltype(x);
    return gaussian_pdf::pdf(x, T(mean), T(sigma));
  });
}

class GaussianPdf final : public BasicWorkload {
 public:
  GaussianPdf() {
    auto& i = m_info;
    i.id = "gaussian_pdf";
    i.title = "Gaussian probability density";
    i.chapter = kChapterUfuncs;
    i.dtypes = {DType::F32, DType::F64};
    i.defaultDType = DType::F32;
    i.defaultN = 1000000;
    i.params = {
        {.name = "mean",
         .label = "Mean",
         .help = "Centre of the Gaussian.",
         .defaultValue = 0.0,
         .minValue = -1e6,
         .maxValue = 1e6},
        {.name = "sigma",
         .label = "Sigma",
         .help = "Standard deviation (> 0).",
         .defaultValue = 1.0,
         .minValue = 1e-6,
         .maxValue = 1e6},
        {.name = "xmin",
         .label = "x min",
         .help = "Inputs are drawn uniformly from [xmin, xmax).",
         .defaultValue = -3.0,
         .minValue = -1e6,
         .maxValue = 1e6},
        {.name = "xmax",
         .label = "x max",
         .help = "Inputs are drawn uniformly from [xmin, xmax).",
         .defaultValue = 3.0,
         .minValue = -1e6,
         .maxValue = 1e6},
    };
    i.inputs = {{.name = "x", .title = "x ~ uniform(xmin, xmax)", .yLabel = "x"}};
    i.outputs = {
        {.name = "pdf", .title = "pdf(x)", .plot = PlotKind::Scatter, .xLabel = "x", .yLabel = "pdf(x)", .xFrom = "x"}};

    addReference("CPU serial", "One core, a plain loop (the course's CPU @vectorize): the reference.", runCpu<false>);
    addCpu("cpu-parallel", "CPU parallel (OpenMP + SIMD)", "All cores, SIMD inside each chunk.", runCpu<true>);
    addGpu("cuda", "CUDA ufunc (one thread per element)",
           "What @vectorize(target='cuda') generates: one thread per element, grid = ceil(N / block).",
           LAUNCHLAB_CUDA_ENTRY(gaussian_pdf::cuda));
  }

  std::string validate(const RunSetup& s) const override {
    if (s.params.number("xmin") >= s.params.number("xmax")) return "xmin must be below xmax";
    return {};
  }

  std::vector<HostArray> makeInputs(const RunSetup& s) const override {
    auto v = allocateInputs(s);
    fillUniform(v[0], s.params.number("xmin"), s.params.number("xmax"), s.seed, 0);
    return v;
  }

  // exp differs by an ulp or two between libm and CUDA; far tails underflow, hence the absolute term.
  Tolerance tolerance(const RunSetup& s, std::size_t) const override {
    return s.dtype == DType::F32 ? Tolerance{1e-30, 4e-6} : Tolerance{1e-300, 1e-13};
  }

  // sub, div, mul x2, exp (counted as ~8), mul, div: a nominal 13 operations per element.
  double flops(const RunSetup& s) const override { return 13.0 * double(s.n); }
};

}  // namespace

void register_gaussian_pdf(Registry& r) { r.add(std::make_unique<GaussianPdf>()); }

}  // namespace launchlab::kernels
