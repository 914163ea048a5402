#pragma once
/// The counter profiler of launchlab/engine/counters.h over CUPTI's range profiler (CUDA 13: cupti_range_profiler.h and
/// cupti_profiler_host.h). CUPTI is loaded at run time, so the program starts, and everything but the counters
/// works, where its libraries are absent; the counters then say which library is missing.
#include <memory>
#include <string>

#include "launchlab/engine/counters.h"

namespace launchlab::profiler {

/// The libraries to load (file names as dlopen takes them). libcupti loads the two libnvperf libraries itself;
/// they are looked for first so that a missing one is named.
struct CuptiLibraryNames {
  std::string cupti = "libcupti.so.13";
  std::string nvperfHost = "libnvperf_host.so";
  std::string nvperfTarget = "libnvperf_target.so";
};

/// Loads each library (kept loaded): ok, or LibraryMissing naming the first that is not found.
CounterError loadCuptiLibraries(const CuptiLibraryNames& names);

/// The range profiler: each kernel of a profiled kernel phase is one range (CUPTI's auto range), replayed by CUPTI
/// as many passes as the metrics need (kernel replay). In a build without CUDA every profile reports NoDevice.
std::shared_ptr<CounterProfiler> makeCuptiProfiler(CuptiLibraryNames names = {});

/// "void launchlab::kernels::transpose::tiledKernel<float, true>(float const*, float*, int, int)" → its name as a
/// student reads it: "transpose::tiledKernel<float, true>". Mangled names are demangled first.
std::string kernelLabel(const std::string& rangeName);

}  // namespace launchlab::profiler
