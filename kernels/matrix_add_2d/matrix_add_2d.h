#pragma once
// matrix_add_2d (file 001, "Matrices"): out = a + b on rows x cols matrices with a 2-D grid, the thread's x along a
// row (coalesced) or down a column (uncoalesced).
#include <cstddef>
#include <cstdint>

#include "launchlab/engine/workload.h"

namespace launchlab::kernels::matrix_add_2d {

/// The seed's get_2D_indices launch: a 4 x 4 matrix, blocks = (2, 2), threads_per_block = (2, 2).
inline constexpr std::uint32_t kMapBlocks = 2, kMapThreads = 2;
/// The picture's side: kMapBlocks x kMapThreads cells plus one separator line between neighbouring blocks.
inline constexpr std::size_t kMapSide = kMapBlocks * kMapThreads + kMapBlocks - 1;

/// Fills the `thread_map` output (kMapSide x kMapSide, f64): what get_2D_indices writes, A[x][y] = x + y / 10 with
/// x, y = cuda.grid(2) of every thread of the seed's launch (the index math of idx::global1D, run on the host), at
/// row x and column y, and -1 on the lines that separate the blocks. Every implementation reports it.
void fillThreadMap(HostArray& map);

void cudaCoalesced(ImplContext& ctx);
void cudaCoalescedVec16(ImplContext& ctx);
void cudaUncoalesced(ImplContext& ctx);

}  // namespace launchlab::kernels::matrix_add_2d
