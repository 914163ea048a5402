#pragma once
/// How an implementation says that its timed phase is not a kernel alone (kept out of result.h, which nearly every
/// file includes: only the implementations that set it and the timing chart that reads it include this).
namespace launchlab {

/// The metric (set to 1) of an implementation whose Kernel phase is a whole pipeline of chunked copies and kernels
/// running at the same time over streams: that time is copies overlapped with kernels, not kernel time alone.
inline constexpr const char* kOverlappedPipelineMetric = "overlapped_pipeline";

}  // namespace launchlab
