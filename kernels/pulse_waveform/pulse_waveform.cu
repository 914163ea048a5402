// pulse_waveform: make_pulses -> add noise -> zero_suppress, with host round trips, on the device, and fused.
#include <algorithm>
#include <cstdint>
#include <limits>
#include <vector>

#include "common/gpu_pipeline.cuh"
#include "common/index_math.h"
#include "common/phase_timeline.cuh"
#include "pulse_waveform/pulse_waveform.h"

namespace launchlab::kernels::pulse_waveform {

namespace {

// The three ufuncs of the exercise, each a grid-stride kernel (one element per thread when the grid covers n).
// T is the waveform's type, C = Compute<T> the type it is computed in (the pulses stay in C).
template <typename C>
__global__ void makePulsesKernel(const C* __restrict__ t, C* __restrict__ pulses, std::size_t n, C period,
                                 C amplitude) {
  const std::size_t stride = idx::gridStride1D(gridDim.x, blockDim.x);
  for (std::size_t i = idx::global1D(blockIdx.x, blockDim.x, threadIdx.x); i < n; i += stride)
    pulses[i] = makePulse(t[i], period, amplitude);
}

template <typename T, typename C>
__global__ void addKernel(const C* __restrict__ x, const C* __restrict__ y, T* __restrict__ out, std::size_t n) {
  const std::size_t stride = idx::gridStride1D(gridDim.x, blockDim.x);
  for (std::size_t i = idx::global1D(blockIdx.x, blockDim.x, threadIdx.x); i < n; i += stride)
    out[i] = static_cast<T>(x[i] + y[i]);
}

template <typename T, typename C>
__global__ void zeroSuppressKernel(const T* __restrict__ wave, T* __restrict__ out, std::size_t n, C threshold) {
  const std::size_t stride = idx::gridStride1D(gridDim.x, blockDim.x);
  for (std::size_t i = idx::global1D(blockIdx.x, blockDim.x, threadIdx.x); i < n; i += stride)
    out[i] = zeroSuppress(wave[i], threshold);
}

template <typename T, typename C>
__global__ void fusedKernel(const C* __restrict__ t, const C* __restrict__ noise, T* __restrict__ wave,
                            T* __restrict__ suppressed, std::size_t n, C period, C amplitude, C threshold) {
  const std::size_t stride = idx::gridStride1D(gridDim.x, blockDim.x);
  for (std::size_t i = idx::global1D(blockIdx.x, blockDim.x, threadIdx.x); i < n; i += stride) {
    const T w = waveSample<T>(t[i], noise[i], period, amplitude);
    wave[i] = w;
    suppressed[i] = zeroSuppress(w, threshold);
  }
}

template <typename Body>
void dispatch(ImplContext& ctx, Body body) {
  visitDTypeAmong<std::int16_t, float, double>(ctx.setup.dtype, [&](auto t) { body(decltype(t){}); });
}

/// Elements of C (the times, noise and pulses) and of T (waveform and result) a variant moves.
struct Elements {
  double c, t;
};

template <typename T>
void recordTraffic(ImplContext& ctx, Elements kernel, Elements pcie, int kernels, int roundTrips) {
  const double n = double(ctx.setup.n), cb = double(sizeof(Compute<T>)), tb = double(sizeof(T));
  ctx.bytesMoved = (kernel.c * cb + kernel.t * tb) * n;
  ctx.metrics["pcie_bytes"] = (pcie.c * cb + pcie.t * tb) * n;
  ctx.metrics["kernel_launches_per_rep"] = kernels;
  ctx.metrics["host_round_trips"] = roundTrips;
}

/// With the zero_suppress step off, `suppressed` is the waveform itself: copied on the host, untimed.
template <typename T>
void copyWaveformAsSuppressed(ImplContext& ctx) {
  auto wave = ctx.outputs[0].view<T>();
  std::copy(wave.begin(), wave.end(), ctx.outputs[1].view<T>().begin());
}

}  // namespace

void cudaHostRoundTrips(ImplContext& ctx) {
  dispatch(ctx, [&](auto tag) {
    using T = decltype(tag);
    using C = Compute<T>;
    const std::size_t n = ctx.setup.n, bytes = n * sizeof(C), tBytes = n * sizeof(T);
    const auto k = constantsFor<T>(ctx.setup);
    const auto cfg = gpu::resolveLaunch1D(ctx, makePulsesKernel<C>, n, gpu::GridPolicy::CoverN);
    const dim3 grid = gpu::toDim3(cfg.grid), block = gpu::toDim3(cfg.block);
    // Every buffer has C's size, so poisoning `bytes` is in bounds; the waveform copies move T's bytes.
    gpu::DeviceBuffer dT(bytes), dNoise(bytes), dPulses(bytes), dWave(bytes), dSup(bytes);
    std::vector<C> hostPulses(n);  // pageable, like the NumPy array make_pulses returns
    void* wave = ctx.outputs[0].data();
    const std::vector<gpu::RoundTripStep> steps = {
        // pulses = make_pulses(t, period, amplitude): t up, pulses back.
        {{{dT.get(), ctx.inputs[0].data()}},
         [&](cudaStream_t s) {
           makePulsesKernel<C><<<grid, block, 0, s>>>(dT.as<C>(), dPulses.as<C>(), n, k.period, k.amplitude);
         },
         hostPulses.data(),
         dPulses.get()},
        // waveform = add_ufunc(pulses, noise): both up, waveform back.
        {{{dPulses.get(), hostPulses.data()}, {dNoise.get(), ctx.inputs[1].data()}},
         [&](cudaStream_t s) {
           addKernel<T, C><<<grid, block, 0, s>>>(dPulses.as<C>(), dNoise.as<C>(), dWave.as<T>(), n);
         },
         wave,
         dWave.get(),
         tBytes},
        // zero_suppress(waveform, threshold): the waveform up again, the result back.
        {{{dWave.get(), wave, tBytes}},
         [&](cudaStream_t s) {
           zeroSuppressKernel<T, C><<<grid, block, 0, s>>>(dWave.as<T>(), dSup.as<T>(), n, k.threshold);
         },
         ctx.outputs[1].data(),
         dSup.get(),
         tBytes},
    };
    if (suppressOff(ctx.setup)) {
      const std::vector<gpu::RoundTripStep> seeds(steps.begin(), steps.begin() + 2);
      gpu::runRoundTrips(ctx, seeds, {dPulses.get(), dWave.get()}, bytes);
      copyWaveformAsSuppressed<T>(ctx);
      ctx.launchNote +=
          "; the same configuration for each of the 2 kernels; H2D and D2H add up the 3 uploads and 2 downloads of "
          "each repetition";
      recordTraffic<T>(ctx, {4, 1}, {4, 1}, 2, 1);
      return;
    }
    gpu::runRoundTrips(ctx, steps, {dPulses.get(), dWave.get(), dSup.get()}, bytes);
    ctx.launchNote +=
        "; the same configuration for each of the 3 kernels; H2D and D2H add up the 4 uploads and 3 "
        "downloads of each repetition";
    recordTraffic<T>(ctx, {4, 3}, {4, 3}, 3, 2);
  });
}

void cudaDeviceResident(ImplContext& ctx) {
  dispatch(ctx, [&](auto tag) {
    using T = decltype(tag);
    using C = Compute<T>;
    const std::size_t n = ctx.setup.n;
    const auto k = constantsFor<T>(ctx.setup);
    const auto cfg = gpu::resolveLaunch1D(ctx, makePulsesKernel<C>, n, gpu::GridPolicy::CoverN);
    const dim3 grid = gpu::toDim3(cfg.grid), block = gpu::toDim3(cfg.block);
    gpu::DeviceBuffer dPulses(n * sizeof(C));  // cuda.device_array for the intermediate result
    if (suppressOff(ctx.setup)) {  // the seed's solution: t and noise up once, two kernels, the waveform back once
      gpu::DeviceBuffer dT(n * sizeof(C)), dNoise(n * sizeof(C)), dWave(n * sizeof(T));
      const std::vector<gpu::RoundTripStep> steps = {
          {{{dT.get(), ctx.inputs[0].data()}, {dNoise.get(), ctx.inputs[1].data()}},
           [&](cudaStream_t s) {
             makePulsesKernel<C><<<grid, block, 0, s>>>(dT.as<C>(), dPulses.as<C>(), n, k.period, k.amplitude);
             addKernel<T, C><<<grid, block, 0, s>>>(dPulses.as<C>(), dNoise.as<C>(), dWave.as<T>(), n);
           },
           ctx.outputs[0].data(),
           dWave.get(),
           n * sizeof(T)}};
      gpu::runRoundTrips(ctx, steps, {dWave.get()}, n * sizeof(C));
      copyWaveformAsSuppressed<T>(ctx);
      ctx.launchNote += "; the same configuration for each of the 2 kernels";
      recordTraffic<T>(ctx, {4, 1}, {2, 1}, 2, 0);
      return;
    }
    gpu::runPipeline(ctx, [&](gpu::DeviceArrays& d, cudaStream_t s) {
      makePulsesKernel<C><<<grid, block, 0, s>>>(d.input<C>(0), dPulses.as<C>(), n, k.period, k.amplitude);
      addKernel<T, C><<<grid, block, 0, s>>>(dPulses.as<C>(), d.input<C>(1), d.output<T>(0), n);
      zeroSuppressKernel<T, C><<<grid, block, 0, s>>>(d.output<T>(0), d.output<T>(1), n, k.threshold);
    });
    ctx.launchNote += "; the same configuration for each of the 3 kernels";
    recordTraffic<T>(ctx, {4, 3}, {2, 2}, 3, 0);
  });
}

void cudaZeroSuppressOnly(ImplContext& ctx) {
  dispatch(ctx, [&](auto tag) {
    using T = decltype(tag);
    using C = Compute<T>;
    if (suppressOff(ctx.setup)) throw Unavailable("--param zero_suppress=off leaves this variant nothing to run");
    const std::size_t n = ctx.setup.n, tBytes = n * sizeof(T);
    const auto k = constantsFor<T>(ctx.setup);
    // The seed makes the waveform on the host (NumPy, then astype(int16)), untimed; only zero_suppress is a GPU call.
    std::vector<T> wave(n);
    const C* t = ctx.inputs[0].view<C>().data();
    const C* noise = ctx.inputs[1].view<C>().data();
    for (std::size_t i = 0; i < n; ++i) wave[i] = waveSample<T>(t[i], noise[i], k.period, k.amplitude);
    const auto cfg = gpu::resolveLaunch1D(ctx, zeroSuppressKernel<T, C>, n, gpu::GridPolicy::CoverN);
    gpu::DeviceBuffer dWave(tBytes), dSup(tBytes);
    const std::vector<gpu::RoundTripStep> steps = {{{{dWave.get(), wave.data()}},
                                                    [&](cudaStream_t s) {
                                                      zeroSuppressKernel<T, C>
                                                          <<<gpu::toDim3(cfg.grid), gpu::toDim3(cfg.block), 0, s>>>(
                                                              dWave.as<T>(), dSup.as<T>(), n, k.threshold);
                                                    },
                                                    ctx.outputs[1].data(),
                                                    dSup.get()}};
    gpu::runRoundTrips(ctx, steps, {dSup.get()}, tBytes);
    std::copy(wave.begin(), wave.end(), ctx.outputs[0].view<T>().begin());  // the host's waveform, as the seed keeps it
    ctx.launchNote += "; the waveform is made on the host (untimed), only zero_suppress runs on the GPU";
    recordTraffic<T>(ctx, {0, 2}, {0, 2}, 1, 0);
  });
}

void cudaFused(ImplContext& ctx) {
  dispatch(ctx, [&](auto tag) {
    using T = decltype(tag);
    const std::size_t n = ctx.setup.n;
    const auto k = constantsFor<T>(ctx.setup);
    using C = Compute<T>;
    const auto cfg = gpu::resolveLaunch1D(ctx, fusedKernel<T, C>, n, gpu::GridPolicy::CoverN);
    // With the zero_suppress step off nothing is below the threshold: the second output is the waveform.
    const C threshold = suppressOff(ctx.setup) ? -std::numeric_limits<C>::infinity() : k.threshold;
    if (suppressOff(ctx.setup)) ctx.launchNote += "; zero_suppress off: the second output is the waveform";
    gpu::runPipeline(ctx, [&](gpu::DeviceArrays& d, cudaStream_t s) {
      fusedKernel<T, C><<<gpu::toDim3(cfg.grid), gpu::toDim3(cfg.block), 0, s>>>(
          d.input<C>(0), d.input<C>(1), d.output<T>(0), d.output<T>(1), n, k.period, k.amplitude, threshold);
    });
    recordTraffic<T>(ctx, {2, 2}, {2, 2}, 1, 0);
  });
}

}  // namespace launchlab::kernels::pulse_waveform
