#pragma once
// hypot (TP 3.2 exercise hypot_stride): c = hypot(a, b) with a grid-stride loop.
#include "launchlab/engine/workload.h"

namespace launchlab::kernels::hypot_workload {

void cudaGridStride(ImplContext& ctx);

}  // namespace launchlab::kernels::hypot_workload
