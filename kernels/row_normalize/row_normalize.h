#pragma once
// row_normalize (Session 3, "Rewriting NumPy array ops"): x[i, :] / x[i, :].mean() for every row, rewritten with
// loops for the GPU: one thread per row (the exercise's rewrite), one warp per row, one block per row.
#include "launchlab/engine/workload.h"

namespace launchlab::kernels::row_normalize {

/// The row sums are accumulated in double for both dtypes (a loop with `s = 0.0` in Numba), and each element is
/// divided by the mean in double before it is stored, as NumPy does for x[i, :] / mean.
using Acc = double;

void cudaThreadPerRow(ImplContext& ctx);
void cudaThreadPerRowInPlace(ImplContext& ctx);
void cudaArrayPasses(ImplContext& ctx);
void cudaWarpPerRow(ImplContext& ctx);
void cudaBlockPerRow(ImplContext& ctx);

}  // namespace launchlab::kernels::row_normalize
