#include "histogram_contention/histogram_contention.h"

#include "common/impl_helpers.h"
#include "histogram/histogram_cpu.h"
#include "launchlab/engine/registry.h"
#include "z_mass/z_mass.h"

namespace launchlab::kernels {

namespace {

using namespace histogram_contention;

template <bool Parallel>
void runCpu(ImplContext& ctx) {
  const auto rule = ruleOf(ctx.setup);
  const float* mass = ctx.inputs[0].view<float>().data();
  std::uint32_t* counts = ctx.outputs[0].view<std::uint32_t>().data();
  runCpuTimed(ctx, [&] { histogram::fill<Parallel>(mass, ctx.setup.n, rule, counts); });
}

class HistogramContention final : public BasicWorkload {
 public:
  HistogramContention() {
    auto& i = m_info;
    i.id = "histogram_contention";
    i.title = "Histogram filling: private copies, atomics and contention";
    i.chapter = kChapterAtlasPython;
    i.dtypes = {DType::F32};
    i.defaultDType = DType::F32;
    i.defaultN = 1000000;
    i.maxN = std::uint64_t(1) << 30;
    i.sizeLabel = "events (N): one mass each (-1 without a pair)";
    i.params = {
        {.name = "bins",
         .label = "Bins",
         .unit = "bins",
         .help = "Bins over [0, 120) GeV: 1200 is bin = 10 m, as in the tutorial's linked project (not in the seeds); "
                 "the sweep goes 1200, 600, 300, 150, 75, 60, "
                 "30, 15, 10, 5, 4, 3, 2, 1.",
         .kind = ParamSpec::Kind::Integer,
         .defaultValue = 1200,
         .minValue = 1,
         .maxValue = kMaxBins,
         .logScale = true},
        {.name = "private_limit_gib",
         .label = "Private histograms limit",
         .unit = "GiB",
         .help = "The most memory cuda-private-per-thread's threads x bins counters may take: beyond it the auto "
                 "grid shrinks, and a --grid given is refused.",
         .kind = ParamSpec::Kind::Real,
         .defaultValue = 8,
         .minValue = 1e-6,
         .maxValue = 1024,
         .logScale = true}};
    i.inputs = {{.name = "mass",
                 .title = "Dimuon mass per event (GeV; z_mass's generated sample)",
                 .xLabel = "event",
                 .yLabel = "mass (GeV)"}};
    i.outputs = {{.name = "counts",
                  .title = "Dimuon mass histogram",
                  .plot = PlotKind::Histogram,
                  .xLabel = "dimuon mass (GeV)",
                  .yLabel = "count",
                  .dtype = DType::U32,
                  .xMin = 0.0,
                  .xMax = kMaxGeV,
                  .logY = true}};

    addReference("CPU serial", "One core, one histogram: the reference.", runCpu<false>);
    addCpu("cpu-parallel", "CPU parallel (per-thread histograms)",
           "Each OpenMP thread fills its own histogram; the histograms are added at the end.", runCpu<true>);
    addGpu("cuda-private-per-thread", "CUDA a private histogram per thread (a)",
           "The tutorial's first answer (its linked project, not in the seeds): thread t counts its masses into row t "
           "of a threads x bins array in global "
           "memory (no conflicts), then a kernel sums the columns. Metric private_bytes: the rows' memory, at most "
           "--param private_limit_gib (and 80 % of the free device memory): beyond it the auto grid shrinks "
           "(grid-stride) and a --grid given is refused with the reason.",
           LAUNCHLAB_CUDA_ENTRY(histogram_contention::cudaPrivatePerThread));
    addGpu("cuda-global-atomics", "CUDA global atomics (b)",
           "One histogram in global memory, one atomicAdd per mass (histogram's kernel): threads that hit the same "
           "bin are serialized.",
           LAUNCHLAB_CUDA_ENTRY(histogram_contention::cudaGlobalAtomics));
    addGpu("cuda-shared-atomics", "CUDA shared-memory atomics (c)",
           "A histogram per block in shared memory (one copy), merged into the global one with one atomic per bin "
           "and block.",
           LAUNCHLAB_CUDA_ENTRY(histogram_contention::cudaSharedAtomics));
    addGpu("cuda-shared-per-lane", "CUDA shared memory, copies per lane",
           "As (c) with up to 32 copies of the histogram per block (as many as fit 32 KiB), so that the lanes of a "
           "warp seldom share a counter even with one bin.",
           LAUNCHLAB_CUDA_ENTRY(histogram_contention::cudaSharedPerLane));
  }

  std::vector<HostArray> makeInputs(const RunSetup& s) const override {
    std::vector<HostArray> v;
    if (s.inputFileShapes.empty())
      v.push_back(z_mass::generatedMasses({s.n, s.seed, 0.01}, "mass"));
    else
      v = allocateInputs(s);  // replaced by the file
    return v;
  }
  std::vector<std::vector<std::size_t>> outputShapes(const RunSetup& s) const override {
    return {{std::size_t(s.params.integer("bins"))}};
  }
  // Integer counts with one bin rule: every implementation must agree exactly.
  Tolerance tolerance(const RunSetup&, std::size_t) const override { return Tolerance::exact(); }
};

}  // namespace

void register_histogram_contention(Registry& r) { r.add(std::make_unique<HistogramContention>()); }

}  // namespace launchlab::kernels
