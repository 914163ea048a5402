#pragma once
// pulse_waveform (TP 3.1, "Optimise memory movement" and the zero_suppress exercise): a noisy pulse train
// built by make_pulses + noise, then zero suppression, with host round trips between the steps, with the steps
// chained on the device, and as one fused kernel.
#include <type_traits>

#include "common/hd_math.h"
#include "launchlab/engine/workload.h"

namespace launchlab::kernels::pulse_waveform {

/// make_pulses: max(sin(t / period) - 0.3, 0) * amplitude (the product rounded on its own, so that adding the
/// noise afterwards rounds the same way in every variant).
template <typename T>
LAUNCHLAB_HD T makePulse(T t, T period, T amplitude) {
  const T s = hd::sin(t / period) - T(0.3);
  return hd::mulRn(s < T(0) ? T(0) : s, amplitude);
}
/// zero_suppress: values below the threshold become 0 (an int16 value is compared with the threshold as NumPy
/// compares them, in the threshold's type).
template <typename T, typename U>
LAUNCHLAB_HD T zeroSuppress(T v, U threshold) {
  return v < threshold ? T(0) : v;
}

/// The type a waveform in T is computed in: T itself, or float64 for the seed's int16 waveform (NumPy computes
/// `pulses * 300 + noise` in float64, then `astype(np.int16)` truncates toward zero).
template <typename T>
using Compute = std::conditional_t<std::is_floating_point_v<T>, T, double>;

/// One waveform sample: the pulse at time t plus the noise, in Compute<T>, then converted to T.
template <typename T>
LAUNCHLAB_HD T waveSample(Compute<T> t, Compute<T> noise, Compute<T> period, Compute<T> amplitude) {
  return static_cast<T>(makePulse(t, period, amplitude) + noise);
}

/// The run's constants in Compute<T>: period = n / cycles as the seed's `period = n / 23`.
template <typename T>
struct Constants {
  Compute<T> period, amplitude, threshold;
};
template <typename T>
Constants<T> constantsFor(const RunSetup& s) {
  using C = Compute<T>;
  return {static_cast<C>(double(s.n) / s.params.number("cycles")), static_cast<C>(s.params.number("amplitude")),
          static_cast<C>(s.params.number("threshold"))};
}

/// `--param zero_suppress=off`: the make_pulses exercise as the seed writes it, make_pulses and add_ufunc only; the
/// `suppressed` output is then the waveform itself (copied on the host, untimed).
inline bool suppressOff(const RunSetup& s) { return s.params.choice("zero_suppress") == "off"; }

void cudaHostRoundTrips(ImplContext& ctx);
void cudaDeviceResident(ImplContext& ctx);
void cudaFused(ImplContext& ctx);
void cudaZeroSuppressOnly(ImplContext& ctx);

}  // namespace launchlab::kernels::pulse_waveform
