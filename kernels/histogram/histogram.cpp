#include "histogram/histogram.h"

#include <algorithm>
#include <cmath>
#include <vector>

#include "common/impl_helpers.h"
#include "histogram/histogram_cpu.h"
#include "launchlab/engine/registry.h"
#include "launchlab/engine/rng.h"

namespace launchlab::kernels {

namespace {

using histogram::BinRule;

/// The seed's cpu_histogram rule: bin_width = (xmax - xmin) / bins and np.int32((x - xmin) / bin_width) in float64
/// (NumPy 1.x), which truncates toward zero, so x in (xmin - bin_width, xmin) lands in bin 0 (BinRule drops it).
struct SeedBinRule {
  double lo, width;
  int bins;
  template <typename T>
  int operator()(T x) const {
    const double q = (double(x) - lo) / width;
    if (!(q > -1.0 && q < double(bins))) return -1;  // NaN, or a bin np.int32 would put outside [0, bins)
    return static_cast<int>(q);                      // truncation toward zero: (-1, 0) -> 0
  }
};

template <bool Parallel>
void runCpu(ImplContext& ctx) {
  visitDTypeAmong<float, double>(ctx.setup.dtype, [&](auto t) {
    using T = decltype(t);
    const auto rule = BinRule<T>::make(ctx.setup.params.number("xmin"), ctx.setup.params.number("xmax"),
                                       int(ctx.setup.params.integer("bins")));
    const T* x = ctx.inputs[0].view<T>().data();
    const std::size_t n = ctx.inputs[0].size();
    std::uint32_t* counts = ctx.outputs[0].view<std::uint32_t>().data();
    runCpuTimed(ctx, [&] { histogram::fill<Parallel>(x, n, rule, counts); });
  });
}

// The seed's rule, one core: a demonstration (values just below xmin are counted in bin 0).
void runCpuSeedRule(ImplContext& ctx) {
  visitDTypeAmong<float, double>(ctx.setup.dtype, [&](auto t) {
    using T = decltype(t);
    const double lo = ctx.setup.params.number("xmin"), hi = ctx.setup.params.number("xmax");
    const int bins = int(ctx.setup.params.integer("bins"));
    const SeedBinRule rule{lo, (hi - lo) / bins, bins};
    const auto x = ctx.inputs[0].view<T>();
    std::uint32_t* counts = ctx.outputs[0].view<std::uint32_t>().data();
    runCpuTimed(ctx, [&] { histogram::fillSerial(x.data(), x.size(), rule, counts); });
    const auto below = std::count_if(x.begin(), x.end(), [&](T v) { return double(v) < lo && rule(v) == 0; });
    ctx.metrics["below_xmin_in_bin_0"] = double(below);
  });
}

class Histogram final : public BasicWorkload {
 public:
  Histogram() {
    auto& i = m_info;
    i.id = "histogram";
    i.title = "Histogram with atomics";
    i.chapter = kChapterAtomics;
    i.dtypes = {DType::F32, DType::F64};
    i.defaultDType = DType::F32;
    i.defaultN = 10000;
    i.params = {
        {.name = "xmin",
         .label = "x min",
         .help = "Lower edge of the first bin (inclusive).",
         .defaultValue = -4.0,
         .minValue = -1e30,
         .maxValue = 1e30},
        {.name = "xmax",
         .label = "x max",
         .help = "Upper edge of the last bin (exclusive).",
         .defaultValue = 4.0,
         .minValue = -1e30,
         .maxValue = 1e30},
        {.name = "bins",
         .label = "Bins",
         .unit = "bins",
         .help = "Number of equal bins over [xmin, xmax).",
         .kind = ParamSpec::Kind::Integer,
         .defaultValue = 10,
         .minValue = 1,
         .maxValue = histogram::kMaxBins,
         .logScale = true},
        {.name = "distribution",
         .label = "Data",
         .help = "normal(0, 1) like the seed, or uniform over [xmin, xmax).",
         .kind = ParamSpec::Kind::Choice,
         .choices = {"normal", "uniform"}},
    };
    i.inputs = {{.name = "x", .title = "x", .yLabel = "x"}};
    i.outputs = {{.name = "counts",
                  .title = "Counts per bin",
                  .plot = PlotKind::Histogram,
                  .xLabel = "x",
                  .yLabel = "count",
                  .xMinParam = "xmin",
                  .xMaxParam = "xmax",
                  .dtype = DType::U32}};

    addReference("CPU serial", "One core, one histogram: the reference.", runCpu<false>);
    addCpu("cpu-parallel", "CPU parallel (per-thread histograms)",
           "Each OpenMP thread fills its own histogram; the histograms are added at the end.", runCpu<true>);
    ImplSpec& seedRule = addCpu(
        "cpu-seed-rule", "CPU, the seed's bin rule",
        "The seed's cpu_histogram: np.int32((x - xmin) / bin_width) in float64 (NumPy 1.x) truncates toward zero, so a "
        "value in (xmin - bin_width, xmin) is counted in bin 0 where the other variants drop it (metric "
        "below_xmin_in_bin_0). A demonstration: it differs only when such values exist.",
        runCpuSeedRule);
    seedRule.demonstration = true;
    seedRule.runByDefault = false;  // run by the tp32-histogram preset
    addGpu("cuda-global-atomics", "CUDA global atomics (the seed's kernel)",
           "The exercise's solution: a grid-stride loop with one atomicAdd on the global histogram per element. "
           "Threads wait on each other at the busy bins.",
           LAUNCHLAB_CUDA_ENTRY(histogram::cudaGlobalAtomics));
    addGpu("cuda-shared-privatized", "CUDA shared-memory privatized",
           "Each block counts into private copies in shared memory (one per lane when they fit, so a warp never "
           "collides on an address or a bank), with 16-byte grid-stride loads; one global atomic per bin and block "
           "at the end. Grid sized to fill the device.",
           LAUNCHLAB_CUDA_ENTRY(histogram::cudaSharedPrivatized));
    addGpu("cuda-cub", "CUB DeviceHistogram::HistogramEven",
           "The library reference: cub::DeviceHistogram::HistogramEven with the same levels (its own launch).",
           LAUNCHLAB_CUDA_ENTRY(histogram::cudaCub), ImplKind::CudaLibrary, false);
    nameKernels("histogram", {{"cuda-global-atomics", {"globalAtomicsKernel"}},
                              {"cuda-shared-privatized", {"sharedPrivatizedKernel"}}});
  }

  std::string validate(const RunSetup& s) const override {
    const double lo = s.params.number("xmin"), hi = s.params.number("xmax");
    const bool f32 = s.dtype == DType::F32;
    const double l = f32 ? double(float(lo)) : lo, h = f32 ? double(float(hi)) : hi;
    if (!(l < h)) return "xmin must be below xmax (in the data's precision)";
    const double scale = double(s.params.integer("bins")) / (h - l);
    if (!std::isfinite(h - l) || !std::isfinite(scale) || (f32 && !std::isfinite(float(scale))))
      return "the range [xmin, xmax) is too small or too large for this many bins";
    return {};
  }

  std::vector<HostArray> makeInputs(const RunSetup& s) const override {
    auto v = allocateInputs(s);
    if (s.params.choice("distribution") == "uniform")
      fillUniform(v[0], s.params.number("xmin"), s.params.number("xmax"), s.seed, 0);
    else
      fillNormal(v[0], 0.0, 1.0, s.seed, 0);
    return v;
  }

  std::vector<std::vector<std::size_t>> outputShapes(const RunSetup& s) const override {
    return {{std::size_t(s.params.integer("bins"))}};
  }

  // Integer counts with one shared bin rule: every implementation must agree exactly.
  Tolerance tolerance(const RunSetup&, std::size_t) const override { return Tolerance::exact(); }
};

}  // namespace

void register_histogram(Registry& r) { r.add(std::make_unique<Histogram>()); }

}  // namespace launchlab::kernels
