#include "launchlab/device.h"

namespace launchlab {

namespace {
class StatusOnlyGpuRuntime final : public GpuRuntime {
 public:
  explicit StatusOnlyGpuRuntime(DeviceStatus status) : m_status(std::move(status)) {}
  DeviceStatus status() const override { return m_status; }
  std::pair<std::size_t, std::size_t> memoryInfo() const override { return {0, 0}; }
  std::string recoverAfterError() override { return {}; }
  void pushRange(const std::string&) override {}
  void popRange() override {}
  double measureCopyBandwidthGBs(std::size_t, int) override { return 0; }

 private:
  DeviceStatus m_status;
};
}  // namespace

std::shared_ptr<GpuRuntime> makeUnavailableGpuRuntime(std::string reason) {
  DeviceStatus s;
  s.reason = std::move(reason);
  return std::make_shared<StatusOnlyGpuRuntime>(std::move(s));
}

std::shared_ptr<GpuRuntime> makeStaticGpuRuntime(DeviceStatus status) {
  return std::make_shared<StatusOnlyGpuRuntime>(std::move(status));
}

}  // namespace launchlab
