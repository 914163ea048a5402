#include "launchlab/engine/cpu_threads.h"

#include <omp.h>

#include <algorithm>
#include <cstdlib>
#include <thread>

namespace launchlab {

int cpuThreadsLeavingCores(int hardwareThreads) {
  const int left = hardwareThreads >= 8 ? 2 : hardwareThreads >= 4 ? 1 : 0;
  return std::max(1, hardwareThreads - left);
}

int cpuThreadsBesideTheWindow() {
  static const int threads = [] {
    const char* set = std::getenv("OMP_NUM_THREADS");
    if (set && *set) return 0;
    return cpuThreadsLeavingCores(int(std::max(1u, std::thread::hardware_concurrency())));
  }();
  return threads;
}

void useCpuThreadsOnThisThread(int threads) {
  if (threads > 0) omp_set_num_threads(threads);
}

}  // namespace launchlab
