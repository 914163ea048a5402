#pragma once
// The CUPTI functions the range profiler calls, looked up in the dlopened libcupti (no link-time dependency), and
// CUPTI's results turned into launchlab's counter errors.
#include <cupti_profiler_host.h>
#include <cupti_range_profiler.h>
#include <cupti_result.h>
#include <cupti_target.h>

#include <stdexcept>
#include <string>

#include "launchlab/engine/counters.h"

namespace launchlab::profiler {

struct CuptiCalls {
  decltype(&cuptiGetResultString) resultString = nullptr;
  decltype(&cuptiProfilerInitialize) initialize = nullptr;
  decltype(&cuptiDeviceGetChipName) chipName = nullptr;
  decltype(&cuptiProfilerGetCounterAvailability) counterAvailability = nullptr;
  decltype(&cuptiProfilerHostInitialize) hostInitialize = nullptr;
  decltype(&cuptiProfilerHostDeinitialize) hostDeinitialize = nullptr;
  decltype(&cuptiProfilerHostGetMetricProperties) metricProperties = nullptr;
  decltype(&cuptiProfilerHostConfigAddMetrics) configAddMetrics = nullptr;
  decltype(&cuptiProfilerHostGetConfigImageSize) configImageSize = nullptr;
  decltype(&cuptiProfilerHostGetConfigImage) configImage = nullptr;
  decltype(&cuptiProfilerHostGetNumOfPasses) numOfPasses = nullptr;
  decltype(&cuptiProfilerHostEvaluateToGpuValues) evaluate = nullptr;
  decltype(&cuptiRangeProfilerEnable) enable = nullptr;
  decltype(&cuptiRangeProfilerDisable) disable = nullptr;
  decltype(&cuptiRangeProfilerGetCounterDataSize) counterDataSize = nullptr;
  decltype(&cuptiRangeProfilerCounterDataImageInitialize) counterDataInitialize = nullptr;
  decltype(&cuptiRangeProfilerSetConfig) setConfig = nullptr;
  decltype(&cuptiRangeProfilerStart) start = nullptr;
  decltype(&cuptiRangeProfilerStop) stop = nullptr;
  decltype(&cuptiRangeProfilerDecodeData) decode = nullptr;
  decltype(&cuptiRangeProfilerGetCounterDataInfo) counterDataInfo = nullptr;
  decltype(&cuptiRangeProfilerCounterDataGetRangeInfo) rangeInfo = nullptr;

  /// Looks every function up in the already loaded `cuptiFile`: ok, or Failed naming the first one missing (a
  /// CUPTI older than CUDA 12.6 has no range profiler).
  CounterError load(const std::string& cuptiFile);
  /// Throws CuptiFailure unless r is CUPTI_SUCCESS; `call` names the step for the message.
  void check(CUptiResult r, const char* call) const;
};

/// A CUPTI call failed: the counter error it means.
struct CuptiFailure : std::runtime_error {
  explicit CuptiFailure(CounterError e) : std::runtime_error(e.detail), error(std::move(e)) {}
  CounterError error;
};

}  // namespace launchlab::profiler
