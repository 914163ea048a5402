// CUPTI's range profiler around one kernel phase: auto ranges (one per kernel launch), kernel replay (CUPTI runs
// each kernel as many passes as the metrics need and restores the memory it writes in between).
#include <cuda.h>
#include <cuda_runtime_api.h>

#include <chrono>
#include <optional>

#include "cupti_calls.h"
#include "launchlab/profiler/cupti_profiler.h"

namespace launchlab::profiler {

namespace {

/// Kernel launches one phase may hold; more are dropped (and counted as dropped).
constexpr std::size_t kMaxRanges = 256;

template <class P>
P params(std::size_t size) {
  P p{};
  p.structSize = size;
  return p;
}

/// The calling thread's CUDA context, through the runtime's driver entry points (no link to libcuda).
CUcontext currentContext() {
  void* fn = nullptr;
  cudaDriverEntryPointQueryResult found{};
  if (cudaGetDriverEntryPointByVersion("cuCtxGetCurrent", &fn, 12000, cudaEnableDefault, &found) != cudaSuccess || !fn)
    return nullptr;
  CUcontext ctx = nullptr;
  reinterpret_cast<CUresult (*)(CUcontext*)>(fn)(&ctx);
  return ctx;
}

class RangeProfiler final : public CounterProfiler {
 public:
  explicit RangeProfiler(CuptiLibraryNames names) : m_names(std::move(names)) {}
  ~RangeProfiler() override { release(); }

  CounterError libraryProblem() override {
    if (!m_libraries) {
      m_libraries = loadCuptiLibraries(m_names);
      if (m_libraries->ok()) m_libraries = m_calls.load(m_names.cupti);
    }
    return *m_libraries;
  }

  void prepare(const std::vector<std::string>& metrics) override {
    release();
    m_metrics = metrics;
    m_raw = RawCounters{};
    m_hookCalled = false;
  }

  void beforeKernels() override {
    m_hookCalled = true;
    if (!m_raw.error.ok()) return;
    m_start = std::chrono::steady_clock::now();
    try {
      if (CounterError e = libraryProblem(); !e.ok()) throw CuptiFailure(e);
      configure();
      startRanges();
    } catch (const CuptiFailure& f) {
      m_raw.error = f.error;
      release();
    }
  }

  void afterKernels() override {
    if (!m_object || !m_raw.error.ok()) return;
    try {
      collect();
    } catch (const CuptiFailure& f) {
      m_raw.error = f.error;
    }
    release();
    m_raw.profileMs = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - m_start).count();
  }

  RawCounters finish() override {
    if (!m_hookCalled && m_raw.error.ok())
      m_raw.error = {
          CounterErrorKind::Unsupported,
          "this implementation launches its kernels outside the standard pipeline, where counters are taken"};
    release();
    return std::move(m_raw);
  }

 private:
  /// The host object and the configuration image for m_metrics on the current device's chip.
  void configure() {
    if (!m_initialized) {
      auto p = params<CUpti_Profiler_Initialize_Params>(CUpti_Profiler_Initialize_Params_STRUCT_SIZE);
      m_calls.check(m_calls.initialize(&p), "cuptiProfilerInitialize");
      m_initialized = true;
    }
    m_ctx = currentContext();
    int device = 0;
    if (!m_ctx || cudaGetDevice(&device) != cudaSuccess)
      throw CuptiFailure({CounterErrorKind::NoDevice, "no current CUDA context"});
    auto chip = params<CUpti_Device_GetChipName_Params>(CUpti_Device_GetChipName_Params_STRUCT_SIZE);
    chip.deviceIndex = std::size_t(device);
    m_calls.check(m_calls.chipName(&chip), "cuptiDeviceGetChipName");
    auto avail =
        params<CUpti_Profiler_GetCounterAvailability_Params>(CUpti_Profiler_GetCounterAvailability_Params_STRUCT_SIZE);
    avail.ctx = m_ctx;
    m_calls.check(m_calls.counterAvailability(&avail), "cuptiProfilerGetCounterAvailability");
    m_availability.assign(avail.counterAvailabilityImageSize, 0);
    avail.pCounterAvailabilityImage = m_availability.data();
    m_calls.check(m_calls.counterAvailability(&avail), "cuptiProfilerGetCounterAvailability");

    auto host = params<CUpti_Profiler_Host_Initialize_Params>(CUpti_Profiler_Host_Initialize_Params_STRUCT_SIZE);
    host.profilerType = CUPTI_PROFILER_TYPE_RANGE_PROFILER;
    host.pChipName = chip.pChipName;
    host.pCounterAvailabilityImage = m_availability.data();
    m_calls.check(m_calls.hostInitialize(&host), "cuptiProfilerHostInitialize");
    m_host = host.pHostObject;
    selectSupportedMetrics();
    auto add =
        params<CUpti_Profiler_Host_ConfigAddMetrics_Params>(CUpti_Profiler_Host_ConfigAddMetrics_Params_STRUCT_SIZE);
    add.pHostObject = m_host;
    add.ppMetricNames = m_metricPtrs.data();
    add.numMetrics = m_metricPtrs.size();
    m_calls.check(m_calls.configAddMetrics(&add), "cuptiProfilerHostConfigAddMetrics");
    auto size = params<CUpti_Profiler_Host_GetConfigImageSize_Params>(
        CUpti_Profiler_Host_GetConfigImageSize_Params_STRUCT_SIZE);
    size.pHostObject = m_host;
    m_calls.check(m_calls.configImageSize(&size), "cuptiProfilerHostGetConfigImageSize");
    m_config.assign(size.configImageSize, 0);
    auto image =
        params<CUpti_Profiler_Host_GetConfigImage_Params>(CUpti_Profiler_Host_GetConfigImage_Params_STRUCT_SIZE);
    image.pHostObject = m_host;
    image.configImageSize = m_config.size();
    image.pConfigImage = m_config.data();
    m_calls.check(m_calls.configImage(&image), "cuptiProfilerHostGetConfigImage");
    auto passes =
        params<CUpti_Profiler_Host_GetNumOfPasses_Params>(CUpti_Profiler_Host_GetNumOfPasses_Params_STRUCT_SIZE);
    passes.configImageSize = m_config.size();
    passes.pConfigImage = m_config.data();
    m_calls.check(m_calls.numOfPasses(&passes), "cuptiProfilerHostGetNumOfPasses");
    m_raw.passes = int(passes.numOfPasses);
  }

  /// Keeps the metrics this chip knows; the others are reported per counter rather than failing them all.
  void selectSupportedMetrics() {
    m_supported.clear();
    m_metricPtrs.clear();
    for (const auto& m : m_metrics) {
      auto p = params<CUpti_Profiler_Host_GetMetricProperties_Params>(
          CUpti_Profiler_Host_GetMetricProperties_Params_STRUCT_SIZE);
      p.pHostObject = m_host;
      p.pMetricName = m.c_str();
      const CUptiResult r = m_calls.metricProperties(&p);
      if (r == CUPTI_SUCCESS)
        m_supported.push_back(m);
      else {
        const char* text = nullptr;
        m_calls.resultString(r, &text);
        m_raw.unsupportedMetrics[m] = text ? text : "unknown to CUPTI";
      }
    }
    for (const auto& m : m_supported) m_metricPtrs.push_back(m.c_str());
    if (m_metricPtrs.empty())
      throw CuptiFailure({CounterErrorKind::Unsupported, "this GPU counts none of the metrics asked for"});
  }

  void startRanges() {
    auto en = params<CUpti_RangeProfiler_Enable_Params>(CUpti_RangeProfiler_Enable_Params_STRUCT_SIZE);
    en.ctx = m_ctx;
    m_calls.check(m_calls.enable(&en), "cuptiRangeProfilerEnable");
    m_object = en.pRangeProfilerObject;
    auto size = params<CUpti_RangeProfiler_GetCounterDataSize_Params>(
        CUpti_RangeProfiler_GetCounterDataSize_Params_STRUCT_SIZE);
    size.pRangeProfilerObject = m_object;
    size.pMetricNames = m_metricPtrs.data();
    size.numMetrics = m_metricPtrs.size();
    size.maxNumOfRanges = kMaxRanges;
    size.maxNumRangeTreeNodes = uint32_t(kMaxRanges);
    m_calls.check(m_calls.counterDataSize(&size), "cuptiRangeProfilerGetCounterDataSize");
    m_counterData.assign(size.counterDataSize, 0);
    auto init = params<CUpti_RangeProfiler_CounterDataImage_Initialize_Params>(
        CUpti_RangeProfiler_CounterDataImage_Initialize_Params_STRUCT_SIZE);
    init.pRangeProfilerObject = m_object;
    init.counterDataSize = m_counterData.size();
    init.pCounterData = m_counterData.data();
    m_calls.check(m_calls.counterDataInitialize(&init), "cuptiRangeProfilerCounterDataImageInitialize");
    auto cfg = params<CUpti_RangeProfiler_SetConfig_Params>(CUpti_RangeProfiler_SetConfig_Params_STRUCT_SIZE);
    cfg.pRangeProfilerObject = m_object;
    cfg.configSize = m_config.size();
    cfg.pConfig = m_config.data();
    cfg.counterDataImageSize = m_counterData.size();
    cfg.pCounterDataImage = m_counterData.data();
    cfg.range = CUPTI_AutoRange;
    cfg.replayMode = CUPTI_KernelReplay;
    cfg.maxRangesPerPass = kMaxRanges;
    cfg.numNestingLevels = 1;
    cfg.minNestingLevel = 1;
    cfg.passIndex = 0;
    cfg.targetNestingLevel = 1;
    m_calls.check(m_calls.setConfig(&cfg), "cuptiRangeProfilerSetConfig");
    auto start = params<CUpti_RangeProfiler_Start_Params>(CUpti_RangeProfiler_Start_Params_STRUCT_SIZE);
    start.pRangeProfilerObject = m_object;
    m_calls.check(m_calls.start(&start), "cuptiRangeProfilerStart");
  }

  /// Stops, decodes, and evaluates every range's metrics.
  void collect() {
    auto stop = params<CUpti_RangeProfiler_Stop_Params>(CUpti_RangeProfiler_Stop_Params_STRUCT_SIZE);
    stop.pRangeProfilerObject = m_object;
    m_calls.check(m_calls.stop(&stop), "cuptiRangeProfilerStop");
    if (!stop.isAllPassSubmitted)
      throw CuptiFailure({CounterErrorKind::Failed, "CUPTI needed more passes than kernel replay submitted"});
    auto decode = params<CUpti_RangeProfiler_DecodeData_Params>(CUpti_RangeProfiler_DecodeData_Params_STRUCT_SIZE);
    decode.pRangeProfilerObject = m_object;
    m_calls.check(m_calls.decode(&decode), "cuptiRangeProfilerDecodeData");
    m_raw.droppedRanges = decode.numOfRangeDropped;
    auto info = params<CUpti_RangeProfiler_GetCounterDataInfo_Params>(
        CUpti_RangeProfiler_GetCounterDataInfo_Params_STRUCT_SIZE);
    info.pCounterDataImage = m_counterData.data();
    info.counterDataImageSize = m_counterData.size();
    m_calls.check(m_calls.counterDataInfo(&info), "cuptiRangeProfilerGetCounterDataInfo");
    std::vector<double> values(m_metricPtrs.size());
    for (std::size_t i = 0; i < info.numTotalRanges; ++i) {
      auto range = params<CUpti_RangeProfiler_CounterData_GetRangeInfo_Params>(
          CUpti_RangeProfiler_CounterData_GetRangeInfo_Params_STRUCT_SIZE);
      range.pCounterDataImage = m_counterData.data();
      range.counterDataImageSize = m_counterData.size();
      range.rangeIndex = i;
      range.rangeDelimiter = "/";
      m_calls.check(m_calls.rangeInfo(&range), "cuptiRangeProfilerCounterDataGetRangeInfo");
      auto eval = params<CUpti_Profiler_Host_EvaluateToGpuValues_Params>(
          CUpti_Profiler_Host_EvaluateToGpuValues_Params_STRUCT_SIZE);
      eval.pHostObject = m_host;
      eval.pCounterDataImage = m_counterData.data();
      eval.counterDataImageSize = m_counterData.size();
      eval.rangeIndex = i;
      eval.ppMetricNames = m_metricPtrs.data();
      eval.numMetrics = m_metricPtrs.size();
      eval.pMetricValues = values.data();
      m_calls.check(m_calls.evaluate(&eval), "cuptiProfilerHostEvaluateToGpuValues");
      RawRange& r = m_raw.ranges.emplace_back();
      const std::string name = range.rangeName ? range.rangeName : "";
      r.kernel = kernelLabel(name.substr(name.rfind('/') == std::string::npos ? 0 : name.rfind('/') + 1));
      for (std::size_t m = 0; m < m_supported.size(); ++m) r.metrics[m_supported[m]] = values[m];
    }
  }

  /// Disables the range profiler and frees the host object; safe to call at any point.
  void release() {
    if (m_object) {
      auto p = params<CUpti_RangeProfiler_Disable_Params>(CUpti_RangeProfiler_Disable_Params_STRUCT_SIZE);
      p.pRangeProfilerObject = m_object;
      m_calls.disable(&p);
      m_object = nullptr;
    }
    if (m_host) {
      auto p = params<CUpti_Profiler_Host_Deinitialize_Params>(CUpti_Profiler_Host_Deinitialize_Params_STRUCT_SIZE);
      p.pHostObject = m_host;
      m_calls.hostDeinitialize(&p);
      m_host = nullptr;
    }
  }

  CuptiLibraryNames m_names;
  std::optional<CounterError> m_libraries;
  CuptiCalls m_calls;
  bool m_initialized = false;
  std::vector<std::string> m_metrics, m_supported;
  std::vector<const char*> m_metricPtrs;
  std::vector<uint8_t> m_availability, m_config, m_counterData;
  CUcontext m_ctx = nullptr;
  CUpti_Profiler_Host_Object* m_host = nullptr;
  CUpti_RangeProfiler_Object* m_object = nullptr;
  RawCounters m_raw;
  bool m_hookCalled = false;
  std::chrono::steady_clock::time_point m_start;
};

}  // namespace

std::shared_ptr<CounterProfiler> makeCuptiProfiler(CuptiLibraryNames names) {
  return std::make_shared<RangeProfiler>(std::move(names));
}

}  // namespace launchlab::profiler
