// gaussian_pdf: the CUDA ufunc.
#include "common/gpu_pipeline.cuh"
#include "gaussian_pdf/gaussian_pdf.h"

namespace launchlab::kernels::gaussian_pdf {

namespace {
template <typename T>
__global__ void pdfKernel(const T* __restrict__ x, T* __restrict__ out, std::size_t n, T mean, T sigma) {
  const std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) out[i] = pdf(x[i], mean, sigma);
}
}  // namespace

void cuda(ImplContext& ctx) {
  visitDTypeAmong<float, double>(ctx.setup.dtype, [&](auto t) {
    using T = decltype(t);
    const std::size_t n = ctx.setup.n;
    const T mean = T(ctx.setup.params.number("mean"));
    const T sigma = T(ctx.setup.params.number("sigma"));
    const auto cfg = gpu::resolveLaunch1D(ctx, pdfKernel<T>, n, gpu::GridPolicy::CoverN);
    gpu::runPipeline(ctx, [&](gpu::DeviceArrays& d, cudaStream_t s) {
      pdfKernel<T>
          <<<gpu::toDim3(cfg.grid), gpu::toDim3(cfg.block), 0, s>>>(d.input<T>(0), d.output<T>(0), n, mean, sigma);
    });
  });
}

}  // namespace launchlab::kernels::gaussian_pdf
