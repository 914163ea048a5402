// matmul's CUDA kernels: naive (one thread per element of C), 16-deep shared-memory tiles whose C tile is the block
// (Numba's 16 x 16 example by default), and a register-tiled kernel (128 x 128 tile of C per 256 threads, 8 x 8
// outputs each, double-buffered shared memory, 16-byte loads). All of them take any m, k, n: the tails are
// bounds-checked (zero-padded in shared memory), and the naive and tiled kernels stride over any grid.
#include "common/gpu_pipeline.cuh"
#include "common/index_math.h"
#include "common/probe_launch.cuh"
#include "matmul/matmul.h"

namespace launchlab::kernels::matmul {

namespace {

using u32 = std::uint32_t;
using u64 = std::uint64_t;

__global__ void naiveKernel(const float* __restrict__ a, const float* __restrict__ b, float* __restrict__ c, u32 m,
                            u32 k, u32 n) {
  idx::gridStride2D(idx::global1D(blockIdx.x, blockDim.x, threadIdx.x),
                    idx::global1D(blockIdx.y, blockDim.y, threadIdx.y), idx::gridStride1D(gridDim.x, blockDim.x),
                    idx::gridStride1D(gridDim.y, blockDim.y), n, m, [&](u64 x, u64 y) {
                      float acc = 0;
                      for (u32 l = 0; l < k; ++l) acc += a[y * k + l] * b[u64(l) * n + x];
                      c[y * n + x] = acc;
                    });
}

/// A block of bx x by threads owns a by x bx tile of C (thread (tx, ty) its element (ty, tx)); per step it stages
/// A's by x 16 and B's 16 x bx slices in shared memory (dynamic: sA then sB), zero beyond the matrices' edges.
__global__ void tiledKernel(const float* __restrict__ a, const float* __restrict__ b, float* __restrict__ c, u32 m,
                            u32 k, u32 n) {
  extern __shared__ float smem[];
  const u32 bx = blockDim.x, by = blockDim.y, threads = bx * by, tid = threadIdx.y * bx + threadIdx.x;
  float* sA = smem;                     // [by][kTiledDepth]
  float* sB = smem + by * kTiledDepth;  // [kTiledDepth][bx]
  const u32 tilesX = (n + bx - 1) / bx, tilesY = (m + by - 1) / by;
  idx::gridStride2D(blockIdx.x, blockIdx.y, gridDim.x, gridDim.y, tilesX, tilesY, [&](u64 tileX, u64 tileY) {
    const u64 r0 = tileY * by, c0 = tileX * bx;
    float acc = 0;
    for (u32 l0 = 0; l0 < k; l0 += kTiledDepth) {
      for (u32 e = tid; e < by * kTiledDepth; e += threads) {
        const u64 r = r0 + e / kTiledDepth;
        const u32 l = l0 + e % kTiledDepth;
        sA[e] = (r < m && l < k) ? a[r * k + l] : 0.f;
      }
      for (u32 e = tid; e < kTiledDepth * bx; e += threads) {
        const u32 l = l0 + e / bx;
        const u64 col = c0 + e % bx;
        sB[e] = (l < k && col < n) ? b[u64(l) * n + col] : 0.f;
      }
      __syncthreads();
      for (u32 l = 0; l < kTiledDepth; ++l) acc += sA[threadIdx.y * kTiledDepth + l] * sB[l * bx + threadIdx.x];
      __syncthreads();
    }
    const u64 row = r0 + threadIdx.y, col = c0 + threadIdx.x;
    if (row < m && col < n) c[row * n + col] = acc;
  });
}

// ---- The register-tiled kernel ----
constexpr u32 BM = kRegBM, BN = kRegBN, BK = kRegBK, TM = kRegTM, TN = kRegTN;
/// sA holds A's slice transposed (k-major, so a thread reads 4 rows as one float4); 4 words of padding per row keep
/// rows 16-byte aligned and put the k-quarters kq = 0 and 4 a warp stores in different banks. kq = 0 and 8 share
/// them: a 2-way conflict on these stores (8 of a thread's 136 shared accesses per step). Loading a row per 2
/// threads, both k-halves in turn, removes it (18 M bank conflicts to 0.5 M on the H200) yet ran 3 % slower there:
/// the conflicts cost less than that load order (PERFORMANCE.md).
constexpr u32 kPadA = 4;
/// float4 loads per thread and step: A's BM x BK slice and B's BK x BN slice, each in kRegThreads-wide passes.
constexpr u32 kLoadsA = BM * BK / 4 / kRegThreads, kLoadsB = BK * BN / 4 / kRegThreads;
static_assert(kLoadsA * 4 * kRegThreads == BM * BK && kLoadsB * 4 * kRegThreads == BK * BN, "whole float4 passes");
static_assert(TM == 8 && TN == 8 && BM == 16 * TM && BN == 16 * TN, "16 x 16 threads of 8 x 8 outputs");

/// 4 consecutive elements of row `row` from column `col` of a rows x cols block of a matrix whose rows are `stride`
/// floats apart; Checked: zero outside the block and no alignment assumed, else one 16-byte load (the host checked
/// that the sides are multiples of the tile).
template <bool Checked>
__device__ __forceinline__ float4 load4(const float* __restrict__ p, u32 stride, u32 rows, u32 cols, u32 row, u32 col) {
  if constexpr (!Checked) {
    return *reinterpret_cast<const float4*>(p + u64(row) * stride + col);
  } else {
    float v[4];
#pragma unroll
    for (u32 i = 0; i < 4; ++i) v[i] = (row < rows && col + i < cols) ? p[u64(row) * stride + col + i] : 0.f;
    return make_float4(v[0], v[1], v[2], v[3]);
  }
}

/// The 8 x 8 outputs of thread (tx, ty): rows ty*4 + {0..3} and 64 + ty*4 + {0..3}, columns likewise with tx, so
/// each of its shared-memory reads is a float4 and a warp's reads of B are 256 contiguous bytes.
__device__ __forceinline__ void multiplySlice(const float (&sA)[BK][BM + kPadA], const float (&sB)[BK][BN],
                                              float (&acc)[TM][TN], u32 tx, u32 ty) {
#pragma unroll
  for (u32 l = 0; l < BK; ++l) {
    const float4 a0 = *reinterpret_cast<const float4*>(&sA[l][ty * 4]);
    const float4 a1 = *reinterpret_cast<const float4*>(&sA[l][BM / 2 + ty * 4]);
    const float4 b0 = *reinterpret_cast<const float4*>(&sB[l][tx * 4]);
    const float4 b1 = *reinterpret_cast<const float4*>(&sB[l][BN / 2 + tx * 4]);
    const float av[TM] = {a0.x, a0.y, a0.z, a0.w, a1.x, a1.y, a1.z, a1.w};
    const float bv[TN] = {b0.x, b0.y, b0.z, b0.w, b1.x, b1.y, b1.z, b1.w};
#pragma unroll
    for (u32 i = 0; i < TM; ++i)
#pragma unroll
      for (u32 j = 0; j < TN; ++j) acc[i][j] = fmaf(av[i], bv[j], acc[i][j]);
  }
}

template <bool Checked>
__device__ __forceinline__ void storeTile(float* __restrict__ c, const float (&acc)[TM][TN], u32 m, u32 n, u32 m0,
                                          u32 n0, u32 tx, u32 ty) {
#pragma unroll
  for (u32 i = 0; i < TM; ++i) {
    const u32 row = m0 + (i / 4) * (BM / 2) + ty * 4 + i % 4;
#pragma unroll
    for (u32 half = 0; half < 2; ++half) {
      const u32 col = n0 + half * (BN / 2) + tx * 4;
      const float* v = &acc[i][half * 4];
      if constexpr (!Checked) {
        *reinterpret_cast<float4*>(c + u64(row) * n + col) = make_float4(v[0], v[1], v[2], v[3]);
      } else if (row < m) {
#pragma unroll
        for (u32 j = 0; j < 4; ++j)
          if (col + j < n) c[u64(row) * n + col + j] = v[j];
      }
    }
  }
}

/// One 128 x 128 tile of C per block: block (x, y) of a 2-D grid owns the tile at column x·128, row y·128 (the
/// host launches one block per tile). Per BK-deep step each thread loads its share of the next step (kLoadsA
/// float4s of A along k, kLoadsB of B along n) into registers, multiplies the current step from shared memory,
/// then stores its loads into the other buffer (A transposed, word by word): one __syncthreads() per step. 16 deep
/// rather than 8 halves the barriers and the staging per FMA: on the H200, 0.94x of cuBLAS SGEMM against 0.86x
/// (PERFORMANCE.md). Two blocks per SM (128 registers) keep one block computing while the other waits at its barrier.
template <bool Checked>
__global__ void __launch_bounds__(kRegThreads, 2)
    registerTiledKernel(const float* __restrict__ a, const float* __restrict__ b, float* __restrict__ c, u32 m, u32 k,
                        u32 n) {
  __shared__ __align__(16) float sA[2][BK][BM + kPadA];
  __shared__ __align__(16) float sB[2][BK][BN];
  const u32 t = threadIdx.x, tx = t % 16, ty = t / 16;
  const u32 m0 = blockIdx.y * BM, n0 = blockIdx.x * BN;
  const float* pa = a + u64(m0) * k;  // the tile's rows of A
  const float* pb = b + n0;           // and columns of B
  // Float4 v of a step, loaded and then staged by this thread: A's row aRow(v) at k offset aK(v) of the step, B's
  // row bK(v) at column bCol(v) of the tile (one mapping for both, so what is staged is what was loaded).
  auto aRow = [&](u32 v) { return (t + v * kRegThreads) / (BK / 4); };
  auto aK = [&](u32 v) { return (t + v * kRegThreads) % (BK / 4) * 4; };
  auto bK = [&](u32 v) { return (t + v * kRegThreads) / (BN / 4); };
  auto bCol = [&](u32 v) { return (t + v * kRegThreads) % (BN / 4) * 4; };
  float4 ra[kLoadsA], rb[kLoadsB];
  auto load = [&](u32 k0) {
#pragma unroll
    for (u32 v = 0; v < kLoadsA; ++v) ra[v] = load4<Checked>(pa, k, m - m0, k, aRow(v), k0 + aK(v));
#pragma unroll
    for (u32 v = 0; v < kLoadsB; ++v) rb[v] = load4<Checked>(pb, n, k, n - n0, k0 + bK(v), bCol(v));
  };
  auto stage = [&](u32 buf) {
#pragma unroll
    for (u32 v = 0; v < kLoadsA; ++v) {
      sA[buf][aK(v) + 0][aRow(v)] = ra[v].x;
      sA[buf][aK(v) + 1][aRow(v)] = ra[v].y;
      sA[buf][aK(v) + 2][aRow(v)] = ra[v].z;
      sA[buf][aK(v) + 3][aRow(v)] = ra[v].w;
    }
#pragma unroll
    for (u32 v = 0; v < kLoadsB; ++v) *reinterpret_cast<float4*>(&sB[buf][bK(v)][bCol(v)]) = rb[v];
  };
  float acc[TM][TN] = {};
  load(0);
  stage(0);
  __syncthreads();
  const u32 steps = (k + BK - 1) / BK;
  for (u32 s = 0; s < steps; ++s) {
    const bool more = s + 1 < steps;
    if (more) load((s + 1) * BK);
    multiplySlice(sA[s % 2], sB[s % 2], acc, tx, ty);
    if (more) stage((s + 1) % 2);
    __syncthreads();
  }
  storeTile<Checked>(c, acc, m, n, m0, n0, tx, ty);
}

MatmulShape shapeOf(const ImplContext& ctx) { return matmulShape(ctx.setup); }

}  // namespace

void cudaNaive(ImplContext& ctx) {
  const MatmulShape s = shapeOf(ctx);
  const auto cfg = gpu::resolveLaunch2D(ctx, gpu::Work2D(s.n, s.m));
  gpu::recordKernelOccupancy(ctx, reinterpret_cast<const void*>(naiveKernel), cfg);
  gpu::runPipeline(ctx, [&](gpu::DeviceArrays& d, cudaStream_t st) {
    gpu::launch(ctx, naiveKernel, gpu::toDim3(cfg.grid), gpu::toDim3(cfg.block), 0, st, d.input<float>(0),
                d.input<float>(1), d.output<float>(0), u32(s.m), u32(s.k), u32(s.n));
  });
}

void cudaTiled16(ImplContext& ctx) {
  const MatmulShape s = shapeOf(ctx);
  gpu::Work2D work(s.n, s.m);
  work.autoBlock = Dim3{16, 16, 1};
  work.autoBlockWhy = "Numba's example: a 16 x 16 tile of C per block";
  const Dim3 block = ctx.launch.block ? *ctx.launch.block : work.autoBlock;
  const std::size_t smem = std::size_t(block.y + block.x) * kTiledDepth * sizeof(float);
  const auto cfg = gpu::resolveLaunch2D(ctx, work, smem);
  // Long blocks (1024 x 1: 64 KiB) need the opt-in beyond 48 KiB, which resolveLaunch2D checked against the device.
  if (smem > 48 * 1024)
    LAUNCHLAB_CUDA_CHECK(cudaFuncSetAttribute(tiledKernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(smem)));
  gpu::recordKernelOccupancy(ctx, reinterpret_cast<const void*>(tiledKernel), cfg);
  gpu::runPipeline(ctx, [&](gpu::DeviceArrays& d, cudaStream_t st) {
    gpu::launch(ctx, tiledKernel, gpu::toDim3(cfg.grid), gpu::toDim3(cfg.block), smem, st, d.input<float>(0),
                d.input<float>(1), d.output<float>(0), u32(s.m), u32(s.k), u32(s.n));
  });
}

void cudaRegisterTiled(ImplContext& ctx) {
  const MatmulShape s = shapeOf(ctx);
  // The unchecked kernel: no bounds, 16-byte loads and stores (every row of A, B, C starts 16-byte aligned).
  const bool whole = s.m % BM == 0 && s.n % BN == 0 && s.k % BK == 0;
  auto kernel = whole ? registerTiledKernel<false> : registerTiledKernel<true>;
  const u64 tilesX = (s.n + BN - 1) / BN, tilesY = (s.m + BM - 1) / BM;
  // One block per tile, no grid-stride loop: the loop's bookkeeping cost this kernel 5 % on the H200.
  if (tilesY > ctx.device->limits.maxGridDim.y)
    throw Unavailable("m = " + std::to_string(s.m) + " needs " + std::to_string(tilesY) +
                      " rows of 128 x 128 tiles, more than the " + std::to_string(ctx.device->limits.maxGridDim.y) +
                      " blocks a grid's y can hold");
  LaunchConfig cfg{Dim3{u32(tilesX), u32(tilesY), 1}, Dim3{kRegThreads, 1, 1}, 0};
  ctx.launched = cfg;
  ctx.launchNote = "fixed: " + std::to_string(kRegThreads) + " threads per 128 x 128 tile of C, one block per tile (" +
                   (whole ? "sides multiples of the tile: unchecked 16-byte loads" : "tails: bounds-checked loads") +
                   "); --block/--grid do not apply";
  gpu::runPipeline(ctx, [&](gpu::DeviceArrays& d, cudaStream_t st) {
    gpu::launch(ctx, kernel, gpu::toDim3(cfg.grid), gpu::toDim3(cfg.block), 0, st, d.input<float>(0), d.input<float>(1),
                d.output<float>(0), u32(s.m), u32(s.k), u32(s.n));
  });
}

}  // namespace launchlab::kernels::matmul
