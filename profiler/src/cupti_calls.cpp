#include "cupti_calls.h"

#include <dlfcn.h>

namespace launchlab::profiler {

namespace {
template <class F>
bool lookUp(void* lib, const char* name, F& out) {
  out = reinterpret_cast<F>(dlsym(lib, name));
  return out != nullptr;
}
}  // namespace

CounterError CuptiCalls::load(const std::string& cuptiFile) {
  void* lib = dlopen(cuptiFile.c_str(), RTLD_NOW | RTLD_GLOBAL | RTLD_NOLOAD);
  if (!lib) return {CounterErrorKind::LibraryMissing, cuptiFile};
#define LAUNCHLAB_CUPTI(member, fn) \
  if (!lookUp(lib, #fn, member))    \
    return {CounterErrorKind::Failed, cuptiFile + " has no " #fn " (CUPTI of CUDA 13 needed)"};
  LAUNCHLAB_CUPTI(resultString, cuptiGetResultString)
  LAUNCHLAB_CUPTI(initialize, cuptiProfilerInitialize)
  LAUNCHLAB_CUPTI(chipName, cuptiDeviceGetChipName)
  LAUNCHLAB_CUPTI(counterAvailability, cuptiProfilerGetCounterAvailability)
  LAUNCHLAB_CUPTI(hostInitialize, cuptiProfilerHostInitialize)
  LAUNCHLAB_CUPTI(hostDeinitialize, cuptiProfilerHostDeinitialize)
  LAUNCHLAB_CUPTI(metricProperties, cuptiProfilerHostGetMetricProperties)
  LAUNCHLAB_CUPTI(configAddMetrics, cuptiProfilerHostConfigAddMetrics)
  LAUNCHLAB_CUPTI(configImageSize, cuptiProfilerHostGetConfigImageSize)
  LAUNCHLAB_CUPTI(configImage, cuptiProfilerHostGetConfigImage)
  LAUNCHLAB_CUPTI(numOfPasses, cuptiProfilerHostGetNumOfPasses)
  LAUNCHLAB_CUPTI(evaluate, cuptiProfilerHostEvaluateToGpuValues)
  LAUNCHLAB_CUPTI(enable, cuptiRangeProfilerEnable)
  LAUNCHLAB_CUPTI(disable, cuptiRangeProfilerDisable)
  LAUNCHLAB_CUPTI(counterDataSize, cuptiRangeProfilerGetCounterDataSize)
  LAUNCHLAB_CUPTI(counterDataInitialize, cuptiRangeProfilerCounterDataImageInitialize)
  LAUNCHLAB_CUPTI(setConfig, cuptiRangeProfilerSetConfig)
  LAUNCHLAB_CUPTI(start, cuptiRangeProfilerStart)
  LAUNCHLAB_CUPTI(stop, cuptiRangeProfilerStop)
  LAUNCHLAB_CUPTI(decode, cuptiRangeProfilerDecodeData)
  LAUNCHLAB_CUPTI(counterDataInfo, cuptiRangeProfilerGetCounterDataInfo)
  LAUNCHLAB_CUPTI(rangeInfo, cuptiRangeProfilerCounterDataGetRangeInfo)
#undef LAUNCHLAB_CUPTI
  return {};
}

void CuptiCalls::check(CUptiResult r, const char* call) const {
  if (r == CUPTI_SUCCESS) return;
  const char* text = nullptr;
  if (resultString) resultString(r, &text);
  const std::string what = std::string(call) + ": " + (text ? text : "CUPTI error " + std::to_string(int(r)));
  switch (r) {
    case CUPTI_ERROR_INSUFFICIENT_PRIVILEGES:
    case CUPTI_ERROR_VIRTUALIZED_DEVICE_INSUFFICIENT_PRIVILEGES:
      throw CuptiFailure({CounterErrorKind::NotPermitted, what});
    case CUPTI_ERROR_NOT_SUPPORTED:
    case CUPTI_ERROR_CMP_DEVICE_NOT_SUPPORTED:
    case CUPTI_ERROR_MIG_DEVICE_NOT_SUPPORTED:
      throw CuptiFailure({CounterErrorKind::Unsupported, what});
    default:
      throw CuptiFailure({CounterErrorKind::Failed, what});
  }
}

}  // namespace launchlab::profiler
