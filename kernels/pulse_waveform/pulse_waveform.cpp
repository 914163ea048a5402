#include "pulse_waveform/pulse_waveform.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>

#include "common/cpu_loops.h"
#include "launchlab/engine/registry.h"
#include "launchlab/engine/rng.h"

namespace launchlab::kernels {

namespace {

using pulse_waveform::waveSample;
using pulse_waveform::zeroSuppress;

template <bool Parallel>
void runCpu(ImplContext& ctx) {
  runCpuLoop<Parallel, std::int16_t, float, double>(ctx, [&](auto tag) {
    using T = decltype(tag);
    using C = pulse_waveform::Compute<T>;
    const auto k = pulse_waveform::constantsFor<T>(ctx.setup);
    const C* t = ctx.inputs[0].view<C>().data();
    const C* noise = ctx.inputs[1].view<C>().data();
    T* wave = ctx.outputs[0].view<T>().data();
    T* sup = ctx.outputs[1].view<T>().data();
    const bool off = pulse_waveform::suppressOff(ctx.setup);
    return [=](std::size_t i) {
      const T w = waveSample<T>(t[i], noise[i], k.period, k.amplitude);
      wave[i] = w;
      sup[i] = off ? w : zeroSuppress(w, k.threshold);
    };
  });
}

class PulseWaveform final : public BasicWorkload {
 public:
  PulseWaveform() {
    auto& i = m_info;
    i.id = "pulse_waveform";
    i.title = "Noisy pulse train and zero suppression: where the data lives";
    i.chapter = kChapterUfuncs;
    i.dtypes = {DType::I16, DType::F32, DType::F64};
    i.defaultDType = DType::I16;
    i.defaultN = 100000;
    i.params = {
        {.name = "amplitude",
         .label = "Pulse amplitude",
         .help = "Height of the pulses (make_pulses' amplitude).",
         .defaultValue = 300.0,
         .minValue = 0.0,
         .maxValue = 1e9},
        {.name = "cycles",
         .label = "Cycles",
         .unit = "periods",
         .help = "Sine periods over the whole array: period = n / cycles samples.",
         .defaultValue = 23.0,
         .minValue = 1e-3,
         .maxValue = 1e9},
        {.name = "noise_sigma",
         .label = "Noise sigma",
         .help = "Standard deviation of the Gaussian noise added to the pulses.",
         .defaultValue = 3.0,
         .minValue = 0.0,
         .maxValue = 1e9},
        {.name = "threshold",
         .label = "Threshold",
         .help = "zero_suppress sets every value below this to 0.",
         .defaultValue = 15.0,
         .minValue = -1e9,
         .maxValue = 1e9},
        {.name = "zero_suppress",
         .label = "zero_suppress step",
         .help = "on: make_pulses, add_ufunc, then zero_suppress (the zero_suppress exercise); off: make_pulses and "
                 "add_ufunc only (the make_pulses exercise as the seed writes it; `suppressed` is then the waveform).",
         .kind = ParamSpec::Kind::Choice,
         .choices = {"on", "off"}},
    };
    // An int16 waveform is computed from float64 times and noise, as NumPy does before the cast.
    i.inputs = {
        {.name = "t", .title = "t = arange(n) (sample times)", .yLabel = "t", .dtypeForIntegerRuns = DType::F64},
        {.name = "noise",
         .title = "noise ~ normal(0, noise_sigma)",
         .yLabel = "noise",
         .dtypeForIntegerRuns = DType::F64}};
    i.outputs = {
        {.name = "waveform", .title = "waveform = make_pulses(t) + noise", .xLabel = "sample", .yLabel = "amplitude"},
        {.name = "suppressed",
         .title = "zero_suppress(waveform, threshold)",
         .xLabel = "sample",
         .yLabel = "amplitude"}};

    addReference("CPU serial", "One core, the three steps per element in one loop: the reference.", runCpu<false>);
    addCpu("cpu-parallel", "CPU parallel (OpenMP + SIMD)", "All cores, SIMD inside each chunk.", runCpu<true>);
    addGpu("cuda-host-roundtrips", "CUDA 3 ufuncs on host arrays (round trips)",
           "The exercise's starting point: each step copies its inputs up and its result back to the host, so the "
           "pulses and the waveform cross PCIe three more times.",
           LAUNCHLAB_CUDA_ENTRY(pulse_waveform::cudaHostRoundTrips));
    addGpu("cuda-device-resident", "CUDA 3 kernels on device arrays",
           "The exercise's solution: t and the noise go up once, the three kernels chain on device arrays, the two "
           "results come back once.",
           LAUNCHLAB_CUDA_ENTRY(pulse_waveform::cudaDeviceResident));
    // Run by the tp31-zero-suppress preset, so that the default timing chart keeps its rows.
    addGpu("cuda-zero-suppress-only", "CUDA zero_suppress alone (the seed's call)",
           "The zero_suppress exercise as the seed runs it: the waveform is made on the host (untimed), only "
           "zero_suppress(waveform, threshold) runs on the GPU: the waveform up, one kernel, the result back.",
           LAUNCHLAB_CUDA_ENTRY(pulse_waveform::cudaZeroSuppressOnly))
        .runByDefault = false;
    addGpu("cuda-fused", "CUDA one fused kernel",
           "One kernel does the three steps in registers: no intermediate arrays, the least memory traffic.",
           LAUNCHLAB_CUDA_ENTRY(pulse_waveform::cudaFused));
  }

  std::vector<HostArray> makeInputs(const RunSetup& s) const override {
    auto v = allocateInputs(s);
    fillArange(v[0], 0, 1);
    // The noise is an input, drawn once from the seed, so that every implementation adds the same noise.
    fillNormal(v[1], 0, s.params.number("noise_sigma"), s.seed, 1);
    return v;
  }

  // sin differs by an ulp or two between libm and CUDA, scaled by the amplitude; an int16 sample within an ulp of
  // an integer may truncate to the neighbouring one.
  Tolerance tolerance(const RunSetup& s, std::size_t) const override {
    if (s.dtype == DType::I16) return {1.0, 0.0};
    const double amp = std::max(1.0, std::fabs(s.params.number("amplitude")));
    return s.dtype == DType::F32 ? Tolerance{1e-6 * amp, 1e-6} : Tolerance{4e-15 * amp, 1e-14};
  }

  // A waveform value within rounding of the threshold may be kept by one side and zeroed by the other: such
  // elements of `suppressed` are accepted either way (and counted in the note).
  Verification verify(const RunSetup& s, const std::vector<HostArray>& ref, const std::vector<HostArray>& got,
                      const ImplSpec&) const override {
    const Tolerance tol = tolerance(s, 0);
    HostArray adjusted = got[1];
    std::uint64_t ties = 0;
    if (ref[0].shape() == got[1].shape() && ref[1].shape() == got[1].shape() && ref[0].dtype() == got[1].dtype()) {
      visitDTypeAmong<std::int16_t, float, double>(ref[0].dtype(), [&](auto tag) {
        using T = decltype(tag);
        const double thr = s.params.number("threshold");
        auto w = ref[0].view<T>();
        auto r = ref[1].view<T>();
        auto g = adjusted.view<T>();
        auto close = [&](double a, double b) { return std::fabs(a - b) <= tol.atol + tol.rtol * std::fabs(a); };
        for (std::size_t i = 0; i < g.size(); ++i) {
          if (close(r[i], g[i]) || !close(w[i], thr)) continue;
          if (g[i] == T(0) || close(w[i], g[i])) {
            g[i] = r[i];
            ++ties;
          }
        }
      });
    }
    Verification v = mergeVerifications({compareArrays(ref[0], got[0], tol), compareArrays(ref[1], adjusted, tol)});
    if (ties)
      v.note += "; " + std::to_string(ties) + " value(s) within rounding of the threshold accepted as kept or zeroed";
    return v;
  }
};

}  // namespace

void register_pulse_waveform(Registry& r) { r.add(std::make_unique<PulseWaveform>()); }

}  // namespace launchlab::kernels
