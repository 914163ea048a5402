#pragma once
// Two fake CUDA devices for the tests of device selection without a GPU: the second has a smaller block limit, so
// validation shows whose limits it used.
#include <string>

#include "launchlab/engine/device.h"
#include "launchlab/files/run_file.h"

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

/// Rewrites the run file `path` as if an NVIDIA H200 (driver 13.0) had measured it on 2026-11-23 09:15 UTC: the run
/// files a student brings from the lab's GPU, opened on a machine without one.
inline void markRecordedOnH200(const std::string& path) {
  RunResult r = runfile::load(path);
  r.device.available = true;
  r.device.reason.clear();
  r.device.info = fakeDevice(0, "NVIDIA H200", 1024);
  r.device.info.driverVersion = 13000;
  r.timestamp = "2026-11-23T09:15:00Z";
  r.sharing = {};  // as recorded on a GPU no other process used (a GPU machine's own test runs may share it)
  runfile::save(path, r);
}

}  // namespace launchlab::test
