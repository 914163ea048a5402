// pulse_waveform: make_pulses -> add noise -> zero_suppress, with host round trips, on the device, and fused.
#include <vector>

#include "common/gpu_pipeline.cuh"
#include "common/index_math.h"
#include "common/phase_timeline.cuh"
#include "pulse_waveform/pulse_waveform.h"

namespace launchlab::kernels::pulse_waveform {

namespace {

// The three ufuncs of the exercise, each a grid-stride kernel (one element per thread when the grid covers n).
template <typename T>
__global__ void makePulsesKernel(const T* __restrict__ t, T* __restrict__ pulses, std::size_t n, T period, T amplitude) {
  const std::size_t stride = idx::gridStride1D(gridDim.x, blockDim.x);
  for (std::size_t i = idx::global1D(blockIdx.x, blockDim.x, threadIdx.x); i < n; i += stride)
    pulses[i] = makePulse(t[i], period, amplitude);
}

template <typename T>
__global__ void addKernel(const T* __restrict__ x, const T* __restrict__ y, T* __restrict__ out, std::size_t n) {
  const std::size_t stride = idx::gridStride1D(gridDim.x, blockDim.x);
  for (std::size_t i = idx::global1D(blockIdx.x, blockDim.x, threadIdx.x); i < n; i += stride) out[i] = x[i] + y[i];
}

template <typename T>
__global__ void zeroSuppressKernel(const T* __restrict__ wave, T* __restrict__ out, std::size_t n, T threshold) {
  const std::size_t stride = idx::gridStride1D(gridDim.x, blockDim.x);
  for (std::size_t i = idx::global1D(blockIdx.x, blockDim.x, threadIdx.x); i < n; i += stride)
    out[i] = zeroSuppress(wave[i], threshold);
}

template <typename T>
__global__ void fusedKernel(const T* __restrict__ t, const T* __restrict__ noise, T* __restrict__ wave,
                            T* __restrict__ suppressed, std::size_t n, T period, T amplitude, T threshold) {
  const std::size_t stride = idx::gridStride1D(gridDim.x, blockDim.x);
  for (std::size_t i = idx::global1D(blockIdx.x, blockDim.x, threadIdx.x); i < n; i += stride) {
    const T w = makePulse(t[i], period, amplitude) + noise[i];
    wave[i] = w;
    suppressed[i] = zeroSuppress(w, threshold);
  }
}

template <typename Body> void dispatch(ImplContext& ctx, Body body) {
  visitDTypeAmong<float, double>(ctx.setup.dtype, [&](auto t) { body(decltype(t){}); });
}

void recordTraffic(ImplContext& ctx, std::size_t elemBytes, double kernelElements, double pcieElements, int kernels,
                   int roundTrips) {
  const double n = double(ctx.setup.n);
  ctx.bytesMoved = kernelElements * n * double(elemBytes);
  ctx.metrics["pcie_bytes"] = pcieElements * n * double(elemBytes);
  ctx.metrics["kernel_launches_per_rep"] = kernels;
  ctx.metrics["host_round_trips"] = roundTrips;
}

}  // namespace

void cudaHostRoundTrips(ImplContext& ctx) {
  dispatch(ctx, [&](auto tag) {
    using T = decltype(tag);
    const std::size_t n = ctx.setup.n, bytes = n * sizeof(T);
    const auto k = constantsFor<T>(ctx.setup);
    const auto cfg = gpu::resolveLaunch1D(ctx, makePulsesKernel<T>, n, gpu::GridPolicy::CoverN);
    const dim3 grid = gpu::toDim3(cfg.grid), block = gpu::toDim3(cfg.block);
    gpu::DeviceBuffer dT(bytes), dNoise(bytes), dPulses(bytes), dWave(bytes), dSup(bytes);
    std::vector<T> hostPulses(n);  // pageable, like the NumPy array make_pulses returns
    void* wave = ctx.outputs[0].data();
    const std::vector<gpu::RoundTripStep> steps = {
        // pulses = make_pulses(t, period, amplitude): t up, pulses back.
        {{{dT.get(), ctx.inputs[0].data()}},
         [&](cudaStream_t s) {
           makePulsesKernel<T><<<grid, block, 0, s>>>(dT.as<T>(), dPulses.as<T>(), n, k.period, k.amplitude);
         },
         hostPulses.data(), dPulses.get()},
        // waveform = add_ufunc(pulses, noise): both up, waveform back.
        {{{dPulses.get(), hostPulses.data()}, {dNoise.get(), ctx.inputs[1].data()}},
         [&](cudaStream_t s) { addKernel<T><<<grid, block, 0, s>>>(dPulses.as<T>(), dNoise.as<T>(), dWave.as<T>(), n); },
         wave, dWave.get()},
        // zero_suppress(waveform, threshold): the waveform up again, the result back.
        {{{dWave.get(), wave}},
         [&](cudaStream_t s) { zeroSuppressKernel<T><<<grid, block, 0, s>>>(dWave.as<T>(), dSup.as<T>(), n, k.threshold); },
         ctx.outputs[1].data(), dSup.get()},
    };
    gpu::runRoundTrips(ctx, steps, {dPulses.get(), dWave.get(), dSup.get()}, bytes);
    ctx.launchNote += "; the same configuration for each of the 3 kernels; H2D and D2H add up the 4 uploads and 3 "
                      "downloads of each repetition";
    recordTraffic(ctx, sizeof(T), 7, 7, 3, 2);
  });
}

void cudaDeviceResident(ImplContext& ctx) {
  dispatch(ctx, [&](auto tag) {
    using T = decltype(tag);
    const std::size_t n = ctx.setup.n;
    const auto k = constantsFor<T>(ctx.setup);
    const auto cfg = gpu::resolveLaunch1D(ctx, makePulsesKernel<T>, n, gpu::GridPolicy::CoverN);
    const dim3 grid = gpu::toDim3(cfg.grid), block = gpu::toDim3(cfg.block);
    gpu::DeviceBuffer dPulses(n * sizeof(T));  // cuda.device_array for the intermediate result
    gpu::runPipeline(ctx, [&](gpu::DeviceArrays& d, cudaStream_t s) {
      makePulsesKernel<T><<<grid, block, 0, s>>>(d.input<T>(0), dPulses.as<T>(), n, k.period, k.amplitude);
      addKernel<T><<<grid, block, 0, s>>>(dPulses.as<T>(), d.input<T>(1), d.output<T>(0), n);
      zeroSuppressKernel<T><<<grid, block, 0, s>>>(d.output<T>(0), d.output<T>(1), n, k.threshold);
    });
    ctx.launchNote += "; the same configuration for each of the 3 kernels";
    recordTraffic(ctx, sizeof(T), 7, 4, 3, 0);
  });
}

void cudaFused(ImplContext& ctx) {
  dispatch(ctx, [&](auto tag) {
    using T = decltype(tag);
    const std::size_t n = ctx.setup.n;
    const auto k = constantsFor<T>(ctx.setup);
    const auto cfg = gpu::resolveLaunch1D(ctx, fusedKernel<T>, n, gpu::GridPolicy::CoverN);
    gpu::runPipeline(ctx, [&](gpu::DeviceArrays& d, cudaStream_t s) {
      fusedKernel<T><<<gpu::toDim3(cfg.grid), gpu::toDim3(cfg.block), 0, s>>>(
          d.input<T>(0), d.input<T>(1), d.output<T>(0), d.output<T>(1), n, k.period, k.amplitude, k.threshold);
    });
    recordTraffic(ctx, sizeof(T), 4, 4, 1, 0);
  });
}

}  // namespace launchlab::kernels::pulse_waveform
