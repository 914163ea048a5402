#pragma once
// go_fast (Session 3, "Performance — Caching"): out = a + sum_i tanh(a[i, i]) on an n x d matrix, the seed's
// @njit function. Its GPU variant compiles the kernel with NVRTC when the run starts, as Numba compiles go_fast at
// its first call, and times that compile and the first call against the later calls.
#include <string_view>

#include "common/hd_math.h"
#include "launchlab/course/exercise.h"
#include "launchlab/engine/workload.h"

namespace launchlab::kernels::go_fast {

/// The trace of tanh over the diagonal, summed in order in double (Numba's trace = 0.0; trace += np.tanh(a[i, i])).
template <typename T>
LAUNCHLAB_HD double traceOfTanh(const T* a, unsigned long long rows, unsigned long long d) {
  double trace = 0.0;
  const unsigned long long diag = rows < d ? rows : d;
  for (unsigned long long i = 0; i < diag; ++i) trace += hd::tanh(double(a[i * d + i]));
  return trace;
}

/// The kernel's source, compiled at run time: every thread sums the diagonal itself (64 tanh for the seed's
/// 64 x 64) and adds it to its element, so one launch is the whole function.
inline constexpr std::string_view kKernelSource = R"(// go_fast, compiled at run time with NVRTC.
__global__ void go_fast(const double* a, double* out, unsigned long long n, unsigned long long d) {
  double trace = 0.0;
  const unsigned long long diag = n < d ? n : d;
  for (unsigned long long i = 0; i < diag; ++i) trace += tanh(a[i * d + i]);
  const unsigned long long stride = (unsigned long long)gridDim.x * blockDim.x;
  for (unsigned long long k = (unsigned long long)blockIdx.x * blockDim.x + threadIdx.x; k < n * d; k += stride)
    out[k] = a[k] + trace;
}
)";

/// The contract NVRTC compiles the source against (exercise.h): a, out, n (rows), d; 1-D launch over n x d.
const Exercise& kernelContract();

void cudaNvrtcFirstCall(ImplContext& ctx);

}  // namespace launchlab::kernels::go_fast
