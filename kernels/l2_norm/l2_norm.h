#pragma once
// l2_norm (TP 3.1 appendix, generalized ufuncs): the L2 norm of each row of an n x d matrix, the gufunc
// '(i)->()' l2_norm(vec, out); one thread per row (what the gufunc does) against one warp per row.
#include "launchlab/engine/workload.h"

namespace launchlab::kernels::l2_norm {

/// Like the seed's `acc = 0.0` (a Python float), the sum of squares is accumulated in double for both dtypes.
using Acc = double;

void cudaThreadPerRow(ImplContext& ctx);
void cudaWarpPerRow(ImplContext& ctx);

}  // namespace launchlab::kernels::l2_norm
