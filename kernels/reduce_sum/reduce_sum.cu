// reduce_sum: atomics only, Harris's shared-memory trees (interleaved, then sequential addressing), a one-pass
// grid-stride warp-shuffle kernel, and cub::DeviceReduce::Sum.
// int32 data is summed as uint32 everywhere: the same bits, with wrapping (modulo 2^32) defined by the language.
#include <algorithm>
#include <cstdint>
#include <cub/device/device_reduce.cuh>
#include <type_traits>
#include <vector>

#include "common/block_trace.cuh"
#include "common/gpu_pipeline.cuh"
#include "common/index_math.h"
#include "common/phase_timeline.cuh"
#include "common/probe_launch.cuh"
#include "common/row_reduce.cuh"
#include "common/vec_load.cuh"
#include "reduce_sum/reduce_sum.h"

namespace launchlab::kernels::reduce_sum {

namespace {

// The 8-element tree output, drawn by one thread in every variant (an illustration, a few dozen additions).
template <typename A>
__global__ void treeLevelsKernel(const A* __restrict__ x, std::uint64_t n, A* __restrict__ tree) {
  pairwiseTree(x, n, tree);
}
template <typename A>
void drawTree(const gpu::DeviceArrays& d, std::uint64_t n, cudaStream_t s) {
  treeLevelsKernel<A><<<1, 1, 0, s>>>(d.input<A>(0), n, d.output<A>(1));
  LAUNCHLAB_CUDA_CHECK_LAUNCH();
}

// ---- 1. Atomics only: one atomicAdd per element, all on one address. ----
template <typename A>
__global__ void atomicsKernel(const A* __restrict__ x, std::uint64_t n, A* __restrict__ out) {
  const std::uint64_t stride = idx::gridStride1D(gridDim.x, blockDim.x);
  for (std::uint64_t i = idx::global1D(blockIdx.x, blockDim.x, threadIdx.x); i < n; i += stride) atomicAdd(out, x[i]);
}

// ---- 1b. The naive race: out[0] += x[i] without an atomic. Read, add and write of different threads interleave,
// so most additions overwrite each other (a demonstration: the result is wrong, by design). ----
template <typename A>
__global__ void raceKernel(const A* __restrict__ x, std::uint64_t n, A* out) {
  const std::uint64_t stride = idx::gridStride1D(gridDim.x, blockDim.x);
  for (std::uint64_t i = idx::global1D(blockIdx.x, blockDim.x, threadIdx.x); i < n; i += stride) {
    volatile A* o = out;  // a plain load and store per element, as the Python `out[0] += x[i]`
    *o = *o + x[i];
  }
}

// ---- 1c. The tree in global memory, one launch per level: out[i] = in[2i] + in[2i + 1] (the last element of an
// odd level passes through), halving the array until one value is left: ceil(log2 n) launches. ----
template <typename A>
__global__ void treeSumStepKernel(const A* __restrict__ in, std::uint64_t len, A* __restrict__ out) {
  const std::uint64_t half = (len + 1) / 2;
  const std::uint64_t stride = idx::gridStride1D(gridDim.x, blockDim.x);
  for (std::uint64_t i = idx::global1D(blockIdx.x, blockDim.x, threadIdx.x); i < half; i += stride)
    out[i] = 2 * i + 1 < len ? in[2 * i] + in[2 * i + 1] : in[2 * i];
}

// ---- 2./3. Harris's shared-memory trees. ----
// Each thread first adds its grid-stride elements (exactly one at the auto grid = ceil(n / block), as in Harris's
// kernels; several when the user's grid is smaller, so any grid is right). The block's values go to shared memory,
// padded with zeros to the power of two `pow2` >= blockDim.x so that any block size works, then a tree:
//   interleaved: at stride s = 1, 2, 4, ... thread t with t % 2s == 0 adds s[t + s] (lanes idle and diverge),
//   sequential:  at stride s = pow2/2, ..., 1 thread t < s adds s[t + s] (contiguous active threads, no conflicts).
// Thread 0 writes the block's sum to out[blockIdx.x].
template <typename A, bool Interleaved>
__global__ void treeKernel(const A* __restrict__ in, std::uint64_t n, A* __restrict__ out, unsigned pow2) {
  extern __shared__ __align__(16) unsigned char smemBytes[];
  A* s = reinterpret_cast<A*>(smemBytes);
  const unsigned t = threadIdx.x;
  A v = A(0);
  const std::uint64_t stride = idx::gridStride1D(gridDim.x, blockDim.x);
  for (std::uint64_t i = idx::global1D(blockIdx.x, blockDim.x, t); i < n; i += stride) v += in[i];
  s[t] = v;
  for (unsigned k = blockDim.x + t; k < pow2; k += blockDim.x) s[k] = A(0);
  __syncthreads();
  if constexpr (Interleaved) {
    for (unsigned st = 1; st < pow2; st *= 2) {
      if (t % (2 * st) == 0) s[t] += s[t + st];
      __syncthreads();
    }
  } else {
    for (unsigned st = pow2 / 2; st > 0; st >>= 1) {
      if (t < st) s[t] += s[t + st];
      __syncthreads();
    }
  }
  if (t == 0) out[blockIdx.x] = s[0];
}

// ---- 4. One pass: grid-stride, 16-byte loads, warp shuffles, last block finishes. ----
constexpr int kUnroll = 4;  // independent 16-byte loads (and accumulators) in flight per thread
static_assert(kUnroll == 4, "shuffleKernel combines exactly four accumulators");

template <typename V>
__device__ __forceinline__ auto laneSum(const V& v) {
  if constexpr (sizeof(v) / sizeof(v.x) == 4)
    return (v.x + v.y) + (v.z + v.w);
  else
    return v.x + v.y;
}

// Trace: blocks on SMs (common/block_trace.cuh).
template <typename A, typename Trace = gpu::BlockTraceOff>
__global__ void shuffleKernel(const A* __restrict__ x, std::uint64_t n, A* __restrict__ partials,
                              unsigned* __restrict__ ticket, A* __restrict__ out, BlockRecord* trace = nullptr) {
  __shared__ A scratch[33];
  __shared__ bool amLast;
  Trace::begin(trace);
  A acc[kUnroll];
#pragma unroll
  for (int u = 0; u < kUnroll; ++u) acc[u] = A(0);
  gpu::gridStrideVec16<kUnroll>(
      x, n, [&](int u, const gpu::Vec16T<A>& v) { acc[u] += laneSum(v); }, [&](A e) { acc[0] += e; });
  A v = (acc[0] + acc[1]) + (acc[2] + acc[3]);

  v = gpu::blockSum(v, scratch);
  if (threadIdx.x == 0) {
    partials[blockIdx.x] = v;
    __threadfence();  // the partial sum is visible device-wide before the ticket says it is there
    amLast = atomicAdd(ticket, 1u) == gridDim.x - 1;
  }
  __syncthreads();
  if (amLast) {  // the same for the whole block
    // The last block adds the partial sums in a fixed order (deterministic), reading them from L2.
    A w = A(0);
    for (unsigned b = threadIdx.x; b < gridDim.x; b += blockDim.x) w += __ldcg(partials + b);
    w = gpu::blockSum(w, scratch);
    if (threadIdx.x == 0) {
      *out = w;
      *ticket = 0;  // ready for the next launch
    }
  }
  Trace::end(trace);
}

template <typename Body>
void dispatch(ImplContext& ctx, Body body) {
  visitDTypeAmong<float, double, std::int32_t>(ctx.setup.dtype, [&](auto t) { body(Acc<decltype(t)>{}); });
}

// A kernel that adds every element into out[0] (atomics, or the race): out zeroed, then one launch.
template <typename A>
void runOnOneAddress(ImplContext& ctx, void (*kernel)(const A*, std::uint64_t, A*)) {
  const std::uint64_t n = ctx.setup.n;
  const auto cfg = gpu::resolveLaunch1D(ctx, kernel, n, gpu::GridPolicy::CoverN);
  gpu::runPipeline(ctx, [&](gpu::DeviceArrays& d, cudaStream_t s) {
    drawTree<A>(d, n, s);
    A* out = d.output<A>(0);
    LAUNCHLAB_CUDA_CHECK(cudaMemsetAsync(out, 0, sizeof(A), s));  // all-zero bits are 0 for every type here
    gpu::launch(ctx, kernel, gpu::toDim3(cfg.grid), gpu::toDim3(cfg.block), 0, s, d.input<A>(0), n, out);
  });
}

template <bool Interleaved>
void runTree(ImplContext& ctx) {
  dispatch(ctx, [&](auto a) {
    using A = decltype(a);
    const std::uint64_t n = ctx.setup.n;
    const auto cfg = gpu::resolveLaunch1D(ctx, treeKernel<A, Interleaved>, n, gpu::GridPolicy::CoverN);
    const unsigned pow2 = nextPow2(cfg.block.x);
    const std::uint64_t blocks = cfg.grid.x;
    gpu::DeviceBuffer ping(blocks * sizeof(A)), pong(ceilDiv(blocks, kLaterPassBlock) * sizeof(A));
    int passes = 1;
    for (std::uint64_t m = blocks; m > 1; m = ceilDiv(m, kLaterPassBlock)) ++passes;
    ctx.launchNote += "; " + std::to_string(passes) + (passes == 1 ? " launch" : " launches") +
                      " (later ones reduce the per-block sums with " + std::to_string(kLaterPassBlock) + " threads)";
    gpu::runPipeline(ctx, [&](gpu::DeviceArrays& d, cudaStream_t s) {
      drawTree<A>(d, n, s);
      A* out = d.output<A>(0);
      A* first = blocks == 1 ? out : ping.as<A>();
      gpu::launch(ctx, treeKernel<A, Interleaved>, gpu::toDim3(cfg.grid), gpu::toDim3(cfg.block), pow2 * sizeof(A), s,
                  d.input<A>(0), n, first, pow2);
      const A* src = first;
      A* spare = pong.as<A>();
      for (std::uint64_t m = blocks; m > 1;) {
        const std::uint64_t g = ceilDiv(m, kLaterPassBlock);
        A* dst = g == 1 ? out : spare;
        gpu::launch(ctx, treeKernel<A, Interleaved>, unsigned(g), kLaterPassBlock, kLaterPassBlock * sizeof(A), s, src,
                    m, dst, kLaterPassBlock);
        LAUNCHLAB_CUDA_CHECK_LAUNCH();
        spare = const_cast<A*>(src);
        src = dst;
        m = g;
      }
    });
  });
}

}  // namespace

void cudaAtomics(ImplContext& ctx) {
  dispatch(ctx, [&](auto a) { runOnOneAddress<decltype(a)>(ctx, atomicsKernel<decltype(a)>); });
}

void cudaNaiveRace(ImplContext& ctx) {
  dispatch(ctx, [&](auto a) { runOnOneAddress<decltype(a)>(ctx, raceKernel<decltype(a)>); });
}

void cudaTreeGlobalHalving(ImplContext& ctx) {
  dispatch(ctx, [&](auto a) {
    using A = decltype(a);
    const std::uint64_t n = ctx.setup.n;
    // The launch of the first level (ceil(n / 2) pairs); later levels keep the block and cover their pairs.
    const auto cfg = gpu::resolveLaunch1D(ctx, treeSumStepKernel<A>, ceilDiv(n, 2), gpu::GridPolicy::CoverN);
    const unsigned block = cfg.block.x;
    gpu::DeviceBuffer ping(ceilDiv(n, 2) * sizeof(A)), pong(ceilDiv(n, 4) * sizeof(A) + sizeof(A));
    int levels = 0;
    for (std::uint64_t m = n; m > 1; m = (m + 1) / 2) ++levels;
    ctx.launchNote += "; " + std::to_string(levels) + " launches, one per level of the tree";
    ctx.metrics["launches_per_rep"] = levels;
    gpu::runPipeline(ctx, [&](gpu::DeviceArrays& d, cudaStream_t s) {
      drawTree<A>(d, n, s);
      A* out = d.output<A>(0);
      if (n == 1) {
        LAUNCHLAB_CUDA_CHECK(cudaMemcpyAsync(out, d.input<A>(0), sizeof(A), cudaMemcpyDeviceToDevice, s));
        return;
      }
      const A* src = d.input<A>(0);
      A* bufs[2] = {ping.as<A>(), pong.as<A>()};
      int k = 0;
      for (std::uint64_t m = n; m > 1; m = (m + 1) / 2, ++k) {
        const std::uint64_t half = (m + 1) / 2;
        A* dst = half == 1 ? out : bufs[k % 2];
        const dim3 grid = k == 0 ? gpu::toDim3(cfg.grid) : dim3(unsigned(ceilDiv(half, block)));
        gpu::launch(ctx, treeSumStepKernel<A>, grid, gpu::toDim3(cfg.block), 0, s, src, m, dst);
        LAUNCHLAB_CUDA_CHECK_LAUNCH();
        src = dst;
      }
    });
  });
}

void cudaTreeInterleaved(ImplContext& ctx) { runTree<true>(ctx); }
void cudaTreeSequential(ImplContext& ctx) { runTree<false>(ctx); }

void cudaWarpShuffle(ImplContext& ctx) {
  dispatch(ctx, [&](auto a) {
    using A = decltype(a);
    const std::uint64_t n = ctx.setup.n;
    const auto cfg =
        gpu::resolveLaunch1D(ctx, shuffleKernel<A>, ceilDiv(n, gpu::kVec16Width<A>), gpu::GridPolicy::Occupancy);
    gpu::DeviceBuffer partials(std::size_t(cfg.grid.x) * sizeof(A));
    gpu::DeviceBuffer ticket(sizeof(unsigned));
    LAUNCHLAB_CUDA_CHECK(cudaMemset(ticket.get(), 0, sizeof(unsigned)));  // each launch's last block resets it
    const gpu::BlockTrace trace(ctx, cfg);
    const auto kernel = trace.pick(shuffleKernel<A>, shuffleKernel<A, gpu::BlockTraceOn>);
    gpu::runPipeline(ctx, [&](gpu::DeviceArrays& d, cudaStream_t s) {
      drawTree<A>(d, n, s);
      gpu::launch(ctx, kernel, gpu::toDim3(cfg.grid), gpu::toDim3(cfg.block), 0, s, d.input<A>(0), n, partials.as<A>(),
                  ticket.as<unsigned>(), d.output<A>(0), trace.records());
    });
    trace.collect(ctx);
  });
}

namespace {

/// cub::DeviceReduce::Sum with its temporary storage sized once.
template <typename A>
class CubSum {
 public:
  explicit CubSum(std::int64_t n) : m_n(n) {
    LAUNCHLAB_CUDA_CHECK(
        cub::DeviceReduce::Sum(nullptr, m_bytes, static_cast<const A*>(nullptr), static_cast<A*>(nullptr), n));
    m_temp = gpu::DeviceBuffer(m_bytes ? m_bytes : 1);
  }
  void operator()(const A* in, A* out, cudaStream_t s) {
    std::size_t bytes = m_bytes;
    LAUNCHLAB_CUDA_CHECK(cub::DeviceReduce::Sum(m_temp.get(), bytes, in, out, m_n, s));
  }

 private:
  std::int64_t m_n;
  std::size_t m_bytes = 0;
  gpu::DeviceBuffer m_temp;
};

void cubLaunchNote(ImplContext& ctx) {
  ctx.launched = LaunchConfig{Dim3{0, 1, 1}, Dim3{0, 1, 1}, 0};  // 0: not ours to choose
  ctx.launchNote = "chosen by CUB (its tuning policy); the --block/--grid options do not apply";
}

}  // namespace

void cudaCub(ImplContext& ctx) {
  dispatch(ctx, [&](auto a) {
    using A = decltype(a);
    const auto n = static_cast<std::int64_t>(ctx.setup.n);
    CubSum<A> sum(n);
    cubLaunchNote(ctx);
    gpu::runPipeline(ctx, [&](gpu::DeviceArrays& d, cudaStream_t s) {
      drawTree<A>(d, n, s);
      sum(d.input<A>(0), d.output<A>(0), s);
    });
  });
}

template <CallForm Form>
void cudaCallForm(ImplContext& ctx) {
  dispatch(ctx, [&](auto a) {
    using A = decltype(a);
    const std::uint64_t n = ctx.setup.n;
    // A is the accumulation type (uint32 for int32: wrap-around sums), the arrays' own bytes reinterpreted.
    static_assert(sizeof(A) == 4 || sizeof(A) == 8);
    const A* x = static_cast<const A*>(ctx.inputs[0].data());
    CubSum<A> sum(static_cast<std::int64_t>(n));
    cubLaunchNote(ctx);
    ctx.poisonHostOutputs();
    gpu::Stream stream;
    const cudaStream_t s = stream.get();
    gpu::DeviceBuffer dx(n * sizeof(A)), dres(sizeof(A));
    // A_d = cuda.to_device(A) happens before the calls the seed makes on it: untimed.
    if (Form == CallForm::DeviceInput) gpu::copyToDevice(dx.get(), x, n * sizeof(A), s);
    gpu::PhaseTimeline tl(s);
    for (int r = -ctx.warmup; r < ctx.reps; ++r) {
      ctx.checkpoint(r);
      gpu::poison(dres.get(), sizeof(A), s);
      tl.begin();
      if (Form != CallForm::DeviceInput) tl.step(Phase::H2D, [&] { gpu::copyToDevice(dx.get(), x, n * sizeof(A), s); });
      tl.step(Phase::Kernel, [&] { sum(dx.as<A>(), dres.as<A>(), s); });
      if (Form == CallForm::HostInput)
        tl.step(Phase::D2H, [&] { gpu::copyToHost(ctx.outputs[0].data(), dres.get(), sizeof(A), s); });
      tl.end(ctx, r >= 0);
    }
    // res= keeps the sum on the device: it is read back once, untimed, for verification.
    if (Form != CallForm::HostInput) gpu::copyToHost(ctx.outputs[0].data(), dres.get(), sizeof(A), s);
    std::vector<A> after(Form == CallForm::DeviceInput ? n : 0);
    if (Form == CallForm::DeviceInput) gpu::copyToHost(after.data(), dx.get(), n * sizeof(A), s);
    LAUNCHLAB_CUDA_CHECK(cudaStreamSynchronize(s));
    pairwiseTree(x, n, static_cast<A*>(ctx.outputs[1].data()));
    // The seed's np.allclose(A, A_d.copy_to_host()): the reduction leaves its device input as it was.
    if (Form == CallForm::DeviceInput)
      ctx.metrics["input_untouched"] = std::equal(after.begin(), after.end(), x) ? 1.0 : 0.0;
  });
}

void cudaReduceHostInput(ImplContext& ctx) { cudaCallForm<CallForm::HostInput>(ctx); }
void cudaReduceDeviceResult(ImplContext& ctx) { cudaCallForm<CallForm::DeviceResult>(ctx); }
void cudaReduceDeviceInput(ImplContext& ctx) { cudaCallForm<CallForm::DeviceInput>(ctx); }

}  // namespace launchlab::kernels::reduce_sum
