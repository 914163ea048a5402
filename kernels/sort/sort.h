#pragma once
// sort (ATLAS GPU training, "What this looks like to CUDA"): cp.random.uniform(5, 10, 100000000).sort() seen in the
// profiler. On the GPU, CUB's radix sort (what CuPy's sort of a float64 array runs); on the CPU, std::sort.
#include "launchlab/engine/workload.h"

namespace launchlab::kernels::sort {

void cudaCubRadix(ImplContext& ctx);

}  // namespace launchlab::kernels::sort
