// nn_hidden_layer: normalize -> weigh -> activate with round trips, on device arrays, fused, and fused with
// pinned memory and copy/compute overlap.
#include <algorithm>
#include <chrono>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "common/gpu_pipeline.cuh"
#include "common/index_math.h"
#include "common/phase_timeline.cuh"
#include "launchlab/engine/overlapped_pipeline.h"
#include "nn_hidden_layer/nn_hidden_layer.h"

namespace launchlab::kernels::nn_hidden_layer {

namespace {

// The three ufuncs, each a grid-stride kernel (one element per thread when the grid covers n).
template <typename T>
__global__ void normalizeKernel(const T* __restrict__ g, T* __restrict__ out, std::size_t n) {
  const std::size_t stride = idx::gridStride1D(gridDim.x, blockDim.x);
  for (std::size_t i = idx::global1D(blockIdx.x, blockDim.x, threadIdx.x); i < n; i += stride) out[i] = normalize(g[i]);
}

template <typename T>
__global__ void weighKernel(const T* __restrict__ v, const T* __restrict__ w, T* __restrict__ out, std::size_t n) {
  const std::size_t stride = idx::gridStride1D(gridDim.x, blockDim.x);
  for (std::size_t i = idx::global1D(blockIdx.x, blockDim.x, threadIdx.x); i < n; i += stride)
    out[i] = weigh(v[i], w[i]);
}

template <typename T>
__global__ void activateKernel(const T* __restrict__ v, T* __restrict__ out, std::size_t n) {
  const std::size_t stride = idx::gridStride1D(gridDim.x, blockDim.x);
  for (std::size_t i = idx::global1D(blockIdx.x, blockDim.x, threadIdx.x); i < n; i += stride) out[i] = activate(v[i]);
}

template <typename T>
__global__ void fusedKernel(const T* __restrict__ g, const T* __restrict__ w, T* __restrict__ out, std::size_t n) {
  const std::size_t stride = idx::gridStride1D(gridDim.x, blockDim.x);
  for (std::size_t i = idx::global1D(blockIdx.x, blockDim.x, threadIdx.x); i < n; i += stride)
    out[i] = neuron(g[i], w[i]);
}

template <typename Body>
void dispatch(ImplContext& ctx, Body body) {
  visitDTypeAmong<float, double>(ctx.setup.dtype, [&](auto t) { body(decltype(t){}); });
}

void recordTraffic(ImplContext& ctx, std::size_t elemBytes, double kernelElements, double pcieElements, int kernels) {
  const double n = double(ctx.setup.n);
  ctx.bytesMoved = kernelElements * n * double(elemBytes);
  ctx.metrics["pcie_bytes"] = pcieElements * n * double(elemBytes);
  ctx.metrics["kernel_launches_per_rep"] = kernels;
}

double msSince(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace

void cudaHostRoundTrips(ImplContext& ctx) {
  dispatch(ctx, [&](auto tag) {
    using T = decltype(tag);
    const std::size_t n = ctx.setup.n, bytes = n * sizeof(T);
    const auto cfg = gpu::resolveLaunch1D(ctx, weighKernel<T>, n, gpu::GridPolicy::CoverN);
    const dim3 grid = gpu::toDim3(cfg.grid), block = gpu::toDim3(cfg.block);
    gpu::DeviceBuffer dG(bytes), dW(bytes), dNorm(bytes), dWeighted(bytes), dOut(bytes);
    std::vector<T> hostNorm(n), hostWeighted(n);  // pageable, like the NumPy arrays each ufunc returns
    const std::vector<gpu::RoundTripStep> steps = {
        {{{dG.get(), ctx.inputs[0].data()}},
         [&](cudaStream_t s) { normalizeKernel<T><<<grid, block, 0, s>>>(dG.as<T>(), dNorm.as<T>(), n); },
         hostNorm.data(),
         dNorm.get()},
        {{{dNorm.get(), hostNorm.data()}, {dW.get(), ctx.inputs[1].data()}},
         [&](cudaStream_t s) {
           weighKernel<T><<<grid, block, 0, s>>>(dNorm.as<T>(), dW.as<T>(), dWeighted.as<T>(), n);
         },
         hostWeighted.data(),
         dWeighted.get()},
        {{{dWeighted.get(), hostWeighted.data()}},
         [&](cudaStream_t s) { activateKernel<T><<<grid, block, 0, s>>>(dWeighted.as<T>(), dOut.as<T>(), n); },
         ctx.outputs[0].data(),
         dOut.get()},
    };
    gpu::runRoundTrips(ctx, steps, {dNorm.get(), dWeighted.get(), dOut.get()}, bytes);
    ctx.launchNote +=
        "; the same configuration for each of the 3 kernels; H2D and D2H add up the 4 uploads and 3 "
        "downloads of each repetition";
    recordTraffic(ctx, sizeof(T), 7, 7, 3);
  });
}

void cudaDeviceResident(ImplContext& ctx) {
  dispatch(ctx, [&](auto tag) {
    using T = decltype(tag);
    const std::size_t n = ctx.setup.n;
    const auto cfg = gpu::resolveLaunch1D(ctx, weighKernel<T>, n, gpu::GridPolicy::CoverN);
    const dim3 grid = gpu::toDim3(cfg.grid), block = gpu::toDim3(cfg.block);
    // cuda.device_array for the two intermediate results, allocated once.
    gpu::DeviceBuffer dNorm(n * sizeof(T)), dWeighted(n * sizeof(T));
    gpu::runPipeline(ctx, [&](gpu::DeviceArrays& d, cudaStream_t s) {
      normalizeKernel<T><<<grid, block, 0, s>>>(d.input<T>(0), dNorm.as<T>(), n);
      weighKernel<T><<<grid, block, 0, s>>>(dNorm.as<T>(), d.input<T>(1), dWeighted.as<T>(), n);
      activateKernel<T><<<grid, block, 0, s>>>(dWeighted.as<T>(), d.output<T>(0), n);
    });
    ctx.launchNote += "; the same configuration for each of the 3 kernels";
    recordTraffic(ctx, sizeof(T), 7, 3, 3);
  });
}

void cudaFused(ImplContext& ctx) {
  dispatch(ctx, [&](auto tag) {
    using T = decltype(tag);
    const std::size_t n = ctx.setup.n;
    const auto cfg = gpu::resolveLaunch1D(ctx, fusedKernel<T>, n, gpu::GridPolicy::CoverN);
    gpu::runPipeline(ctx, [&](gpu::DeviceArrays& d, cudaStream_t s) {
      fusedKernel<T>
          <<<gpu::toDim3(cfg.grid), gpu::toDim3(cfg.block), 0, s>>>(d.input<T>(0), d.input<T>(1), d.output<T>(0), n);
    });
    recordTraffic(ctx, sizeof(T), 3, 3, 1);
  });
}

void cudaFusedPinnedOverlap(ImplContext& ctx) {
  dispatch(ctx, [&](auto tag) {
    using T = decltype(tag);
    const std::size_t n = ctx.setup.n, bytes = n * sizeof(T);
    const std::size_t streamCount = std::size_t(ctx.setup.params.integer("streams"));
    const std::size_t chunk = ceilDiv(n, std::uint64_t(ctx.setup.params.integer("chunks")));
    const std::size_t chunkCount = ceilDiv(n, chunk);
    const auto cfg = gpu::resolveLaunch1D(ctx, fusedKernel<T>, chunk, gpu::GridPolicy::CoverN);
    const dim3 grid = gpu::toDim3(cfg.grid), block = gpu::toDim3(cfg.block);

    // The arrays live in page-locked memory, as an application would allocate them (cuda.pinned_array); staging
    // the pageable inputs into it and the result out of it is not part of the timed pipeline (see the metrics).
    ctx.poisonHostOutputs();  // its own copies (chunks through pinned memory), not copyOutputs
    gpu::PinnedBuffer hG(bytes), hW(bytes), hOut(bytes);
    auto t0 = std::chrono::steady_clock::now();
    std::memcpy(hG.get(), ctx.inputs[0].data(), bytes);
    std::memcpy(hW.get(), ctx.inputs[1].data(), bytes);
    const double stageInMs = msSince(t0);
    gpu::DeviceBuffer dG(bytes), dW(bytes), dOut(bytes);

    std::vector<std::unique_ptr<gpu::Stream>> streams;
    std::vector<std::unique_ptr<gpu::Event>> done;
    for (std::size_t k = 0; k < streamCount; ++k) {
      streams.push_back(std::make_unique<gpu::Stream>());
      done.push_back(std::make_unique<gpu::Event>());
    }
    const cudaStream_t s0 = streams[0]->get();
    gpu::Event start, stop;
    for (int r = -ctx.warmup; r < ctx.reps; ++r) {
      ctx.checkpoint(r);
      gpu::poison(dOut.get(), bytes, s0);
      start.record(s0);
      for (std::size_t k = 1; k < streamCount; ++k)
        LAUNCHLAB_CUDA_CHECK(cudaStreamWaitEvent(streams[k]->get(), start.get(), 0));
      for (std::size_t c = 0; c < chunkCount; ++c) {
        const cudaStream_t s = streams[c % streamCount]->get();
        const std::size_t off = c * chunk, len = std::min(chunk, n - off), b = len * sizeof(T);
        gpu::copyToDevice(dG.as<T>() + off, hG.as<T>() + off, b, s);
        gpu::copyToDevice(dW.as<T>() + off, hW.as<T>() + off, b, s);
        fusedKernel<T><<<grid, block, 0, s>>>(dG.as<T>() + off, dW.as<T>() + off, dOut.as<T>() + off, len);
        LAUNCHLAB_CUDA_CHECK_LAUNCH();
        gpu::copyToHost(hOut.as<T>() + off, dOut.as<T>() + off, b, s);
      }
      // The pipeline ends when every stream has drained.
      for (std::size_t k = 1; k < streamCount; ++k) {
        done[k]->record(streams[k]->get());
        LAUNCHLAB_CUDA_CHECK(cudaStreamWaitEvent(s0, done[k]->get(), 0));
      }
      stop.record(s0);
      streams[0]->sync();
      if (r >= 0) ctx.samples[Phase::Kernel].push_back(stop.elapsedSince(start));
    }
    t0 = std::chrono::steady_clock::now();
    std::memcpy(ctx.outputs[0].data(), hOut.get(), bytes);
    const double stageOutMs = msSince(t0);

    ctx.launchNote += "; per chunk of " + std::to_string(chunk) + " elements: " + std::to_string(chunkCount) +
                      " chunks over " + std::to_string(streamCount) +
                      " streams. The kernel phase is the whole overlapped pipeline (H2D + kernels + D2H from pinned "
                      "memory), since the copies and kernels run at the same time";
    recordTraffic(ctx, sizeof(T), 3, 3, int(chunkCount));
    ctx.metrics["streams"] = double(streamCount);
    ctx.metrics["chunks"] = double(chunkCount);
    ctx.metrics[kOverlappedPipelineMetric] = 1;
    ctx.metrics["staging_in_ms_untimed"] = stageInMs;
    ctx.metrics["staging_out_ms_untimed"] = stageOutMs;
  });
}

}  // namespace launchlab::kernels::nn_hidden_layer
