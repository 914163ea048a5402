#pragma once
/// Blocks on SMs (for .cu files): an instrumented instantiation of a kernel records, for every block, the SM it ran
/// on (%smid) and its start and end on the GPU's global timer (%globaltimer, nanoseconds), into one
/// launchlab::BlockRecord per block (launchlab/explorer/block_trace.h).
///
/// A traced kernel takes a policy `typename Trace = gpu::BlockTraceOff` and a last parameter
/// `BlockRecord* trace = nullptr`, calls Trace::begin(trace) first and Trace::end(trace) last (reached by every
/// thread of the block: end synchronizes the block). BlockTraceOff compiles to nothing, so the ordinary
/// instantiation is the kernel as it was; BlockTraceOn is the instrumented one. On the host, BlockTrace holds the
/// records of one launch, picks the instantiation to launch and brings the records back after the repetitions.
#include <cuda_runtime.h>

#include <string>
#include <vector>

#include "common/cuda_check.h"
#include "launchlab/engine/workload.h"
#include "launchlab/explorer/block_trace.h"

namespace launchlab::gpu {

/// The GPU's global timer in nanoseconds (its resolution depends on the GPU and driver: often 32 ns to 1 us).
__device__ __forceinline__ unsigned long long globalTimerNs() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t)::"memory");
  return t;
}

/// The SM the calling thread runs on.
__device__ __forceinline__ unsigned smId() {
  unsigned id;
  asm volatile("mov.u32 %0, %%smid;" : "=r"(id));
  return id;
}

/// The ordinary kernel: no instrumentation at all.
struct BlockTraceOff {
  __device__ static void begin(BlockRecord*) {}
  __device__ static void end(BlockRecord*) {}
};

/// The instrumented kernel: thread 0 of each block writes the block's record.
struct BlockTraceOn {
  __device__ static unsigned linearBlock() { return blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z); }
  __device__ static bool leader() { return (threadIdx.x | threadIdx.y | threadIdx.z) == 0; }
  __device__ static void begin(BlockRecord* trace) {
    if (!leader()) return;
    BlockRecord& r = trace[linearBlock()];
    r.startNs = globalTimerNs();
    r.block = linearBlock();
    r.sm = smId();
  }
  /// After every thread of the block is done.
  __device__ static void end(BlockRecord* trace) {
    __syncthreads();
    if (leader()) trace[linearBlock()].endNs = globalTimerNs();
  }
};

/// The records of one traced launch of `cfg`, when ctx asks for a trace (ImplContext::traceBlocks) and the grid has
/// at most kMaxTracedBlocks blocks; otherwise off (no memory, records() is null, pick() the ordinary kernel).
/// Every repetition overwrites the records, so the last timed one is what collect() brings back.
class BlockTrace {
 public:
  BlockTrace(ImplContext& ctx, const LaunchConfig& cfg) {
    if (!ctx.traceBlocks) return;
    const std::uint64_t blocks = cfg.grid.count();
    if (blocks > kMaxTracedBlocks) {
      ctx.launchNote +=
          "; blocks not traced: " + std::to_string(blocks) + " blocks > " + std::to_string(kMaxTracedBlocks);
      return;
    }
    m_buffer = DeviceBuffer(blocks * sizeof(BlockRecord));
    LAUNCHLAB_CUDA_CHECK(cudaMemset(m_buffer.get(), 0, m_buffer.bytes()));
    m_blocks = blocks;
    ctx.launchNote +=
        "; blocks traced (%smid, %globaltimer at each block's start and end): the kernel times "
        "include the instrumentation";
  }
  bool on() const { return m_blocks > 0; }
  BlockRecord* records() const { return m_buffer.as<BlockRecord>(); }
  /// The instantiation to launch: `traced` when tracing.
  template <typename Kernel>
  Kernel pick(Kernel plain, Kernel traced) const {
    return on() ? traced : plain;
  }
  /// Copies the records back (after the repetitions, outside their timing) into ctx.blockTrace, relative times.
  void collect(ImplContext& ctx) const {
    if (!on()) return;
    std::vector<BlockRecord> host(m_blocks);
    LAUNCHLAB_CUDA_CHECK(cudaMemcpy(host.data(), m_buffer.get(), m_buffer.bytes(), cudaMemcpyDeviceToHost));
    ctx.blockTrace = relativeBlockRecords(std::move(host));
  }

 private:
  DeviceBuffer m_buffer;
  std::uint64_t m_blocks = 0;
};

}  // namespace launchlab::gpu
