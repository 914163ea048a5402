#pragma once
/// How many OpenMP threads a cpu-parallel loop starts: enough that each gets at least a grain of work. Below that,
/// starting and joining the team costs more than the work it shares out, and the loop waits for its slowest
/// member: one thread the scheduler delays (another program, the window drawing, a virtual machine's busy host)
/// holds the whole loop for a time slice, 4–8 ms against microseconds of work. Measured on the H200's 16-core host
/// with the window open: a 10,000-element histogram took 8 ms on 16 threads, 0.009 ms on 8, 0.03 ms on one.
/// PyTorch's at::parallel_for uses the same grain, for the same reason.
#include <omp.h>

#include <algorithm>
#include <cstddef>

namespace launchlab::kernels {

/// Items (elements, or their equivalent in work) each thread of a cpu-parallel loop gets at least.
inline constexpr std::size_t kCpuGrain = 32768;

/// The team for a loop over `items`: 1 when there is less than two grains of work, else one thread per grain, at
/// most OpenMP's maximum (OMP_NUM_THREADS, or every core).
inline int cpuTeam(std::size_t items, std::size_t grain = kCpuGrain) {
  const std::size_t most = std::size_t(std::max(1, omp_get_max_threads()));
  return int(std::clamp<std::size_t>(items / std::max<std::size_t>(grain, 1), 1, most));
}

}  // namespace launchlab::kernels
