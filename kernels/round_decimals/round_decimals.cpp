#include "round_decimals/round_decimals.h"

#include "common/cpu_loops.h"
#include "launchlab/engine/registry.h"
#include "launchlab/engine/rng.h"

namespace launchlab::kernels {

namespace {

template <bool Parallel>
void runCpu(ImplContext& ctx) {
  // scaleFor<T> is scaleFor<double> converted to T.
  const double f = round_decimals::scaleFor<double>(ctx.setup.params.integer("decimals"));
  runCpuMap<Parallel, double, float>(ctx, [f](auto x) { return round_decimals::roundTo(x, decltype(x)(f)); });
}

class RoundDecimals final : public BasicWorkload {
 public:
  RoundDecimals() {
    auto& i = m_info;
    i.id = "round_decimals";
    i.title = "Rounding to decimals: forall's automatic launch against a manual one";
    i.chapter = kChapterPorting;
    i.dtypes = {DType::F64, DType::F32};
    i.defaultDType = DType::F64;
    i.defaultN = 10;
    i.params = {{.name = "decimals",
                 .label = "Decimals",
                 .unit = "digits",
                 .help = "Round to this many decimal places (f = 10^decimals).",
                 .kind = ParamSpec::Kind::Integer,
                 .defaultValue = 3,
                 .minValue = 0,
                 .maxValue = 15}};
    i.inputs = {{.name = "x", .title = "x ~ uniform(0, 1) (np.random.random)", .yLabel = "x"}};
    i.outputs = {{.name = "rounded",
                  .title = "x rounded to `decimals` places",
                  .plot = PlotKind::Scatter,
                  .xLabel = "x",
                  .yLabel = "rounded",
                  .xFrom = "x"}};

    addReference("CPU serial", "One core, the same rint in a loop: the reference.", runCpu<false>);
    addCpu("cpu-parallel", "CPU parallel (OpenMP + SIMD)", "All cores, SIMD inside each chunk.", runCpu<true>);
    addGpu("cuda-forall", "CUDA forall (occupancy API)",
           "gpu_round.forall(n): block = cudaOccupancyMaxPotentialBlockSize's suggestion, grid = ceil(n / block); "
           "ignores --block and --grid.",
           LAUNCHLAB_CUDA_ENTRY(round_decimals::cudaForall), ImplKind::Cuda, /*usesLaunchConfig=*/false);
    addGpu("cuda-manual", "CUDA manual launch (your block and grid)",
           "gpu_round[grid, block]: the configuration you choose (left on auto: LaunchLab's default of at most 256 "
           "threads and ceil(n / block) blocks); a grid-stride loop keeps any grid correct.",
           LAUNCHLAB_CUDA_ENTRY(round_decimals::cudaManual));
  }

  std::vector<HostArray> makeInputs(const RunSetup& s) const override {
    auto v = allocateInputs(s);
    fillUniform(v[0], 0, 1, s.seed, 0);
    return v;
  }

  // floor, compare, multiply and divide are exact or correctly rounded on both sides: identical bits.
  Tolerance tolerance(const RunSetup&, std::size_t) const override { return Tolerance::exact(); }
};

}  // namespace

void register_round_decimals(Registry& r) { r.add(std::make_unique<RoundDecimals>()); }

}  // namespace launchlab::kernels
