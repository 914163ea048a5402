#include "round_decimals/round_decimals.h"

#include "common/cpu_loops.h"
#include "common/impl_helpers.h"
#include "launchlab/registry.h"
#include "launchlab/rng.h"

namespace launchlab::kernels {

namespace {

template <bool Parallel> void runCpu(ImplContext& ctx) {
  visitDTypeAmong<double, float>(ctx.setup.dtype, [&](auto t) {
    using T = decltype(t);
    const T f = round_decimals::scaleFor<T>(ctx.setup.params.integer("decimals"));
    const T* x = ctx.inputs[0].view<T>().data();
    T* out = ctx.outputs[0].view<T>().data();
    const std::size_t n = ctx.outputs[0].size();
    runCpuTimed(ctx, [&] { forEachIndex<Parallel>(n, [&](std::size_t i) { out[i] = round_decimals::roundTo(x[i], f); }); });
  });
}

class RoundDecimals final : public BasicWorkload {
 public:
  RoundDecimals() {
    auto& i = m_info;
    i.id = "round_decimals";
    i.title = "Rounding to decimals: forall's automatic launch against a manual one";
    i.chapter = "Session 3 — Porting and CUDA utilities";
    i.lesson =
        "forall(n) picks the launch for you: the block size the occupancy API suggests and just enough blocks to "
        "cover n. Compare its configuration and time (and the theoretical occupancy in the metrics) with your own "
        "block and grid: tiny blocks (e.g. --block 32 or less) cap the threads an SM can hold, and a grid far "
        "below n makes every thread loop over many elements.";
    i.seedNote = "Session 3: cuDF's gpu_round with the rint device function, gpu_round.forall(len(in_data))(in_data, "
                 "out_data, 3) on 10 float64 values of np.random.random (the default); try --n 16M for timings.";
    i.dtypes = {DType::F64, DType::F32};
    i.defaultDType = DType::F64;
    i.defaultN = 10;
    i.params = {{"decimals", "Decimals", "digits", "Round to this many decimal places (f = 10^decimals).",
                 ParamSpec::Kind::Integer, 3, 0, 15}};
    i.inputs = {{"x", "x ~ uniform(0, 1) (np.random.random)", PlotKind::Waveform, "index", "x"}};
    i.outputs = {{"rounded", "x rounded to `decimals` places", PlotKind::Scatter, "x", "rounded", "x"}};

    addCpu("cpu-serial", "CPU serial", "One core, the same rint in a loop: the reference.", runCpu<false>);
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
    auto v = makeArrays(m_info.inputs, s.dtype, {std::size_t(s.n)});
    fillUniform(v[0], 0, 1, s.seed, 0);
    return v;
  }

  std::vector<HostArray> makeOutputs(const RunSetup& s) const override {
    return makeArrays(m_info.outputs, s.dtype, {std::size_t(s.n)});
  }

  // floor, compare, multiply and divide are exact or correctly rounded on both sides: identical bits.
  Tolerance tolerance(const RunSetup&, std::size_t) const override { return Tolerance::exact(); }

  double bytesMoved(const RunSetup& s) const override { return 2.0 * double(s.n) * double(dtypeSize(s.dtype)); }
};

}  // namespace

void register_round_decimals(Registry& r) { r.add(std::make_unique<RoundDecimals>()); }

}  // namespace launchlab::kernels
