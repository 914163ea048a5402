#include "launchlab/engine/device.h"

namespace launchlab {

namespace {
class StatusOnlyGpuRuntime final : public GpuRuntime {
 public:
  explicit StatusOnlyGpuRuntime(DeviceStatus status) : m_status(std::move(status)) {}
  DeviceStatus status() const override { return m_status; }
  std::pair<std::size_t, std::size_t> memoryInfo() const override { return {0, 0}; }
  std::string recoverAfterError() override { return {}; }
  /// A status obtained elsewhere follows the selection (validation against the chosen device's limits).
  std::string selectDevice(int index) override {
    std::string why = deviceProblem(m_status, index);
    if (!why.empty()) return why;
    m_status.info = m_status.devices[std::size_t(index)];
    m_status.available = true;
    m_status.reason.clear();
    return {};
  }
  void pushRange(const std::string&) override {}
  void popRange() override {}
  double measureCopyBandwidthGBs(std::size_t, int) override { return 0; }

 private:
  DeviceStatus m_status;
};
}  // namespace

std::string deviceProblem(const DeviceStatus& s, int index) {
  if (s.devices.empty()) return "no CUDA device" + (s.reason.empty() ? std::string() : " (" + s.reason + ")");
  const int count = int(s.devices.size());
  if (index >= 0 && index < count) return {};
  const std::string range = count == 1
                                ? "1 CUDA device (0)"
                                : std::to_string(count) + " CUDA devices (0 to " + std::to_string(count - 1) + ")";
  return "device " + std::to_string(index) + " does not exist: this machine has " + range;
}

std::shared_ptr<GpuRuntime> makeUnavailableGpuRuntime(std::string reason) {
  DeviceStatus s;
  s.reason = std::move(reason);
  return std::make_shared<StatusOnlyGpuRuntime>(std::move(s));
}

std::shared_ptr<GpuRuntime> makeStaticGpuRuntime(DeviceStatus status) {
  return std::make_shared<StatusOnlyGpuRuntime>(std::move(status));
}

}  // namespace launchlab
