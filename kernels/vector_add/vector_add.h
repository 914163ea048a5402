#pragma once
// vector_add (TP 3.2, add_kernel): out = x + y.
#include "launchlab/workload.h"

namespace launchlab::kernels::vector_add {

void cudaOnePerThread(ImplContext& ctx);
void cudaGridStride(ImplContext& ctx);
void cudaVectorized(ImplContext& ctx);

}  // namespace launchlab::kernels::vector_add
