#pragma once
// gaussian_pdf (TP 3.1, @vectorize ufunc): pdf(x) = exp(-((x - mean) / sigma)^2 / 2) / (sigma sqrt(2 pi)).
#include <cmath>
#include <numbers>

#include "launchlab/engine/workload.h"

namespace launchlab::kernels::gaussian_pdf {

/// The one formula both sides evaluate, in the run's precision (the course precomputes sqrt(2 pi) as float32).
template <typename T>
#ifdef __CUDACC__
__host__ __device__
#endif
    inline T
    pdf(T x, T mean, T sigma) {
  constexpr T kSqrt2Pi = T(2.5066282746310002);
  const T z = (x - mean) / sigma;
  return exp(T(-0.5) * z * z) / (sigma * kSqrt2Pi);
}

void cuda(ImplContext& ctx);

}  // namespace launchlab::kernels::gaussian_pdf
