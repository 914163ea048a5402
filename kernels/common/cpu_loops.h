#pragma once
/// The loops of the CPU implementations: the same body run by one core (cpu-serial, the reference) or by all
/// cores with OpenMP (cpu-parallel), so the two differ only in how the iterations are shared out.
#include <cstddef>

namespace launchlab::kernels {

/// f(i) for every i in [0, n): serially, or split into static chunks over all cores with SIMD inside each chunk
/// (element-wise bodies: no iteration depends on another).
template <bool Parallel, typename F> void forEachIndex(std::size_t n, F&& f) {
  if constexpr (Parallel) {
#pragma omp parallel for simd schedule(static)
    for (std::size_t i = 0; i < n; ++i) f(i);
  } else {
    for (std::size_t i = 0; i < n; ++i) f(i);
  }
}

/// f(r) for every row r in [0, rows): serially, or rows split into static chunks over all cores (row bodies
/// have inner loops of their own, so no SIMD across rows).
template <bool Parallel, typename F> void forEachRow(std::size_t rows, F&& f) {
  if constexpr (Parallel) {
#pragma omp parallel for schedule(static)
    for (std::size_t r = 0; r < rows; ++r) f(r);
  } else {
    for (std::size_t r = 0; r < rows; ++r) f(r);
  }
}

}  // namespace launchlab::kernels
