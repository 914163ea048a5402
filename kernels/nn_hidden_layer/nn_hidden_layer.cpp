#include "nn_hidden_layer/nn_hidden_layer.h"

#include <cmath>

#include "common/cpu_loops.h"
#include "launchlab/engine/registry.h"
#include "launchlab/engine/rng.h"

namespace launchlab::kernels {

namespace {

template <bool Parallel>
void runCpu(ImplContext& ctx) {
  runCpuMap<Parallel, float, double>(ctx, [](auto g, auto w) { return nn_hidden_layer::neuron(g, w); });
}

class NnHiddenLayer final : public BasicWorkload {
 public:
  NnHiddenLayer() {
    auto& i = m_info;
    i.id = "nn_hidden_layer";
    i.title = "Neural-network hidden layer: transfers, fusion and overlap";
    i.chapter = kChapterUfuncs;
    i.dtypes = {DType::F32, DType::F64};
    i.defaultDType = DType::F32;
    i.defaultN = 1000000;
    i.maxN = std::uint64_t(1) << 31;
    i.params = {
        {.name = "streams",
         .label = "Streams",
         .unit = "streams",
         .help = "cuda-fused-pinned-overlap: CUDA streams the chunks are spread over.",
         .kind = ParamSpec::Kind::Integer,
         .defaultValue = 4,
         .minValue = 1,
         .maxValue = 32},
        {.name = "chunks",
         .label = "Chunks",
         .unit = "chunks",
         .help = "cuda-fused-pinned-overlap: pieces the arrays are cut into (each: copy up, kernel, copy back).",
         .kind = ParamSpec::Kind::Integer,
         .defaultValue = 16,
         .minValue = 1,
         .maxValue = 4096,
         .logScale = true},
    };
    i.inputs = {{.name = "greyscales",
                 .title = "greyscales = floor(uniform(0, 255))",
                 .xLabel = "neuron",
                 .yLabel = "grey level"},
                {.name = "weights", .title = "weights ~ normal(0.5, 0.1)", .xLabel = "neuron", .yLabel = "weight"}};
    i.outputs = {
        {.name = "activations", .title = "tanh(greyscale / 255 * weight)", .xLabel = "neuron", .yLabel = "activation"}};

    addReference("CPU serial", "One core, the three steps per element in one loop: the reference.", runCpu<false>);
    addCpu("cpu-parallel", "CPU parallel (OpenMP + SIMD)", "All cores, SIMD inside each chunk.", runCpu<true>);
    addGpu("cuda-host-roundtrips", "CUDA 3 ufuncs on host arrays (round trips)",
           "Each of normalize, weigh and activate called on host arrays: its inputs go up and its result comes back, "
           "so every intermediate array crosses PCIe twice.",
           LAUNCHLAB_CUDA_ENTRY(nn_hidden_layer::cudaHostRoundTrips));
    addGpu("cuda-device-resident", "CUDA 3 kernels on device arrays",
           "The notebooks' solution: greyscales and weights go up once, the three kernels chain on device arrays, the "
           "activations come back once.",
           LAUNCHLAB_CUDA_ENTRY(nn_hidden_layer::cudaDeviceResident));
    addGpu("cuda-fused", "CUDA one fused kernel",
           "One kernel computes tanh(g / 255 * w) in registers: no intermediate arrays (pageable copies as before).",
           LAUNCHLAB_CUDA_ENTRY(nn_hidden_layer::cudaFused));
    addGpu("cuda-fused-pinned-overlap", "CUDA fused + pinned memory + streams",
           "Pinned host arrays, cut into chunks spread over several streams: while one chunk is copied up, another "
           "is computed and a third copied back. Timed end to end as one phase.",
           LAUNCHLAB_CUDA_ENTRY(nn_hidden_layer::cudaFusedPinnedOverlap));
  }

  std::vector<HostArray> makeInputs(const RunSetup& s) const override {
    auto v = allocateInputs(s);
    fillUniform(v[0], 0, 255, s.seed, 0);
    visitDTypeAmong<float, double>(s.dtype, [&](auto tag) {
      using T = decltype(tag);
      auto g = v[0].view<T>();
      forEachIndex<true>(g.size(), [&](std::size_t i) { g[i] = std::floor(g[i]); });
    });
    fillNormal(v[1], 0.5, 0.1, s.seed, 1);
    return v;
  }

  // exp differs by an ulp or two between libm and CUDA; activations are below 1 in magnitude for the seed's
  // inputs, and exp(v) - exp(-v) cancels near 0, hence an absolute term of a few ulps of 1.
  Tolerance tolerance(const RunSetup& s, std::size_t) const override {
    return s.dtype == DType::F32 ? Tolerance{1e-6, 1e-5} : Tolerance{2e-15, 1e-13};
  }

  // g / 255, * w, then (exp(v) - exp(-v)) / (exp(v) + exp(-v)): two exp (~8 each, as gaussian_pdf counts it), the
  // negation, difference, sum and division: a nominal 22 operations per neuron.
  double flops(const RunSetup& s) const override { return 22.0 * double(s.n); }
};

}  // namespace

void register_nn_hidden_layer(Registry& r) { r.add(std::make_unique<NnHiddenLayer>()); }

}  // namespace launchlab::kernels
