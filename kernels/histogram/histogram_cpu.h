#pragma once
// The CPU loops that fill a histogram with a bin rule (histogram.h's BinRule, or any rule with `bins` and
// operator()(x) giving a bin or -1): shared by histogram, z_mass and histogram_contention.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "common/cpu_team.h"

namespace launchlab::kernels::histogram {

/// One core, one histogram.
template <typename T, typename Rule>
void fillSerial(const T* x, std::size_t n, const Rule& rule, std::uint32_t* counts) {
  std::fill(counts, counts + rule.bins, 0u);
  for (std::size_t i = 0; i < n; ++i) {
    const int b = rule(x[i]);
    if (b >= 0) ++counts[b];
  }
}

/// Privatization on the CPU: one histogram per thread (no sharing while counting), merged at the end.
template <typename T, typename Rule>
void fillParallel(const T* x, std::size_t n, const Rule& rule, std::uint32_t* counts) {
  const int bins = rule.bins;
  std::fill(counts, counts + bins, 0u);
#pragma omp parallel num_threads(cpuTeam(n))
  {
    std::vector<std::uint32_t> mine(std::size_t(bins), 0u);
#pragma omp for schedule(static) nowait
    for (std::size_t i = 0; i < n; ++i) {
      const int b = rule(x[i]);
      if (b >= 0) ++mine[std::size_t(b)];
    }
#pragma omp critical(launchlab_histogram_merge)
    for (int b = 0; b < bins; ++b) counts[b] += mine[std::size_t(b)];
  }
}

/// fillSerial or fillParallel.
template <bool Parallel, typename T, typename Rule>
void fill(const T* x, std::size_t n, const Rule& rule, std::uint32_t* counts) {
  if constexpr (Parallel)
    fillParallel(x, n, rule, counts);
  else
    fillSerial(x, n, rule, counts);
}

}  // namespace launchlab::kernels::histogram
