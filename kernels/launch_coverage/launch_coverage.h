#pragma once
// launch_coverage (TP 3.2, "modify the launch and observe"): one thread per element with the user's grid and
// block and no grid-stride loop; the output is a map of which block wrote each element.
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "common/index_math.h"
#include "launchlab/engine/workload.h"

namespace launchlab::kernels::launch_coverage {

constexpr std::uint32_t kDefaultBlock = 128;  ///< the seed's threads_per_block, used when the block is auto
constexpr std::int32_t kNeverWritten = -1;    ///< map value of an element no thread wrote
constexpr std::int32_t kPadding = -2;         ///< map cells past n (the last row of the image is padded)
/// Largest guard zone (elements) behind the array for the variant without a bounds check: 256 MiB of int32.
constexpr std::uint64_t kMaxGuardElements = std::uint64_t(1) << 26;

/// What each thread writes: its block number (the map of who wrote what), or the seed's value x + y with
/// x = arange(n), y = ones: i + 1, so 1 ... n.
enum class Value { BlockId, SeedSum };
Value parseValue(const std::string& name);
LAUNCHLAB_HD std::int32_t writtenValue(Value v, std::uint64_t i, std::uint32_t block) {
  return v == Value::SeedSum ? std::int32_t(i + 1) : std::int32_t(i / block);
}

/// One thread of the bounds-checked kernel (global index i, blockDim threads per block): the CUDA kernel and the
/// CPU emulation of the launch both run exactly this.
LAUNCHLAB_HD void writeCheckedThread(std::int32_t* map, std::uint64_t n, Value v, std::uint64_t i,
                                     std::uint32_t blockDim) {
  if (i < n) map[i] = writtenValue(v, i, blockDim);
}

/// Threads per block every implementation uses: the user's block.x, or the seed's 128 when auto.
std::uint32_t blockSize(const LaunchRequest& launch);
/// Blocks: the user's grid.x, or ceil(n / block) (the smallest grid that covers n) when auto.
std::uint64_t gridSize(const LaunchRequest& launch, std::uint64_t n);
/// Shape of the map output: ceil(n / width) rows of `width` cells.
std::vector<std::size_t> mapShape(std::uint64_t n, std::uint64_t width);

/// Launch of the variant without a bounds check: every thread with index >= n writes guard[index - n], so the
/// guard must hold grid * block - n elements. When that exceeds maxGuard the grid is reduced (clamped = true).
struct GuardPlan {
  std::uint64_t grid = 0;
  std::uint64_t guardElements = 0;
  bool clamped = false;
};
GuardPlan planGuard(std::uint64_t n, std::uint32_t block, std::uint64_t grid, std::uint64_t maxGuard);

/// The ideal map: element i (< n) holds writtenValue(v, i, block); cells from n on are kPadding.
void fillIdealMap(std::span<std::int32_t> map, std::uint64_t n, std::uint32_t block, Value v, bool parallel);
/// Elements of [0, n) still kNeverWritten.
std::uint64_t countNeverWritten(std::span<const std::int32_t> map, std::uint64_t n);

void cudaBoundsChecked(ImplContext& ctx);
void cudaNoBoundsCheck(ImplContext& ctx);

}  // namespace launchlab::kernels::launch_coverage
