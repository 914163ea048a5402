// The worker's wire format: requests, results with their arrays, and device status survive a round trip, and
// malformed messages are errors (BadInput), never crashes.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <nlohmann/json.hpp>

#include "full_result.h"
#include "launchlab/engine/errors.h"
#include "launchlab/engine/rng.h"
#include "launchlab/worker/wire.h"

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
  r.traceBlocks = true;
  r.compareOnDevice = true;
  r.verify = false;
  EXPECT_FALSE(wire::decodeRequest(wire::encodeRequest(RunRequest{})).traceBlocks);
  EXPECT_FALSE(wire::decodeRequest(wire::encodeRequest(RunRequest{})).compareOnDevice);
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
  EXPECT_TRUE(t.traceBlocks);
  EXPECT_TRUE(t.compareOnDevice);
  EXPECT_FALSE(t.verify);
  EXPECT_TRUE(wire::decodeRequest(wire::encodeRequest(RunRequest{})).verify);
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

namespace {
/// A frame as wire.cpp writes it: [8-byte JSON length][JSON][blob].
std::string frame(const std::string& json, const std::string& blob = {}, std::uint64_t length = ~0ull) {
  std::uint64_t n = length == ~0ull ? json.size() : length;
  std::string out(8, '\0');
  std::memcpy(out.data(), &n, 8);
  return out + json + blob;
}
/// Decoding either works or says why with BadInput; any other exception (or a crash) fails.
bool decodesOrSaysWhy(std::string_view bytes) {
  try {
    wire::decodeResult(bytes);
  } catch (const BadInput&) {
  }
  return true;
}
/// The sample with the names a worker may send (they become file names: io/result_check.h), everything else as it
/// is (titles, reasons and notes keep their Unicode).
RunResult wireSafe(RunResult r) {
  auto renamed = [](const HostArray& a, const std::string& name) {
    HostArray b(name, a.dtype(), a.shape());
    if (a.bytes()) std::memcpy(b.data(), a.data(), a.bytes());
    return b;
  };
  for (std::size_t k = 0; k < r.inputs.size(); ++k) r.inputs[k] = renamed(r.inputs[k], "in" + std::to_string(k));
  for (std::size_t i = 0; i < r.impls.size(); ++i) {
    r.impls[i].implId = "impl-" + std::to_string(i);
    auto& outs = r.impls[i].outputs;
    for (std::size_t k = 0; k < outs.size(); ++k) outs[k] = renamed(outs[k], "out" + std::to_string(k));
  }
  return r;
}
}  // namespace

TEST(Wire, WholeResultWithArraysRoundTrips) {
  const RunResult r = wireSafe(sample::fullResult());
  const RunResult t = wire::decodeResult(wire::encodeResult(r));
  EXPECT_TRUE(t.device == r.device);
  EXPECT_EQ(t.inputs, r.inputs);
  ASSERT_EQ(t.impls.size(), r.impls.size());
  for (std::size_t k = 0; k < r.impls.size(); ++k) {
    EXPECT_EQ(t.impls[k].outputs, r.impls[k].outputs) << k;
    EXPECT_TRUE(t.impls[k] == r.impls[k]) << k;
  }
  EXPECT_TRUE(t == r);

  sample::Distinct v;
  RunResult u = r;
  u.device = sample::unavailableDevice(v);
  EXPECT_TRUE(wire::decodeResult(wire::encodeResult(u)) == u);
}

TEST(Wire, MalformedResultsAreBadInput) {
  const std::string good = wire::encodeResult(wireSafe(sample::fullResult()));
  ASSERT_NO_THROW(wire::decodeResult(good));
  // Every truncation, including inside the 8-byte length, the JSON and the arrays' bytes.
  for (std::size_t n = 0; n < good.size(); n += (n < 64 || good.size() - n < 64) ? 1 : 97)
    EXPECT_THROW(wire::decodeResult(std::string_view(good).substr(0, n)), BadInput) << "prefix of " << n;
  EXPECT_THROW(wire::decodeResult(frame("{}", {}, ~0ull - 4)), BadInput);  // length that wraps past the end
  EXPECT_THROW(wire::decodeResult(frame("{\"schema\": ")), BadInput);
  EXPECT_THROW(wire::decodeResult(frame("[1, 2, 3]")), BadInput);
  EXPECT_THROW(wire::decodeResult(frame("{}")), BadInput);
  // Arrays that lie outside the message, overflow, or whose shape does not match their size: refused before
  // anything is allocated.
  auto withInput = [](const std::string& desc) {
    auto j = nlohmann::ordered_json::parse(wire::encodeResult(RunResult{}).substr(8));
    j["inputs"] = nlohmann::ordered_json::array({nlohmann::ordered_json::parse(desc)});
    return frame(j.dump(), std::string(64, 'x'));
  };
  ASSERT_NO_THROW(wire::decodeResult(withInput(R"({"name":"x","dtype":"f32","shape":[4,4],"offset":0,"bytes":64})")));
  for (const char* desc : {R"({"name":"x","dtype":"f32","shape":[4,4],"offset":8,"bytes":64})",
                           R"({"name":"x","dtype":"f32","shape":[4,4],"offset":18446744073709551615,"bytes":64})",
                           R"({"name":"x","dtype":"f32","shape":[4,4],"offset":1,"bytes":18446744073709551615})",
                           R"({"name":"x","dtype":"f32","shape":[4294967296,4294967296],"offset":0,"bytes":0})",
                           R"({"name":"x","dtype":"f32","shape":[1099511627776],"offset":0,"bytes":64})",
                           R"({"name":"x","dtype":"f32","shape":[3],"offset":0,"bytes":64})",
                           R"({"name":"x","dtype":"f16","shape":[4,4],"offset":0,"bytes":64})",
                           R"({"name":"x","dtype":"f32","shape":"4x4","offset":0,"bytes":64})",
                           R"({"name":"x","dtype":"f32","shape":[-4,4],"offset":0,"bytes":64})"})
    EXPECT_THROW(wire::decodeResult(withInput(desc)), BadInput) << desc;
  // A flipped byte anywhere either still decodes (inside the arrays' bytes) or is BadInput.
  for (std::size_t k = 0; k < good.size(); k += 13) {
    std::string bad = good;
    bad[k] = char(bad[k] ^ 0x5A);
    EXPECT_TRUE(decodesOrSaysWhy(bad)) << "byte " << k;
  }
}

TEST(Wire, MalformedRequestsDevicesAndProgressAreBadInput) {
  for (const std::string& bad : {std::string("abc"), frame("nope"), frame("{}"), frame("[]"), frame("{}", {}, 99)}) {
    EXPECT_THROW(wire::decodeRequest(bad), BadInput);
    EXPECT_THROW(wire::decodeDevice(bad), BadInput);
    EXPECT_THROW(wire::decodeProgress(bad), BadInput);
  }
  auto req = nlohmann::ordered_json::parse(wire::encodeRequest(RunRequest{}).substr(8));
  req["dtype"] = "f16";
  EXPECT_THROW(wire::decodeRequest(frame(req.dump())), BadInput);
  req["dtype"] = "f64";
  req["block"] = {1, 2, 3, 4};
  EXPECT_THROW(wire::decodeRequest(frame(req.dump())), BadInput);
  req.erase("block");
  EXPECT_EQ(wire::decodeRequest(frame(req.dump())).dtype, DType::F64);
  EXPECT_THROW(wire::decodeDevice(frame(R"({"available": true, "name": "x"})")), BadInput);
}

// A request with n = 1.5 was run with n = 1. Every whole number of a message (the request's n, seed,
// repetitions and launch shape; the result's counts; an array's shape) must be a JSON integer within its type.
TEST(Wire, NonIntegersWhereIntegersBelongAreBadInput) {
  RunRequest base;
  base.workload = "hypot";
  base.n = 1000;
  base.launch.block = Dim3{256, 1, 1};
  const auto good = nlohmann::ordered_json::parse(wire::encodeRequest(base).substr(8));
  ASSERT_EQ(wire::decodeRequest(frame(good.dump())).n, 1000u);
  const std::vector<std::pair<const char*, nlohmann::ordered_json>> bad = {{"n", 1.5},
                                                                           {"n", 1e3},
                                                                           {"n", -1},
                                                                           {"n", "1000"},
                                                                           {"n", true},
                                                                           {"reps", 2.5},
                                                                           {"reps", 1e300},
                                                                           {"warmup", -1e300},
                                                                           {"reps", 4294967296LL},
                                                                           {"seed", -1},
                                                                           {"seed", 0.5},
                                                                           {"block", {256.5, 1, 1}},
                                                                           {"block", {-1, 1, 1}},
                                                                           {"grid", {4294967296LL, 1, 1}}};
  for (const auto& [key, value] : bad) {
    auto j = good;
    j[key] = value;
    try {
      wire::decodeRequest(frame(j.dump()));
      ADD_FAILURE() << key << " = " << value.dump() << " was accepted";
    } catch (const BadInput& e) {
      EXPECT_NE(std::string(e.what()).find("whole number"), std::string::npos) << e.what();
    }
  }
  auto progress = nlohmann::ordered_json::parse(wire::encodeProgress(Progress{"cpu-serial", 0, 2, 1, 5}).substr(8));
  progress["rep"] = 1e300;  // was an out-of-range float-to-int conversion (undefined behaviour)
  EXPECT_THROW(wire::decodeProgress(frame(progress.dump())), BadInput);
  const std::string message = wire::encodeResult(wireSafe(sample::fullResult()));
  std::uint64_t length = 0;
  std::memcpy(&length, message.data(), 8);
  auto result = nlohmann::ordered_json::parse(message.substr(8, length));
  const std::string blob = message.substr(8 + length);
  ASSERT_NO_THROW(wire::decodeResult(frame(result.dump(), blob)));
  result["implementations"][0]["phases"]["total"]["samples"] = 3.5;
  EXPECT_THROW(wire::decodeResult(frame(result.dump(), blob)), BadInput);
}

// A result from a worker (a remote server's among them) names files when exported and its arrays are indexed with
// each other's indices by the views: unsafe names, a name twice, and outputs whose shapes differ are BadInput.
TEST(Wire, ResultsWithUnsafeNamesOrDisagreeingShapesAreBadInput) {
  auto twoImpls = [](std::vector<std::size_t> shapeB) {
    RunResult r;
    r.workload = "vector_add";
    for (const char* id : {"cpu-serial", "cuda-grid-stride"}) {
      ImplResult i;
      i.implId = id;
      i.outputs.emplace_back("out", DType::F32, i.implId == "cpu-serial" ? std::vector<std::size_t>{1000} : shapeB);
      r.impls.push_back(i);
    }
    return r;
  };
  EXPECT_NO_THROW(wire::decodeResult(wire::encodeResult(twoImpls({1000}))));
  try {
    wire::decodeResult(wire::encodeResult(twoImpls({1})));
    FAIL() << "a shorter output than the reference's was accepted";
  } catch (const BadInput& e) {
    EXPECT_NE(std::string(e.what()).find("output 'out' is f32 (1000) in cpu-serial but f32 (1) in cuda-grid-stride"),
              std::string::npos)
        << e.what();
  }
  RunResult escape = twoImpls({1000});
  escape.impls[1].implId = "../../.config";
  EXPECT_THROW(wire::decodeResult(wire::encodeResult(escape)), BadInput);
  RunResult slash = twoImpls({1000});
  slash.impls[0].outputs[0] = HostArray("a/b", DType::F32, {1000});
  EXPECT_THROW(wire::decodeResult(wire::encodeResult(slash)), BadInput);
  RunResult twice = twoImpls({1000});
  twice.inputs = {HostArray("x", DType::F32, {3}), HostArray("x", DType::F32, {3})};
  EXPECT_THROW(wire::decodeResult(wire::encodeResult(twice)), BadInput);
}
