#pragma once
// A block x grid sweep of vector_add's cuda-grid-stride made up for the tests and written by the real writer
// (sweepJson): 3 blocks (128, 256, 512) x 2 grids (132, 264), n = 2^20 f32 (12 MiB moved), kernel time
// 0.010 ms x (1 + block / 512) x (1 + 132 / grid) (so block 128 grid 264: 0.010 x 1.25 x 1.5 = 0.01875 ms), one
// skipped cell (block 512, grid 264), a cudaMemcpy ceiling of 2000 GB/s, measured by "Fixture GPU (test data)"
// (132 SMs, sm_90) on 2026-11-20 10:30 UTC. Never presented as a real GPU's numbers.
#include <string>
#include <vector>

#include "fake_devices.h"
#include "launchlab/explorer/sweep.h"

namespace launchlab::test {

inline constexpr double kFixtureBytes = 3.0 * 4 * (1 << 20);
inline constexpr double kFixtureCopyGBs = 2000;

inline double fixtureKernelMs(double block, double grid) { return 0.010 * (1 + block / 512) * (1 + 132 / grid); }

inline SweepPlan fixtureSweepPlan() {
  SweepPlan plan;
  plan.base.workload = "vector_add";
  plan.base.n = "1048576";
  plan.base.impls = "cuda-grid-stride";
  plan.axes = {{"block", {"128", "256", "512"}}, {"grid", {"132", "264"}}};
  return plan;
}

inline std::vector<SweepPoint> fixtureSweepPoints() {
  std::vector<SweepPoint> pts;
  for (const char* b : {"128", "256", "512"})
    for (const char* g : {"132", "264"}) {
      SweepPoint p;
      p.values = {b, g};
      p.implId = "cuda-grid-stride";
      p.block = Dim3{std::uint32_t(std::stoul(b)), 1, 1};
      p.threads = p.block.count();
      if (std::string(b) == "512" && std::string(g) == "264") {
        p.status = Status::Skipped;
        p.reason = "made-up skip for the tests";
        pts.push_back(p);
        continue;
      }
      p.kernelMs = p.minMs = p.maxMs = fixtureKernelMs(std::stod(b), std::stod(g));
      p.maxMs *= 1.1;
      p.totalMs = 3 * p.kernelMs;
      p.bandwidthGBs = kFixtureBytes / (p.kernelMs * 1e6);
      p.launched = LaunchConfig{Dim3{std::uint32_t(std::stoul(g)), 1, 1}, p.block, 0};
      p.outcome = Verification::Outcome::Pass;
      pts.push_back(p);
    }
  return pts;
}

inline DeviceStatus fixtureDevice() {
  DeviceStatus s;
  s.available = true;
  s.info = fakeDevice(0, "Fixture GPU (test data)", 1024);
  s.info.driverVersion = 13000;
  s.devices = {s.info};
  return s;
}

inline std::string fixtureSweepJson() {
  return sweepJson(fixtureSweepPlan(), fixtureSweepPoints(), fixtureDevice(),
                   {"2026-11-20T10:30:00Z", kFixtureCopyGBs});
}

}  // namespace launchlab::test
