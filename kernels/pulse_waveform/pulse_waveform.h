#pragma once
// pulse_waveform (TP 3.1, "Optimise memory movement" and the zero_suppress exercise): a noisy pulse train
// built by make_pulses + noise, then zero suppression, with host round trips between the steps, with the steps
// chained on the device, and as one fused kernel.
#include "common/hd_math.h"
#include "launchlab/workload.h"

namespace launchlab::kernels::pulse_waveform {

/// make_pulses: max(sin(t / period) - 0.3, 0) * amplitude (the product rounded on its own, so that adding the
/// noise afterwards rounds the same way in every variant).
template <typename T> LAUNCHLAB_HD T makePulse(T t, T period, T amplitude) {
  const T s = hd::sin(t / period) - T(0.3);
  return hd::mulRn(s < T(0) ? T(0) : s, amplitude);
}
/// zero_suppress: values below the threshold become 0.
template <typename T> LAUNCHLAB_HD T zeroSuppress(T v, T threshold) { return v < threshold ? T(0) : v; }

/// The run's constants in T: period = n / cycles as the seed's `period = n / 23`.
template <typename T> struct Constants {
  T period, amplitude, threshold;
};
template <typename T> Constants<T> constantsFor(const RunSetup& s) {
  return {static_cast<T>(double(s.n) / s.params.number("cycles")), static_cast<T>(s.params.number("amplitude")),
          static_cast<T>(s.params.number("threshold"))};
}

void cudaHostRoundTrips(ImplContext& ctx);
void cudaDeviceResident(ImplContext& ctx);
void cudaFused(ImplContext& ctx);

}  // namespace launchlab::kernels::pulse_waveform
