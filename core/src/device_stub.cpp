#include "launchlab/device.h"

namespace launchlab {

namespace {
class UnavailableGpuRuntime final : public GpuRuntime {
 public:
  explicit UnavailableGpuRuntime(std::string reason) : m_reason(std::move(reason)) {}
  DeviceStatus status() const override {
    DeviceStatus s;
    s.available = false;
    s.reason = m_reason;
    return s;
  }
  std::pair<std::size_t, std::size_t> memoryInfo() const override { return {0, 0}; }
  std::string recoverAfterError() override { return {}; }
  void pushRange(const std::string&) override {}
  void popRange() override {}
  double measureCopyBandwidthGBs(std::size_t, int) override { return 0; }

 private:
  std::string m_reason;
};
}  // namespace

std::shared_ptr<GpuRuntime> makeUnavailableGpuRuntime(std::string reason) {
  return std::make_shared<UnavailableGpuRuntime>(std::move(reason));
}

}  // namespace launchlab
