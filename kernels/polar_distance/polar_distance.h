#pragma once
// polar_distance (TP 3.1, CUDA device functions): the distance between two points given in polar coordinates,
// computed by a ufunc that calls a device helper polar_to_cartesian for each point.
#include "common/hd_math.h"
#include "launchlab/engine/workload.h"

namespace launchlab::kernels::polar_distance {

template <typename T>
struct Cartesian {
  T x, y;
};

/// The course's device function: (rho, theta) -> (x, y). Host and device, so the CPU reference is the same code.
template <typename T>
LAUNCHLAB_HD Cartesian<T> polarToCartesian(T rho, T theta) {
  return {rho * hd::cos(theta), rho * hd::sin(theta)};
}

/// ((x1 - x2)^2 + (y1 - y2)^2)^0.5
template <typename T>
LAUNCHLAB_HD T distance(Cartesian<T> p, Cartesian<T> q) {
  const T dx = p.x - q.x;
  const T dy = p.y - q.y;
  return hd::sqrt(dx * dx + dy * dy);
}

void cudaDeviceFunction(ImplContext& ctx);
void cudaNoInline(ImplContext& ctx);
void cudaFastMath(ImplContext& ctx);

}  // namespace launchlab::kernels::polar_distance
