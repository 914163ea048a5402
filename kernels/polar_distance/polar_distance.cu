// polar_distance: the CUDA ufunc with its device helper, inlined, as a real call, and with fast math.
#include "common/gpu_pipeline.cuh"
#include "common/index_math.h"
#include "polar_distance/polar_distance.h"

namespace launchlab::kernels::polar_distance {

namespace {

// How each kernel turns (rho, theta) into (x, y): three policies around the same device helper.
struct Inlined {
  template <typename T>
  __device__ static Cartesian<T> convert(T rho, T theta) {
    return polarToCartesian(rho, theta);
  }
};

// A real call: the helper's body is compiled once and called (arguments and results through the ABI).
template <typename T>
__device__ __noinline__ Cartesian<T> polarToCartesianCall(T rho, T theta) {
  return polarToCartesian(rho, theta);
}
struct NotInlined {
  template <typename T>
  __device__ static Cartesian<T> convert(T rho, T theta) {
    return polarToCartesianCall(rho, theta);
  }
};

__device__ __forceinline__ void fastSinCos(float x, float* s, float* c) { __sincosf(x, s, c); }
__device__ __forceinline__ void fastSinCos(double x, double* s, double* c) { sincos(x, s, c); }
struct FastMath {
  template <typename T>
  __device__ static Cartesian<T> convert(T rho, T theta) {
    T s, c;
    fastSinCos(theta, &s, &c);
    return {rho * c, rho * s};
  }
};

// One element per thread when the grid covers N (the ufunc); a grid-stride loop makes any grid correct.
template <typename Policy, typename T>
__global__ void polarDistanceKernel(const T* __restrict__ rho1, const T* __restrict__ theta1,
                                    const T* __restrict__ rho2, const T* __restrict__ theta2, T* __restrict__ out,
                                    std::size_t n) {
  const std::size_t stride = idx::gridStride1D(gridDim.x, blockDim.x);
  for (std::size_t i = idx::global1D(blockIdx.x, blockDim.x, threadIdx.x); i < n; i += stride)
    out[i] = distance(Policy::convert(rho1[i], theta1[i]), Policy::convert(rho2[i], theta2[i]));
}

template <typename Policy>
void run(ImplContext& ctx) {
  visitDTypeAmong<float, double>(ctx.setup.dtype, [&](auto t) {
    using T = decltype(t);
    const std::size_t n = ctx.setup.n;
    auto kernel = polarDistanceKernel<Policy, T>;
    const auto cfg = gpu::resolveLaunch1D(ctx, kernel, n, gpu::GridPolicy::CoverN);
    gpu::runPipeline(ctx, [&](gpu::DeviceArrays& d, cudaStream_t s) {
      kernel<<<gpu::toDim3(cfg.grid), gpu::toDim3(cfg.block), 0, s>>>(d.input<T>(0), d.input<T>(1), d.input<T>(2),
                                                                      d.input<T>(3), d.output<T>(0), n);
    });
    cudaFuncAttributes attr{};
    LAUNCHLAB_CUDA_CHECK(cudaFuncGetAttributes(&attr, kernel));
    ctx.metrics["registers_per_thread"] = attr.numRegs;
    ctx.metrics["local_bytes_per_thread"] = double(attr.localSizeBytes);
  });
}

}  // namespace

void cudaDeviceFunction(ImplContext& ctx) { run<Inlined>(ctx); }
void cudaNoInline(ImplContext& ctx) { run<NotInlined>(ctx); }
void cudaFastMath(ImplContext& ctx) { run<FastMath>(ctx); }

}  // namespace launchlab::kernels::polar_distance
