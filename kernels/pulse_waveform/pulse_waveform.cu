// pulse_waveform: make_pulses -> add noise -> zero_suppress, with host round trips, on the device, and fused.
#include <cstdint>
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
    gpu::runPipeline(ctx, [&](gpu::DeviceArrays& d, cudaStream_t s) {
      makePulsesKernel<C><<<grid, block, 0, s>>>(d.input<C>(0), dPulses.as<C>(), n, k.period, k.amplitude);
      addKernel<T, C><<<grid, block, 0, s>>>(dPulses.as<C>(), d.input<C>(1), d.output<T>(0), n);
      zeroSuppressKernel<T, C><<<grid, block, 0, s>>>(d.output<T>(0), d.output<T>(1), n, k.threshold);
    });
    ctx.launchNote += "; the same configuration for each of the 3 kernels";
    recordTraffic<T>(ctx, {4, 3}, {2, 2}, 3, 0);
  });
}

void cudaFused(ImplContext& ctx) {
  dispatch(ctx, [&](auto tag) {
    using T = decltype(tag);
    const std::size_t n = ctx.setup.n;
    const auto k = constantsFor<T>(ctx.setup);
    using C = Compute<T>;
    const auto cfg = gpu::resolveLaunch1D(ctx, fusedKernel<T, C>, n, gpu::GridPolicy::CoverN);
    gpu::runPipeline(ctx, [&](gpu::DeviceArrays& d, cudaStream_t s) {
      fusedKernel<T, C><<<gpu::toDim3(cfg.grid), gpu::toDim3(cfg.block), 0, s>>>(
          d.input<C>(0), d.input<C>(1), d.output<T>(0), d.output<T>(1), n, k.period, k.amplitude, k.threshold);
    });
    recordTraffic<T>(ctx, {2, 2}, {2, 2}, 1, 0);
  });
}

}  // namespace launchlab::kernels::pulse_waveform
