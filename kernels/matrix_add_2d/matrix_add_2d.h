#pragma once
// matrix_add_2d (file 001, "Matrices"): out = a + b on rows x cols matrices with a 2-D grid, the thread's x along a
// row (coalesced) or down a column (uncoalesced).
#include "launchlab/workload.h"

namespace launchlab::kernels::matrix_add_2d {

void cudaCoalesced(ImplContext& ctx);
void cudaUncoalesced(ImplContext& ctx);

}  // namespace launchlab::kernels::matrix_add_2d
