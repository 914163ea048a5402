// matrix_add_2d: the seed's matrix_add with a 2-D grid-stride loop (any grid covers the matrix).
#include "common/gpu_pipeline.cuh"
#include "common/index_math.h"
#include "common/matrix_shape.h"
#include "common/probe_launch.cuh"
#include "common/vec_load.cuh"
#include "matrix_add_2d/matrix_add_2d.h"

namespace launchlab::kernels::matrix_add_2d {

namespace {

/// Coalesced: x (the fast thread index) is the column. Uncoalesced: x is the row, so a warp walks down a column.
template <typename T, bool Coalesced>
__global__ void matrixAddKernel(const T* __restrict__ a, const T* __restrict__ b, T* __restrict__ out,
                                std::uint64_t rows, std::uint64_t cols) {
  const std::uint64_t x0 = idx::global1D(blockIdx.x, blockDim.x, threadIdx.x);
  const std::uint64_t y0 = idx::global1D(blockIdx.y, blockDim.y, threadIdx.y);
  const std::uint64_t sx = idx::gridStride1D(gridDim.x, blockDim.x), sy = idx::gridStride1D(gridDim.y, blockDim.y);
  idx::gridStride2D(x0, y0, sx, sy, Coalesced ? cols : rows, Coalesced ? rows : cols,
                    [&](std::uint64_t x, std::uint64_t y) {
                      const std::uint64_t i = Coalesced ? y * cols + x : x * cols + y;
                      out[i] = a[i] + b[i];
                    });
}

/// Coalesced with 16-byte accesses: x is a 16-byte group of a row (4 floats), so a warp moves 512 contiguous bytes
/// per instruction; read-only loads through the non-coherent path, streaming stores (vector_add's vectorized kernel,
/// in 2-D). Needs cols to be a multiple of the group (rows then start 16-byte aligned).
template <typename T>
__global__ void matrixAddVec16Kernel(const T* __restrict__ a, const T* __restrict__ b, T* __restrict__ out,
                                     std::uint64_t rows, std::uint64_t groups) {
  using V = gpu::Vec16T<T>;
  const V* av = reinterpret_cast<const V*>(a);
  const V* bv = reinterpret_cast<const V*>(b);
  V* ov = reinterpret_cast<V*>(out);
  const std::uint64_t x0 = idx::global1D(blockIdx.x, blockDim.x, threadIdx.x);
  const std::uint64_t y0 = idx::global1D(blockIdx.y, blockDim.y, threadIdx.y);
  const std::uint64_t sx = idx::gridStride1D(gridDim.x, blockDim.x), sy = idx::gridStride1D(gridDim.y, blockDim.y);
  idx::gridStride2D(x0, y0, sx, sy, groups, rows, [&](std::uint64_t x, std::uint64_t y) {
    const std::uint64_t i = y * groups + x;
    __stcs(ov + i, gpu::vadd(__ldg(av + i), __ldg(bv + i)));
  });
}

template <bool Coalesced>
void run(ImplContext& ctx) {
  visitDTypeAmong<float, double, std::int32_t>(ctx.setup.dtype, [&](auto t) {
    using T = decltype(t);
    const MatrixShape m = matrixShape(ctx.setup);
    gpu::Work2D work(Coalesced ? m.cols : m.rows, Coalesced ? m.rows : m.cols);
    if (!Coalesced) work.autoBlockWhy = "the coalesced kernel's shape, x now down a column";
    const auto cfg = gpu::resolveLaunch2D(ctx, work);
    gpu::recordKernelOccupancy(ctx, reinterpret_cast<const void*>(matrixAddKernel<T, Coalesced>), cfg);
    gpu::runPipeline(ctx, [&](gpu::DeviceArrays& d, cudaStream_t s) {
      gpu::launch(ctx, matrixAddKernel<T, Coalesced>, gpu::toDim3(cfg.grid), gpu::toDim3(cfg.block), 0, s,
                  d.input<T>(0), d.input<T>(1), d.output<T>(0), m.rows, m.cols);
    });
  });
  fillThreadMap(ctx.output("thread_map"));
}

}  // namespace

void cudaCoalesced(ImplContext& ctx) { run<true>(ctx); }

void cudaCoalescedVec16(ImplContext& ctx) {
  bool vectorized = false;
  visitDTypeAmong<float, double, std::int32_t>(ctx.setup.dtype, [&](auto t) {
    using T = decltype(t);
    constexpr std::uint64_t W = sizeof(gpu::Vec16T<T>) / sizeof(T);
    const MatrixShape m = matrixShape(ctx.setup);
    if (m.cols % W != 0) return;  // rows would not start 16-byte aligned: the scalar kernel below
    vectorized = true;
    gpu::Work2D work(m.cols / W, m.rows);
    work.autoBlockWhy = "a warp along each row, 16 bytes per thread (" + std::to_string(W) + " elements), 256 threads";
    const auto cfg = gpu::resolveLaunch2D(ctx, work);
    gpu::recordKernelOccupancy(ctx, reinterpret_cast<const void*>(matrixAddVec16Kernel<T>), cfg);
    gpu::runPipeline(ctx, [&](gpu::DeviceArrays& d, cudaStream_t s) {
      gpu::launch(ctx, matrixAddVec16Kernel<T>, gpu::toDim3(cfg.grid), gpu::toDim3(cfg.block), 0, s, d.input<T>(0),
                  d.input<T>(1), d.output<T>(0), m.rows, m.cols / W);
    });
    fillThreadMap(ctx.output("thread_map"));
  });
  if (vectorized) return;
  run<true>(ctx);
  ctx.launchNote +=
      "; the columns are not a multiple of 16 bytes, so rows are not 16-byte aligned: the scalar "
      "coalesced kernel ran";
}

void cudaUncoalesced(ImplContext& ctx) { run<false>(ctx); }

}  // namespace launchlab::kernels::matrix_add_2d
