// vector_add: CUDA variants (TP 3.2 add_kernel).
#include <chrono>
#include <cstdint>

#include "common/block_trace.cuh"
#include "common/gpu_pipeline.cuh"
#include "common/index_math.h"
#include "common/probe_launch.cuh"
#include "common/vec_load.cuh"
#include "vector_add/vector_add.h"

namespace launchlab::kernels::vector_add {

namespace {

// The course's first kernel: one thread per element. The bounds check makes any grid >= N safe.
// Trace: gpu::BlockTraceOn records each block's SM and times (common/block_trace.cuh); Off is the kernel alone.
template <typename T, typename Trace = gpu::BlockTraceOff>
__global__ void addOnePerThreadKernel(const T* __restrict__ x, const T* __restrict__ y, T* __restrict__ out,
                                      std::size_t n, BlockRecord* trace = nullptr) {
  Trace::begin(trace);
  const std::size_t i = idx::global1D(blockIdx.x, blockDim.x, threadIdx.x);
  if (i < n) out[i] = x[i] + y[i];
  Trace::end(trace);
}

// PyCUDA's increment with drv.InOut: the data array is modified in place (data[i] += y[i], y = ones: + 1).
template <typename T>
__global__ void addInPlaceKernel(T* __restrict__ data, const T* __restrict__ y, std::size_t n) {
  const std::size_t i = idx::global1D(blockIdx.x, blockDim.x, threadIdx.x);
  if (i < n) data[i] += y[i];
}

// The course's grid-stride loop: each thread starts at its global index and strides by the grid size.
template <typename T, typename Trace = gpu::BlockTraceOff>
__global__ void addGridStrideKernel(const T* __restrict__ x, const T* __restrict__ y, T* __restrict__ out,
                                    std::size_t n, BlockRecord* trace = nullptr) {
  Trace::begin(trace);
  const std::size_t stride = idx::gridStride1D(gridDim.x, blockDim.x);
  for (std::size_t i = idx::global1D(blockIdx.x, blockDim.x, threadIdx.x); i < n; i += stride) out[i] = x[i] + y[i];
  Trace::end(trace);
}

constexpr int kUnroll = 4;  // 16-byte vectors in flight per thread and input

// Vectorized grid-stride: each iteration issues kUnroll independent 16-byte loads per input before any use,
// read-only loads through the non-coherent path, streaming (evict-first) stores. The scalar tail (n not a
// multiple of the vector width) is done by the first threads.
template <typename T, typename Trace = gpu::BlockTraceOff>
__global__ void addVectorizedKernel(const T* __restrict__ x, const T* __restrict__ y, T* __restrict__ out,
                                    std::size_t n, BlockRecord* trace = nullptr) {
  Trace::begin(trace);
  using V = gpu::Vec16T<T>;
  constexpr unsigned W = sizeof(V) / sizeof(T);
  const V* xv = reinterpret_cast<const V*>(x);
  const V* yv = reinterpret_cast<const V*>(y);
  V* ov = reinterpret_cast<V*>(out);
  const std::size_t stride = idx::gridStride1D(gridDim.x, blockDim.x);
  idx::vectorizedGridStride<W, kUnroll>(
      idx::global1D(blockIdx.x, blockDim.x, threadIdx.x), stride, n,
      [&](std::size_t i) {
        V a[kUnroll], b[kUnroll];
#pragma unroll
        for (int u = 0; u < kUnroll; ++u) {
          a[u] = __ldg(xv + i + u * stride);
          b[u] = __ldg(yv + i + u * stride);
        }
#pragma unroll
        for (int u = 0; u < kUnroll; ++u) __stcs(ov + i + u * stride, gpu::vadd(a[u], b[u]));
      },
      [&](std::size_t i) { __stcs(ov + i, gpu::vadd(__ldg(xv + i), __ldg(yv + i))); },
      [&](std::size_t t) { out[t] = x[t] + y[t]; });
  Trace::end(trace);
}

// Resolves the launch for `kernel` (covering `work` items under `policy`) and runs the timed pipeline; `traced`
// (the kernel's BlockTraceOn instantiation) runs instead when the request asks for a block trace.
template <typename T, typename Kernel>
void launchAdd(ImplContext& ctx, Kernel kernel, Kernel traced, std::uint64_t work, gpu::GridPolicy policy) {
  const std::size_t n = ctx.setup.n;
  const auto cfg = gpu::resolveLaunch1D(ctx, kernel, work, policy);
  const gpu::BlockTrace trace(ctx, cfg);
  const Kernel k = trace.pick(kernel, traced);
  gpu::runPipeline(ctx, [&](gpu::DeviceArrays& d, cudaStream_t s) {
    gpu::launch(ctx, k, gpu::toDim3(cfg.grid), gpu::toDim3(cfg.block), 0, s, d.input<T>(0), d.input<T>(1),
                d.output<T>(0), n, trace.records());
  });
  trace.collect(ctx);
}

// add_ufunc on device arrays: the inputs go up once before the repetitions (untimed, as the seed calls
// cuda.to_device before %timeit); each repetition runs the kernel and, unless the output stays on the device,
// copies the result back. A device-resident output is copied back once after the repetitions (copy_to_host).
template <typename T, typename Kernel>
void runDeviceResident(ImplContext& ctx, Kernel kernel, const LaunchConfig& cfg, bool outputStays) {
  const std::size_t n = ctx.setup.n;
  gpu::DeviceArrays d = gpu::allocateFor(ctx);
  gpu::Stream stream;
  const cudaStream_t s = stream.get();
  gpu::copyInputs(ctx, d, s);
  gpu::Event e0, e1, e2;
  for (int r = -ctx.warmup; r < ctx.reps; ++r) {
    ctx.checkpoint(r);
    gpu::poisonOutputs(d, s);
    e0.record(s);
    gpu::launch(ctx, kernel, gpu::toDim3(cfg.grid), gpu::toDim3(cfg.block), 0, s, d.input<T>(0), d.input<T>(1),
                d.output<T>(0), n, nullptr);
    LAUNCHLAB_CUDA_CHECK_LAUNCH();
    e1.record(s);
    if (!outputStays) gpu::copyOutputs(ctx, d, s);
    e2.record(s);
    stream.sync();
    if (r < 0) continue;
    ctx.samples[Phase::Kernel].push_back(e1.elapsedSince(e0));
    if (!outputStays) ctx.samples[Phase::D2H].push_back(e2.elapsedSince(e1));
  }
  if (outputStays) {
    gpu::copyOutputs(ctx, d, s);
    stream.sync();
  }
  ctx.launchNote += outputStays ? "; x, y copied up once and out copied back once, outside the timing"
                                : "; x, y copied up once, outside the timing; out copied back every call";
}

// The seed's add_kernel[...](d_x, d_y, d_out) then d_out.copy_to_host(), with or without cuda.synchronize() in
// between, timed with the host clock on the default stream: "kernel" is from the launch to the return of the
// synchronize (or of the launch alone), "D2H" the blocking cudaMemcpy, which waits for the kernel by itself.
template <typename T, typename Kernel>
void runHostTimed(ImplContext& ctx, Kernel kernel, const LaunchConfig& cfg, bool explicitSync) {
  using Clock = std::chrono::steady_clock;
  const std::size_t n = ctx.setup.n;
  ctx.poisonHostOutputs();  // its own blocking copy back (not copyOutputs)
  gpu::DeviceArrays d = gpu::allocateFor(ctx);
  gpu::copyInputs(ctx, d, 0);
  auto ms = [](Clock::time_point a, Clock::time_point b) {
    return std::chrono::duration<double, std::milli>(b - a).count();
  };
  for (int r = -ctx.warmup; r < ctx.reps; ++r) {
    ctx.checkpoint(r);
    gpu::poisonOutputs(d, 0);
    LAUNCHLAB_CUDA_CHECK(cudaDeviceSynchronize());
    const auto t0 = Clock::now();
    gpu::launch(ctx, kernel, gpu::toDim3(cfg.grid), gpu::toDim3(cfg.block), 0, 0, d.input<T>(0), d.input<T>(1),
                d.output<T>(0), n, nullptr);
    LAUNCHLAB_CUDA_CHECK_LAUNCH();
    if (explicitSync) LAUNCHLAB_CUDA_CHECK(cudaDeviceSynchronize());
    const auto t1 = Clock::now();
    LAUNCHLAB_CUDA_CHECK(
        cudaMemcpy(ctx.outputs[0].data(), d.out[0].get(), ctx.outputs[0].bytes(), cudaMemcpyDeviceToHost));
    const auto t2 = Clock::now();
    if (r < 0) continue;
    ctx.samples[Phase::Kernel].push_back(ms(t0, t1));
    ctx.samples[Phase::D2H].push_back(ms(t1, t2));
  }
  ctx.launchNote += explicitSync
                        ? "; host-timed: launch + cudaDeviceSynchronize, then cudaMemcpy"
                        : "; host-timed: launch only (returns at once), then cudaMemcpy (waits for the kernel)";
}

// drv.InOut(data): x goes up into the buffer that is then incremented in place and comes back as the result
// (here the output buffer, so the host's x stays for verification); y goes up beside it. Timed like runPipeline.
template <typename T>
void runInPlace(ImplContext& ctx, const LaunchConfig& cfg) {
  const std::size_t n = ctx.setup.n, bytes = n * sizeof(T);
  gpu::DeviceArrays d = gpu::allocateFor(ctx);
  gpu::Stream stream;
  const cudaStream_t s = stream.get();
  gpu::Event e0, e1, e2, e3;
  for (int r = -ctx.warmup; r < ctx.reps; ++r) {
    ctx.checkpoint(r);
    e0.record(s);
    LAUNCHLAB_CUDA_CHECK(cudaMemcpyAsync(d.output<T>(0), ctx.inputs[0].data(), bytes, cudaMemcpyHostToDevice, s));
    LAUNCHLAB_CUDA_CHECK(cudaMemcpyAsync(d.in[1].get(), ctx.inputs[1].data(), bytes, cudaMemcpyHostToDevice, s));
    e1.record(s);
    gpu::launch(ctx, addInPlaceKernel<T>, gpu::toDim3(cfg.grid), gpu::toDim3(cfg.block), 0, s, d.output<T>(0),
                d.input<T>(1), n);
    LAUNCHLAB_CUDA_CHECK_LAUNCH();
    e2.record(s);
    gpu::copyOutputs(ctx, d, s);
    e3.record(s);
    stream.sync();
    if (r < 0) continue;
    ctx.samples[Phase::H2D].push_back(e1.elapsedSince(e0));
    ctx.samples[Phase::Kernel].push_back(e2.elapsedSince(e1));
    ctx.samples[Phase::D2H].push_back(e3.elapsedSince(e2));
  }
}

template <typename Body>
void dispatch(ImplContext& ctx, Body body) {
  visitDTypeAmong<float, double, std::int32_t, std::int64_t>(ctx.setup.dtype, [&](auto t) { body(decltype(t){}); });
}

}  // namespace

void cudaOnePerThread(ImplContext& ctx) {
  dispatch(ctx, [&](auto t) {
    using T = decltype(t);
    launchAdd<T>(ctx, addOnePerThreadKernel<T>, addOnePerThreadKernel<T, gpu::BlockTraceOn>, ctx.setup.n,
                 gpu::GridPolicy::CoverN);
  });
}

void cudaGridStride(ImplContext& ctx) {
  dispatch(ctx, [&](auto t) {
    using T = decltype(t);
    launchAdd<T>(ctx, addGridStrideKernel<T>, addGridStrideKernel<T, gpu::BlockTraceOn>, ctx.setup.n,
                 gpu::GridPolicy::Occupancy);
  });
}

void cudaVectorized(ImplContext& ctx) {
  dispatch(ctx, [&](auto t) {
    using T = decltype(t);
    // Auto grid: enough threads for one pass of kUnroll 16-byte vectors each.
    launchAdd<T>(ctx, addVectorizedKernel<T>, addVectorizedKernel<T, gpu::BlockTraceOn>,
                 ceilDiv(ctx.setup.n, (16 / sizeof(T)) * kUnroll), gpu::GridPolicy::CoverN);
  });
}

template <typename Run>
void withOnePerThread(ImplContext& ctx, Run run) {
  dispatch(ctx, [&](auto t) {
    using T = decltype(t);
    const auto cfg = gpu::resolveLaunch1D(ctx, addOnePerThreadKernel<T>, ctx.setup.n, gpu::GridPolicy::CoverN);
    run(T{}, addOnePerThreadKernel<T>, cfg);
  });
}

void cudaInPlace(ImplContext& ctx) {
  dispatch(ctx, [&](auto t) {
    using T = decltype(t);
    runInPlace<T>(ctx, gpu::resolveLaunch1D(ctx, addInPlaceKernel<T>, ctx.setup.n, gpu::GridPolicy::CoverN));
  });
}

void cudaDeviceInputs(ImplContext& ctx) {
  withOnePerThread(ctx, [&](auto t, auto kernel, const LaunchConfig& cfg) {
    runDeviceResident<decltype(t)>(ctx, kernel, cfg, false);
  });
}

void cudaDeviceOutput(ImplContext& ctx) {
  withOnePerThread(ctx, [&](auto t, auto kernel, const LaunchConfig& cfg) {
    runDeviceResident<decltype(t)>(ctx, kernel, cfg, true);
  });
}

void cudaExplicitSync(ImplContext& ctx) {
  withOnePerThread(
      ctx, [&](auto t, auto kernel, const LaunchConfig& cfg) { runHostTimed<decltype(t)>(ctx, kernel, cfg, true); });
}

void cudaNoSync(ImplContext& ctx) {
  withOnePerThread(
      ctx, [&](auto t, auto kernel, const LaunchConfig& cfg) { runHostTimed<decltype(t)>(ctx, kernel, cfg, false); });
}

}  // namespace launchlab::kernels::vector_add
