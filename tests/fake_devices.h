#pragma once
// Two fake CUDA devices for the tests of device selection without a GPU: the second has a smaller block limit, so
// validation shows whose limits it used.
#include <string>

#include "launchlab/device.h"

namespace launchlab::test {

inline DeviceInfo fakeDevice(int index, const std::string& name, int maxThreadsPerBlock) {
  DeviceInfo d;
  d.index = index;
  d.name = name;
  d.ccMajor = 9;
  d.multiprocessors = 132;
  d.limits.deviceName = name;
  d.limits.maxThreadsPerBlock = maxThreadsPerBlock;
  d.limits.maxBlockDim.x = std::uint32_t(maxThreadsPerBlock);
  return d;
}

/// "GPU zero" (1024 threads per block) and "GPU one" (512), the first selected.
inline DeviceStatus twoDevices() {
  DeviceStatus s;
  s.available = true;
  s.devices = {fakeDevice(0, "GPU zero", 1024), fakeDevice(1, "GPU one", 512)};
  s.info = s.devices[0];
  return s;
}

}  // namespace launchlab::test
