#pragma once
// What the launch tests (1-D and 2-D) share: an H200's limits, and the check that a simulated launch visited every
// element exactly once.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "launchlab/engine/launch_config.h"

namespace launchlab::test {

inline DeviceLimits h200() {
  DeviceLimits l;
  l.deviceName = "NVIDIA H200";
  l.sharedMemPerBlockOptin = 227 * 1024;
  return l;
}

/// Every count is 1; otherwise the first few wrong indices and how many there are.
inline void expectAllOnce(const std::vector<int>& v, const std::string& what) {
  std::size_t bad = 0;
  for (std::size_t i = 0; i < v.size(); ++i)
    if (v[i] != 1 && bad++ < 3) ADD_FAILURE() << what << ": index " << i << " visited " << v[i] << " times";
  EXPECT_EQ(bad, 0u) << what << ": " << bad << " of " << v.size() << " elements not visited exactly once";
}

}  // namespace launchlab::test
