#include "pulse_waveform/pulse_waveform.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "common/cpu_loops.h"
#include "common/impl_helpers.h"
#include "launchlab/registry.h"
#include "launchlab/rng.h"

namespace launchlab::kernels {

namespace {

using pulse_waveform::makePulse;
using pulse_waveform::zeroSuppress;

template <bool Parallel> void runCpu(ImplContext& ctx) {
  visitDTypeAmong<float, double>(ctx.setup.dtype, [&](auto tag) {
    using T = decltype(tag);
    const auto k = pulse_waveform::constantsFor<T>(ctx.setup);
    const T* t = ctx.inputs[0].view<T>().data();
    const T* noise = ctx.inputs[1].view<T>().data();
    T* wave = ctx.outputs[0].view<T>().data();
    T* sup = ctx.outputs[1].view<T>().data();
    const std::size_t n = ctx.outputs[0].size();
    runCpuTimed(ctx, [&] {
      forEachIndex<Parallel>(n, [&](std::size_t i) {
        const T w = makePulse(t[i], k.period, k.amplitude) + noise[i];
        wave[i] = w;
        sup[i] = zeroSuppress(w, k.threshold);
      });
    });
  });
}

class PulseWaveform final : public BasicWorkload {
 public:
  PulseWaveform() {
    auto& i = m_info;
    i.id = "pulse_waveform";
    i.title = "Noisy pulse train and zero suppression: where the data lives";
    i.chapter = "TP 3.1 — GPU ufuncs";
    i.lesson =
        "Three tiny kernels (make_pulses, add the noise, zero_suppress) take microseconds; what costs is moving "
        "the data. Copying every intermediate result back to the host and up again (the exercise's starting "
        "point) multiplies the H2D and D2H time; keeping the arrays on the device removes those copies, and fusing "
        "the three steps into one kernel also removes the intermediate arrays. Plot both outputs: the noise on "
        "the baseline disappears below the threshold.";
    i.seedNote = "TP 3.1: n = 100,000 float32, t = arange(n), period = n / 23, make_pulses(t, period, 100.0), "
                 "noise = normal * 3, waveform = add_ufunc(pulses, noise), then zero_suppress(waveform, 15).";
    i.dtypes = {DType::F32, DType::F64};
    i.defaultDType = DType::F32;
    i.defaultN = 100000;
    i.params = {
        {"amplitude", "Pulse amplitude", "", "Height of the pulses (make_pulses' amplitude).", ParamSpec::Kind::Real,
         100.0, 0.0, 1e9},
        {"cycles", "Cycles", "periods", "Sine periods over the whole array: period = n / cycles samples.",
         ParamSpec::Kind::Real, 23.0, 1e-3, 1e9},
        {"noise_sigma", "Noise sigma", "", "Standard deviation of the Gaussian noise added to the pulses.",
         ParamSpec::Kind::Real, 3.0, 0.0, 1e9},
        {"threshold", "Threshold", "", "zero_suppress sets every value below this to 0.", ParamSpec::Kind::Real, 15.0,
         -1e9, 1e9},
    };
    i.inputs = {{"t", "t = arange(n) (sample times)", PlotKind::Waveform, "index", "t"},
                {"noise", "noise ~ normal(0, noise_sigma)", PlotKind::Waveform, "index", "noise"}};
    i.outputs = {{"waveform", "waveform = make_pulses(t) + noise", PlotKind::Waveform, "sample", "amplitude"},
                 {"suppressed", "zero_suppress(waveform, threshold)", PlotKind::Waveform, "sample", "amplitude"}};

    addCpu("cpu-serial", "CPU serial", "One core, the three steps per element in one loop: the reference.",
           runCpu<false>);
    addCpu("cpu-parallel", "CPU parallel (OpenMP + SIMD)", "All cores, SIMD inside each chunk.", runCpu<true>);
    addGpu("cuda-host-roundtrips", "CUDA 3 ufuncs on host arrays (round trips)",
           "The exercise's starting point: each step copies its inputs up and its result back to the host, so the "
           "pulses and the waveform cross PCIe three more times.",
           LAUNCHLAB_CUDA_ENTRY(pulse_waveform::cudaHostRoundTrips));
    addGpu("cuda-device-resident", "CUDA 3 kernels on device arrays",
           "The exercise's solution: t and the noise go up once, the three kernels chain on device arrays, the two "
           "results come back once.",
           LAUNCHLAB_CUDA_ENTRY(pulse_waveform::cudaDeviceResident));
    addGpu("cuda-fused", "CUDA one fused kernel",
           "One kernel does the three steps in registers: no intermediate arrays, the least memory traffic.",
           LAUNCHLAB_CUDA_ENTRY(pulse_waveform::cudaFused));
  }

  std::vector<HostArray> makeInputs(const RunSetup& s) const override {
    auto v = makeArrays(m_info.inputs, s.dtype, {std::size_t(s.n)});
    fillArange(v[0], 0, 1);
    // The noise is an input, drawn once from the seed, so that every implementation adds the same noise.
    fillNormal(v[1], 0, s.params.number("noise_sigma"), s.seed, 1);
    return v;
  }

  std::vector<HostArray> makeOutputs(const RunSetup& s) const override {
    return makeArrays(m_info.outputs, s.dtype, {std::size_t(s.n)});
  }

  // sin differs by an ulp or two between libm and CUDA, scaled by the amplitude.
  Tolerance tolerance(const RunSetup& s, std::size_t) const override {
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
      visitDTypeAmong<float, double>(ref[0].dtype(), [&](auto tag) {
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
    if (ties) v.note += "; " + std::to_string(ties) + " value(s) within rounding of the threshold accepted as kept or zeroed";
    return v;
  }

  double bytesMoved(const RunSetup& s) const override { return 4.0 * double(s.n) * double(dtypeSize(s.dtype)); }
};

}  // namespace

void register_pulse_waveform(Registry& r) { r.add(std::make_unique<PulseWaveform>()); }

}  // namespace launchlab::kernels
