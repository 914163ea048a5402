// mandelbrot: a thread per pixel over a 2-D grid (grid-stride in both axes), the same work with pixels scattered
// over the warps, and a per-pixel variant that lets the compiler fuse multiply-adds (FMA: one rounding, so its orbits
// differ from the CPU's in the last bits). All write the verdict and the rounds each pixel took; the rounds, summed
// on the host, give the metric grounds_per_s (10^9 rounds of Floyd's test per second of kernel time).
#include "common/gpu_pipeline.cuh"
#include "common/matrix_shape.h"
#include "mandelbrot/mandelbrot.h"

namespace launchlab::kernels::mandelbrot {

namespace {

struct Region {
  double xMin, yMin, step;
  std::int32_t capRounds;
  bool escapeCount;
};

/// z <- z^2 + c written for FMA: x^2 - y^2 + c_x as fma(x, x, fma(-y, y, c_x)), 2xy + c_y as fma(x + x, y, c_y);
/// |z|^2 as fma(x, x, y * y). The same 27 operations a round as ExactRounding, in fewer instructions.
struct FmaRounding {
  template <typename R>
  static __device__ __forceinline__ void step(R& x, R& y, R cx, R cy) {
    const R nx = fma(x, x, fma(-y, y, cx));
    y = fma(x + x, y, cy);
    x = nx;
  }
  template <typename R>
  static __device__ __forceinline__ bool escaped(R x, R y) {
    return fma(x, x, y * y) > R(4);
  }
};

template <typename R, bool Fma>
__device__ __forceinline__ void pixelAt(const Region& g, std::uint64_t x, std::uint64_t y, std::uint64_t cols,
                                        std::int32_t* iters, std::int32_t* rounds) {
  const R cx = coordinate<R>(g.xMin, x, g.step), cy = coordinate<R>(g.yMin, y, g.step);
  const Pixel p = Fma ? classify<R, FmaRounding>(cx, cy, g.capRounds) : classify<R>(cx, cy, g.capRounds);
  iters[y * cols + x] = shown(p, g.escapeCount);
  rounds[y * cols + x] = p.rounds;
}

template <typename R, bool Fma>
__global__ void perPixelKernel(Region g, std::int32_t* iters, std::int32_t* rounds, std::uint64_t rows,
                               std::uint64_t cols) {
  idx::gridStride2D(idx::global1D(blockIdx.x, blockDim.x, threadIdx.x),
                    idx::global1D(blockIdx.y, blockDim.y, threadIdx.y), idx::gridStride1D(gridDim.x, blockDim.x),
                    idx::gridStride1D(gridDim.y, blockDim.y), cols, rows,
                    [&](std::uint64_t x, std::uint64_t y) { pixelAt<R, Fma>(g, x, y, cols, iters, rounds); });
}

/// Thread (x, y) of the same walk takes pixel (y * cols + x) * m mod (rows * cols) instead.
template <typename R>
__global__ void scatteredKernel(Region g, std::int32_t* iters, std::int32_t* rounds, std::uint64_t rows,
                                std::uint64_t cols, std::uint64_t m) {
  const std::uint64_t pixels = rows * cols;
  idx::gridStride2D(idx::global1D(blockIdx.x, blockDim.x, threadIdx.x),
                    idx::global1D(blockIdx.y, blockDim.y, threadIdx.y), idx::gridStride1D(gridDim.x, blockDim.x),
                    idx::gridStride1D(gridDim.y, blockDim.y), cols, rows, [&](std::uint64_t x, std::uint64_t y) {
                      const std::uint64_t p = (y * cols + x) * m % pixels;  // < 2^30 * 2^13: no overflow
                      pixelAt<R, false>(g, p % cols, p / cols, cols, iters, rounds);
                    });
}

/// The orbit state of every pixel between passes: hare and tortoise, as NumPy/CuPy would keep them in arrays.
template <typename R>
struct Orbits {
  R *hx, *hy, *tx, *ty;
};

/// Round k of Floyd's test for every pixel still undecided (rounds == 0): one masked pass over the whole image, as
/// an array program runs it. Each pixel takes the steps classify() takes, in the same order, so the verdicts and
/// rounds are the per-pixel kernel's.
template <typename R>
__global__ void arrayPassKernel(Region g, Orbits<R> o, std::int32_t* iters, std::int32_t* rounds, std::uint64_t rows,
                                std::uint64_t cols, std::int32_t k) {
  idx::gridStride2D(idx::global1D(blockIdx.x, blockDim.x, threadIdx.x),
                    idx::global1D(blockIdx.y, blockDim.y, threadIdx.y), idx::gridStride1D(gridDim.x, blockDim.x),
                    idx::gridStride1D(gridDim.y, blockDim.y), cols, rows, [&](std::uint64_t x, std::uint64_t y) {
                      const std::uint64_t p = y * cols + x;
                      if (rounds[p] != 0) return;  // decided in an earlier pass: masked out
                      const R cx = coordinate<R>(g.xMin, x, g.step), cy = coordinate<R>(g.yMin, y, g.step);
                      R hx = o.hx[p], hy = o.hy[p], tx = o.tx[p], ty = o.ty[p];
                      Pixel v{true, 0, 0};
                      ExactRounding::step(hx, hy, cx, cy);
                      if (ExactRounding::escaped(hx, hy)) v = {false, 2 * k - 1, k};
                      if (v.inside) {
                        ExactRounding::step(hx, hy, cx, cy);
                        if (ExactRounding::escaped(hx, hy)) v = {false, 2 * k, k};
                      }
                      if (v.inside) {
                        ExactRounding::step(tx, ty, cx, cy);
                        if ((hx == tx && hy == ty) || k == g.capRounds) v.rounds = k;
                      }
                      if (v.rounds != 0) {
                        iters[p] = shown(v, g.escapeCount);
                        rounds[p] = v.rounds;
                      }
                      o.hx[p] = hx, o.hy[p] = hy, o.tx[p] = tx, o.ty[p] = ty;
                    });
}

/// A run's image, region and launch, shared by every variant.
struct Image {
  MatrixShape m;
  View v;
  Region g;
  LaunchConfig cfg;
};

Image imageOf(ImplContext& ctx) {
  const MatrixShape m = matrixShape(ctx.setup);
  const View v = viewOf(ctx.setup);
  gpu::Work2D work(m.cols, m.rows);
  // Orbits are alike in a small square of pixels, less so along a 32-pixel row: warps of 8 x 4 pixels keep more
  // lanes busy (H100, 4096^2, cuda-fma: 0.74 ms against 0.89 with 32 x 8; docs/PERFORMANCE.md).
  work.autoBlock = {8, 16, 1};
  work.autoBlockWhy = "warps of 8 x 4 neighbouring pixels, whose orbits are alike; 128 threads";
  return {m, v, Region{v.xMin, v.yMin, v.step, v.capRounds, v.escapeCount}, gpu::resolveLaunch2D(ctx, work)};
}

template <bool Scattered, bool Fma>
void run(ImplContext& ctx) {
  visitDTypeAmong<float, double>(ctx.setup.dtype, [&](auto tag) {
    using R = decltype(tag);
    const Image im = imageOf(ctx);
    const MatrixShape& m = im.m;
    const Region& g = im.g;
    const LaunchConfig& cfg = im.cfg;
    const std::uint64_t mult = scatterMultiplier(m.elements());
    if (Scattered)
      ctx.launchNote += "; pixel = (thread index * " + std::to_string(mult) + ") mod " + std::to_string(m.elements());
    gpu::runPipeline(ctx, [&](gpu::DeviceArrays& d, cudaStream_t s) {
      const dim3 gr = gpu::toDim3(cfg.grid), b = gpu::toDim3(cfg.block);
      if constexpr (Scattered)
        scatteredKernel<R>
            <<<gr, b, 0, s>>>(g, d.output<std::int32_t>(0), d.output<std::int32_t>(1), m.rows, m.cols, mult);
      else
        perPixelKernel<R, Fma>
            <<<gr, b, 0, s>>>(g, d.output<std::int32_t>(0), d.output<std::int32_t>(1), m.rows, m.cols);
    });
    recordRoundRate(ctx, Phase::Kernel);
  });
}

}  // namespace

void cudaArrayPasses(ImplContext& ctx) {
  visitDTypeAmong<float, double>(ctx.setup.dtype, [&](auto tag) {
    using R = decltype(tag);
    const Image im = imageOf(ctx);
    const MatrixShape& m = im.m;
    const View& v = im.v;
    const Region& g = im.g;
    const LaunchConfig& cfg = im.cfg;
    const std::size_t bytes = m.elements() * sizeof(R);
    gpu::DeviceBuffer hx(bytes), hy(bytes), tx(bytes), ty(bytes);
    const Orbits<R> o{hx.as<R>(), hy.as<R>(), tx.as<R>(), ty.as<R>()};
    ctx.launchNote += "; " + std::to_string(v.capRounds) + " passes over the whole image (one per round, cap)";
    gpu::runPipeline(ctx, [&](gpu::DeviceArrays& d, cudaStream_t s) {
      for (gpu::DeviceBuffer* b : {&hx, &hy, &tx, &ty}) LAUNCHLAB_CUDA_CHECK(cudaMemsetAsync(b->get(), 0, bytes, s));
      std::int32_t* rounds = d.output<std::int32_t>(1);
      LAUNCHLAB_CUDA_CHECK(cudaMemsetAsync(rounds, 0, m.elements() * sizeof(std::int32_t), s));
      for (std::int32_t k = 1; k <= v.capRounds; ++k)
        arrayPassKernel<R><<<gpu::toDim3(cfg.grid), gpu::toDim3(cfg.block), 0, s>>>(g, o, d.output<std::int32_t>(0),
                                                                                    rounds, m.rows, m.cols, k);
    });
    ctx.metrics["kernel_launches_per_rep"] = v.capRounds;
    recordRoundRate(ctx, Phase::Kernel);
  });
}

void cudaPerPixel(ImplContext& ctx) { run<false, false>(ctx); }
void cudaScattered(ImplContext& ctx) { run<true, false>(ctx); }
void cudaFma(ImplContext& ctx) { run<false, true>(ctx); }

}  // namespace launchlab::kernels::mandelbrot
