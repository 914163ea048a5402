#include "gaussian_pdf/gaussian_pdf.h"

#include "common/impl_helpers.h"
#include "launchlab/registry.h"
#include "launchlab/rng.h"

namespace launchlab::kernels {

namespace {

using std::exp;

template <typename T> void pdfSerial(const T* x, T* out, std::size_t n, T mean, T sigma) {
  for (std::size_t i = 0; i < n; ++i) out[i] = gaussian_pdf::pdf(x[i], mean, sigma);
}
template <typename T> void pdfParallel(const T* x, T* out, std::size_t n, T mean, T sigma) {
#pragma omp parallel for simd schedule(static)
  for (std::size_t i = 0; i < n; ++i) out[i] = gaussian_pdf::pdf(x[i], mean, sigma);
}

template <bool Parallel> void runCpu(ImplContext& ctx) {
  visitDTypeAmong<float, double>(ctx.setup.dtype, [&](auto t) {
    using T = decltype(t);
    const T mean = T(ctx.setup.params.number("mean"));
    const T sigma = T(ctx.setup.params.number("sigma"));
    const T* x = ctx.inputs[0].view<T>().data();
    T* out = ctx.outputs[0].view<T>().data();
    const std::size_t n = ctx.outputs[0].size();
    runCpuTimed(ctx, [&] {
      if constexpr (Parallel) pdfParallel(x, out, n, mean, sigma);
      else pdfSerial(x, out, n, mean, sigma);
    });
  });
}

class GaussianPdf final : public BasicWorkload {
 public:
  GaussianPdf() {
    auto& i = m_info;
    i.id = "gaussian_pdf";
    i.title = "Gaussian probability density";
    i.chapter = "TP 3.1 — GPU ufuncs";
    i.lesson =
        "A ufunc applies one scalar formula to every element. exp() costs far more arithmetic than an addition, "
        "yet the kernel is still bounded by memory, and at a million elements it finishes in microseconds: "
        "compare its kernel time with the transfers around it, which dominate the total.";
    i.seedNote = "TP 3.1: @vectorize(target='cuda') gaussian_pdf on 1,000,000 float32 x ~ uniform(-3, 3), "
                 "mean 0, sigma 1.";
    i.dtypes = {DType::F32, DType::F64};
    i.defaultDType = DType::F32;
    i.defaultN = 1000000;
    i.params = {
        {"mean", "Mean", "", "Centre of the Gaussian.", ParamSpec::Kind::Real, 0.0, -1e6, 1e6},
        {"sigma", "Sigma", "", "Standard deviation (> 0).", ParamSpec::Kind::Real, 1.0, 1e-6, 1e6},
        {"xmin", "x min", "", "Inputs are drawn uniformly from [xmin, xmax).", ParamSpec::Kind::Real, -3.0, -1e6, 1e6},
        {"xmax", "x max", "", "Inputs are drawn uniformly from [xmin, xmax).", ParamSpec::Kind::Real, 3.0, -1e6, 1e6},
    };
    i.inputs = {{"x", "x ~ uniform(xmin, xmax)", PlotKind::Waveform, "index", "x"}};
    i.outputs = {{"pdf", "pdf(x)", PlotKind::Scatter, "x", "pdf(x)", "x"}};

    addCpu("cpu-serial", "CPU serial", "One core, a plain loop (the course's CPU @vectorize): the reference.",
           runCpu<false>);
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
    std::vector<HostArray> v;
    v.emplace_back("x", s.dtype, std::vector<std::size_t>{std::size_t(s.n)});
    fillUniform(v[0], s.params.number("xmin"), s.params.number("xmax"), s.seed, 0);
    return v;
  }

  std::vector<HostArray> makeOutputs(const RunSetup& s) const override {
    return makeArrays(m_info.outputs, s.dtype, {std::size_t(s.n)});
  }

  // exp differs by an ulp or two between libm and CUDA; far tails underflow, hence the absolute term.
  Tolerance tolerance(const RunSetup& s, std::size_t) const override {
    return s.dtype == DType::F32 ? Tolerance{1e-30, 4e-6} : Tolerance{1e-300, 1e-13};
  }

  double bytesMoved(const RunSetup& s) const override { return 2.0 * double(s.n) * double(dtypeSize(s.dtype)); }
  // sub, div, mul x2, exp (counted as ~8), mul, div: a nominal 13 operations per element.
  double flops(const RunSetup& s) const override { return 13.0 * double(s.n); }
};

}  // namespace

void register_gaussian_pdf(Registry& r) { r.add(std::make_unique<GaussianPdf>()); }

}  // namespace launchlab::kernels
