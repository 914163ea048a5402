// A build without CUDA: nothing to profile.
#include "launchlab/profiler/cupti_profiler.h"

namespace launchlab::profiler {

namespace {
class NoCudaProfiler final : public CounterProfiler {
 public:
  CounterError libraryProblem() override { return {}; }
  void prepare(const std::vector<std::string>&) override {}
  void beforeKernels() override {}
  void afterKernels() override {}
  RawCounters finish() override {
    RawCounters r;
    r.error = {CounterErrorKind::NoDevice, "this build has no CUDA"};
    return r;
  }
};
}  // namespace

std::shared_ptr<CounterProfiler> makeCuptiProfiler(CuptiLibraryNames) { return std::make_shared<NoCudaProfiler>(); }

}  // namespace launchlab::profiler
