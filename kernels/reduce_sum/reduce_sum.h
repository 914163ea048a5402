#pragma once
// reduce_sum (Session 3, @cuda.reduce sum_reduce; ATLAS tree reduction): the sum of n values, from naive atomics
// through Harris's shared-memory trees to a one-pass warp-shuffle kernel and CUB.
#include <cstdint>
#include <span>
#include <string_view>
#include <type_traits>

#include "common/index_math.h"
#include "launchlab/engine/summation.h"
#include "launchlab/engine/workload.h"

namespace launchlab::kernels::reduce_sum {

/// The type the sums are made in: the data's own, except uint32 for int32 (defined wrap-around, the same bits).
template <typename T>
using Acc = std::conditional_t<std::is_same_v<T, std::int32_t>, std::uint32_t, T>;

/// The reduction tree of x[0:8] as ATLAS draws it, a 4 x 8 output: row 0 = x[0:8] (0 past n), row l = the sums of
/// adjacent pairs of row l - 1 (8 >> l of them, 0 past that): [3,1,7,0,4,1,6,3] -> [4,7,5,9] -> [11,14] -> [25].
constexpr std::size_t kTreeWidth = 8, kTreeLevels = 4;
template <typename A>
LAUNCHLAB_HD void pairwiseTree(const A* x, std::uint64_t n, A* tree) {
  for (std::size_t j = 0; j < kTreeWidth; ++j) tree[j] = j < n ? x[j] : A(0);
  for (std::size_t l = 1; l < kTreeLevels; ++l) {
    const A* up = tree + (l - 1) * kTreeWidth;
    for (std::size_t j = 0; j < kTreeWidth; ++j)
      tree[l * kTreeWidth + j] = j < (kTreeWidth >> l) ? A(up[2 * j] + up[2 * j + 1]) : A(0);
  }
}

/// The tree kernels: the block of the passes that reduce the per-block sums, and a block's tree width (its size
/// rounded up to a power of two, the rest padded with zeros).
constexpr unsigned kLaterPassBlock = 256;
constexpr unsigned nextPow2(unsigned v) {
  unsigned p = 1;
  while (p < v) p <<= 1;
  return p;
}

/// Compensated (Neumaier) sum in float64: error about one rounding of the result, whatever n (the reference).
double neumaierSum(std::span<const float> x);
double neumaierSum(std::span<const double> x);
/// int32 sum with wrapping (two's complement, modulo 2^32) semantics, the same on every implementation.
std::int32_t wrappingSum(std::span<const std::int32_t> x);

/// The order implementation `implId` adds n terms of `dtype` in, for the launch it reported (null: none, or not
/// known); verification derives each implementation's tolerance from it (launchlab/engine/summation.h). An id it does
/// not know (a student's kernel) adds in any order.
SummationOrder summationOrder(std::string_view implId, DType dtype, std::uint64_t n, const LaunchConfig* launch);

void cudaAtomics(ImplContext& ctx);
void cudaNaiveRace(ImplContext& ctx);
void cudaTreeGlobalHalving(ImplContext& ctx);
void cudaTreeInterleaved(ImplContext& ctx);
void cudaTreeSequential(ImplContext& ctx);
void cudaWarpShuffle(ImplContext& ctx);
void cudaCub(ImplContext& ctx);

/// The three ways Session 3 calls its @cuda.reduce sum_reduce (each on cub::DeviceReduce::Sum): on a host array
/// (the input copied up, the sum copied back), with res= (the sum stays on the device: no copy back, read once
/// untimed for verification), and on a device array (no copy up; metric input_untouched checks that the reduction
/// left it as it was, the seed's np.allclose).
enum class CallForm { HostInput, DeviceResult, DeviceInput };
void cudaReduceHostInput(ImplContext& ctx);
void cudaReduceDeviceResult(ImplContext& ctx);
void cudaReduceDeviceInput(ImplContext& ctx);

}  // namespace launchlab::kernels::reduce_sum
