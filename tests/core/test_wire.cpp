// The worker's wire format: requests, results with their arrays, and device status survive a round trip.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>

#include "launchlab/io/wire.h"
#include "launchlab/rng.h"

using namespace launchlab;

TEST(Wire, DeviceStatusRoundTrip) {
  DeviceStatus s;
  s.available = true;
  auto& d = s.info;
  d.index = 0;
  d.name = "NVIDIA H200";
  d.ccMajor = 9;
  d.ccMinor = 0;
  d.multiprocessors = 132;
  d.maxThreadsPerMultiprocessor = 2048;
  d.maxBlocksPerMultiprocessor = 32;
  d.registersPerBlock = 65536;
  d.registersPerMultiprocessor = 65536;
  d.sharedMemPerMultiprocessor = 233472;
  d.totalGlobalMem = 150754820096ull;
  d.l2CacheBytes = 62914560;
  d.memoryBusWidthBits = 6144;
  d.memoryClockKHz = 3201000;
  d.clockKHz = 1980000;
  d.theoreticalBandwidthGBs = 4917.1;
  d.driverVersion = 13000;
  d.runtimeVersion = 13000;
  d.eccEnabled = true;
  d.limits.deviceName = d.name;
  d.limits.sharedMemPerBlockOptin = 232448;
  DeviceStatus t = wire::decodeDevice(wire::encodeDevice(s));
  EXPECT_TRUE(t.available);
  EXPECT_EQ(t.info.name, "NVIDIA H200");
  EXPECT_EQ(t.info.ccMajor, 9);
  EXPECT_EQ(t.info.multiprocessors, 132);
  EXPECT_EQ(t.info.totalGlobalMem, d.totalGlobalMem);
  EXPECT_EQ(t.info.limits.deviceName, "NVIDIA H200");
  EXPECT_EQ(t.info.limits.maxGridDim, d.limits.maxGridDim);
  EXPECT_EQ(t.info.limits.sharedMemPerBlockOptin, 232448u);
  EXPECT_DOUBLE_EQ(t.info.theoreticalBandwidthGBs, 4917.1);

  DeviceStatus none;
  none.reason = "no CUDA device found";
  DeviceStatus u = wire::decodeDevice(wire::encodeDevice(none));
  EXPECT_FALSE(u.available);
  EXPECT_EQ(u.reason, "no CUDA device found");
}

TEST(Wire, RequestRoundTrip) {
  RunRequest r;
  r.workload = "histogram";
  r.n = 1 << 20;
  r.dtype = DType::F64;
  r.launch.block = Dim3{16, 16, 1};
  r.impls = {"cpu-serial", "cuda-cub"};
  r.reps = 7;
  r.warmup = 2;
  r.seed = 99;
  r.params = {{"bins", "256"}};
  r.inputFiles = {{"x", "/tmp/x.npy"}};
  r.keepOutputs = true;
  RunRequest t = wire::decodeRequest(wire::encodeRequest(r));
  EXPECT_EQ(t.workload, "histogram");
  EXPECT_EQ(t.n, r.n);
  EXPECT_EQ(t.dtype, DType::F64);
  EXPECT_EQ(t.launch.block, r.launch.block);
  EXPECT_FALSE(t.launch.grid.has_value());
  EXPECT_EQ(t.impls, r.impls);
  EXPECT_EQ(t.reps, 7);
  EXPECT_EQ(t.params, r.params);
  EXPECT_EQ(t.inputFiles, r.inputFiles);
  EXPECT_TRUE(t.keepOutputs);
  EXPECT_FALSE(t.keepInputs);
}

TEST(Wire, ResultRoundTripKeepsArraysAndFigures) {
  RunResult r;
  r.workload = "vector_add";
  r.n = 1001;
  r.dtype = "f32";
  HostArray x("x", DType::F32, {1001});
  fillUniform(x, -1, 1, 3, 0);
  r.inputs.push_back(x);
  ImplResult i;
  i.implId = "cuda-vectorized";
  i.gpu = true;
  i.launch = LaunchConfig{Dim3{4, 1, 1}, Dim3{256, 1, 1}, 0};
  i.launchNote = "auto grid";
  i.phases[Phase::Kernel] = {0.25, 0.2, 0.3, 5};
  i.bandwidthGBs = 4200;
  i.metrics["lost_updates"] = 12;
  i.verification.outcome = Verification::Outcome::Fail;
  i.verification.maxAbsError = INFINITY;  // poisoned outputs
  i.verification.firstMismatches = {3, 17};
  HostArray o("out", DType::I32, {7, 11});
  fillUniform(o, 0, 1000, 4, 0);
  i.outputs.push_back(o);
  r.impls.push_back(i);
  RunResult t = wire::decodeResult(wire::encodeResult(r));
  ASSERT_EQ(t.inputs.size(), 1u);
  EXPECT_EQ(std::memcmp(t.inputs[0].data(), x.data(), x.bytes()), 0);
  ASSERT_EQ(t.impls.size(), 1u);
  const auto& ti = t.impls[0];
  EXPECT_EQ(ti.implId, "cuda-vectorized");
  EXPECT_EQ(ti.launch->grid, (Dim3{4, 1, 1}));
  EXPECT_EQ(ti.phases.at(Phase::Kernel).samples, 5);
  EXPECT_DOUBLE_EQ(ti.phases.at(Phase::Kernel).medianMs, 0.25);
  EXPECT_EQ(ti.metrics.at("lost_updates"), 12);
  EXPECT_EQ(ti.verification.outcome, Verification::Outcome::Fail);
  EXPECT_TRUE(std::isinf(ti.verification.maxAbsError));
  EXPECT_EQ(ti.verification.firstMismatches, (std::vector<std::uint64_t>{3, 17}));
  ASSERT_EQ(ti.outputs.size(), 1u);
  EXPECT_EQ(ti.outputs[0].shape(), (std::vector<std::size_t>{7, 11}));
  EXPECT_EQ(std::memcmp(ti.outputs[0].data(), o.data(), o.bytes()), 0);
}
