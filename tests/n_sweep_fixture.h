#pragma once
// An N sweep of vector_add f32 made up for the tests (and the window's crossover screenshot), written by the real
// writer (sweepJson): N = 2^10, 2^12, ..., 2^28; cpu-serial 1 ns per element, cpu-parallel 20 us + 0.1 ns per element,
// cuda-one-per-thread's kernel 5 us + 12 bytes per element at 4 TB/s (3 ps), its total that plus 20 us and the
// copies at 25 GB/s (0.48 ns per element). By hand: at 2^12 the kernel (0.00501 ms) loses to cpu-serial (0.0041 ms),
// at 2^14 it wins (0.00505 < 0.0164) and keeps winning: the GPU wins from 2^14 with the kernel alone; with the copies
// it never beats cpu-parallel (0.48 > 0.1 ns per element), up to 2^28. "Fixture GPU (test data)", never a real GPU.
#include <string>
#include <vector>

#include "sweep_fixture.h"

namespace launchlab::test {

inline SweepPlan nSweepFixturePlan() {
  SweepPlan plan;
  plan.base.workload = "vector_add";
  plan.base.impls = "cpu-serial,cpu-parallel,cuda-one-per-thread";
  SweepAxis n{"n", {}};
  for (int k = 10; k <= 28; k += 2) n.values.push_back("2^" + std::to_string(k));
  plan.axes = {n};
  return plan;
}

inline std::vector<SweepPoint> nSweepFixturePoints() {
  std::vector<SweepPoint> pts;
  for (int k = 10; k <= 28; k += 2) {
    const double n = double(std::uint64_t(1) << k);
    auto add = [&](const char* impl, bool gpu, double computeMs, double totalMs) {
      SweepPoint p;
      p.values = {"2^" + std::to_string(k)};
      p.implId = impl;
      p.gpu = gpu;
      p.kernelMs = p.minMs = p.maxMs = computeMs;
      p.totalMs = totalMs;
      p.bandwidthGBs = 12 * n / (computeMs * 1e6);
      p.outcome = gpu ? Verification::Outcome::Pass : Verification::Outcome::Reference;
      if (gpu) p.launched = LaunchConfig{Dim3{std::uint32_t((std::uint64_t(n) + 255) / 256), 1, 1}, Dim3{256, 1, 1}, 0};
      p.block = gpu ? Dim3{256, 1, 1} : Dim3{1, 1, 1};
      p.threads = p.block.count();
      pts.push_back(p);
    };
    add("cpu-serial", false, n * 1e-6, n * 1e-6);
    add("cpu-parallel", false, 0.02 + n * 1e-7, 0.02 + n * 1e-7);
    const double kernel = 0.005 + n * 3e-9;
    add("cuda-one-per-thread", true, kernel, kernel + 0.02 + n * 4.8e-7);
  }
  return pts;
}

inline std::string nSweepFixtureJson() {
  return sweepJson(nSweepFixturePlan(), nSweepFixturePoints(), fixtureDevice(),
                   {"2026-11-20T10:30:00Z", kFixtureCopyGBs});
}

}  // namespace launchlab::test
