#pragma once
// histogram's kernels, shared with z_mass and histogram_contention (included by .cu files only): the seed's global
// atomics and the shared-memory privatized histogram.
#include <cstddef>
#include <cstdint>

#include "common/block_trace.cuh"
#include "common/index_math.h"
#include "common/vec_load.cuh"
#include "histogram/histogram.h"

namespace launchlab::kernels::histogram {

/// Shared memory the private copies may use per block: small enough that several blocks share an SM.
constexpr std::size_t kPrivateBudgetBytes = 32 * 1024;
constexpr int kUnroll = 4;  // 16-byte vectors in flight per thread

/// As many private copies (a power of two, up to one per lane) as fit kPrivateBudgetBytes; one copy at least,
/// which may need opt-in shared memory.
inline unsigned privateCopiesLog2(int bins) {
  unsigned copiesLog2 = 5;
  while (copiesLog2 > 0 && (std::size_t(bins) << copiesLog2) * sizeof(unsigned) > kPrivateBudgetBytes) --copiesLog2;
  return copiesLog2;
}

// The seed's cuda_histogram: grid-stride loop, one global atomicAdd per counted element. Trace: blocks on SMs
// (common/block_trace.cuh).
template <typename T, typename Trace = gpu::BlockTraceOff>
__global__ void globalAtomicsKernel(const T* __restrict__ x, std::uint64_t n, BinRule<T> rule,
                                    unsigned* __restrict__ counts, BlockRecord* trace = nullptr) {
  Trace::begin(trace);
  const std::uint64_t stride = idx::gridStride1D(gridDim.x, blockDim.x);
  for (std::uint64_t i = idx::global1D(blockIdx.x, blockDim.x, threadIdx.x); i < n; i += stride) {
    const int b = rule(x[i]);
    if (b >= 0) atomicAdd(counts + b, 1u);
  }
  Trace::end(trace);
}

// Privatized: the block counts into 2^copiesLog2 copies of the histogram in shared memory, laid out as
// sh[bin * copies + lane % copies]. With 32 copies the 32 lanes of a warp always hit 32 different words in 32
// different banks, so shared atomics never wait on each other inside a warp, whatever the data. Loads are
// 16-byte vectors, kUnroll in flight per thread, grid-stride. At the end each bin's copies are summed and added
// to the global histogram with one atomic per bin and block.
template <typename T>
__global__ void sharedPrivatizedKernel(const T* __restrict__ x, std::uint64_t n, BinRule<T> rule, unsigned copiesLog2,
                                       unsigned* __restrict__ counts) {
  extern __shared__ unsigned privateCounts[];
  const unsigned copies = 1u << copiesLog2;
  const unsigned bins = unsigned(rule.bins);
  const unsigned words = bins << copiesLog2;
  for (unsigned k = threadIdx.x; k < words; k += blockDim.x) privateCounts[k] = 0;
  __syncthreads();

  const unsigned copy = threadIdx.x & (copies - 1u);
  auto count = [&](T v) {
    const int b = rule(v);
    if (b >= 0) atomicAdd(privateCounts + ((unsigned(b) << copiesLog2) + copy), 1u);
  };
  gpu::gridStrideVec16<kUnroll>(
      x, n, [&](int, const gpu::Vec16T<T>& v) { gpu::forEachLane(v, count); }, count);
  __syncthreads();

  for (unsigned b = threadIdx.x; b < bins; b += blockDim.x) {
    unsigned sum = 0;
    // Start each thread at a different copy so that neighbouring bins read different banks.
    for (unsigned c = 0; c < copies; ++c) sum += privateCounts[(b << copiesLog2) + ((c + b) & (copies - 1u))];
    if (sum) atomicAdd(counts + b, sum);
  }
}

}  // namespace launchlab::kernels::histogram
