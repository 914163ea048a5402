#pragma once
// row_col_sums (file 001, "Effective use of the memory subsystem"): the seed's col_sums (one thread per column,
// coalesced) and its row_sums counterpart (one thread per row, strided), a block per row with CUB's BlockReduce,
// and cub::DeviceSegmentedReduce as the library reference.
#include <cstdint>
#include <string>

#include "launchlab/engine/workload.h"

namespace launchlab::kernels::row_col_sums {

/// What a launch of `blocks` blocks does to a device of `sms` SMs holding `residentPerSm` such blocks each: the
/// waves (blocks / (sms x residentPerSm)) and the SMs left without a block, e.g. the seed's 64 blocks on 132 SMs.
std::string wavesNote(std::uint64_t blocks, int sms, int residentPerSm);

void cudaThreadPerLine(ImplContext& ctx);
void cudaBlockReduce(ImplContext& ctx);
void cudaCubSegmented(ImplContext& ctx);

}  // namespace launchlab::kernels::row_col_sums
