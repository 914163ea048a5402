#pragma once
// coalescing (file 001, "Effective use of the memory subsystem"): the seed's add_experiment, out[i] = a[s·i] + b[s·i]
// (strided) against out[i] = a[i] + b[i] (coalesced), and the 32-byte sectors one warp's loads touch.
#include <cstddef>
#include <cstdint>

#include "launchlab/engine/workload.h"

namespace launchlab::kernels::coalescing {

/// The DRAM/L2 access granularity: a warp's load is served in 32-byte sectors.
inline constexpr std::uint32_t kSectorBytes = 32;
inline constexpr std::uint32_t kWarp = 32;
/// The largest stride (the parameter's range is 1…kMaxStride); the series output covers every stride up to it.
inline constexpr std::uint64_t kMaxStride = 64;

/// The sector (counted from the array's start, which cudaMalloc aligns to 256 bytes) holding the element that lane
/// `lane` of warp `warp` loads: element stride·(32·warp + lane), of `elemBytes` bytes.
constexpr std::uint64_t sectorOfLane(std::uint64_t stride, std::uint32_t elemBytes, std::uint64_t warp,
                                     std::uint32_t lane) {
  return stride * (warp * kWarp + lane) * elemBytes / kSectorBytes;
}
/// Distinct 32-byte sectors the 32 loads of one warp touch (the lanes' addresses increase, so the count of sector
/// changes from lane to lane, plus one). f32: stride 1 -> 4, 2 -> 8, 4 -> 16, >= 8 -> 32.
constexpr std::uint32_t sectorsPerWarpLoad(std::uint64_t stride, std::uint32_t elemBytes, std::uint64_t warp = 0) {
  std::uint32_t sectors = 1;
  for (std::uint32_t lane = 1; lane < kWarp; ++lane)
    sectors += sectorOfLane(stride, elemBytes, warp, lane) != sectorOfLane(stride, elemBytes, warp, lane - 1);
  return sectors;
}
/// Sectors from warp 0's first to its last load: the columns of the `sectors` picture.
constexpr std::size_t sectorSpan(std::uint64_t stride, std::uint32_t elemBytes) {
  return std::size_t(sectorOfLane(stride, elemBytes, 0, kWarp - 1)) + 1;
}

/// The `sectors` picture's column between its two maps.
inline constexpr std::int32_t kBetweenPictures = -1;
/// Columns of the `sectors` picture: the coalesced map (stride 1), one column between, the map at `stride`.
constexpr std::size_t sectorPicturesWidth(std::uint64_t stride, std::uint32_t elemBytes) {
  return sectorSpan(1, elemBytes) + 1 + sectorSpan(stride, elemBytes);
}

/// The two host-computed pictures every implementation reports (they describe the access, not the data):
/// `sectors` (32 lanes x sectorPicturesWidth): the coalesced kernel's loads (stride 1) on the left, a column of
/// kBetweenPictures, and the strided kernel's at the run's stride on the right, each sector counted from its map's
/// first: at (lane, sector) the number of warp 0's lanes whose load falls in that lane's sector, 0 where the lane
/// does not load; `sectors_per_stride` (2 x kMaxStride, a series): strides 1…64 and the predicted sectors per warp
/// load for the run's element size.
void fillSectorPictures(ImplContext& ctx);

void cudaCoalesced(ImplContext& ctx);
void cudaStrided(ImplContext& ctx);

}  // namespace launchlab::kernels::coalescing
