// Several GPUs without any: the device index of a request is parsed, checked against the devices a status lists
// (one message for every front end), carried by the worker's wire format, and selects the limits validation uses.
#include <gtest/gtest.h>

#include <cstring>

#include "fake_devices.h"
#include "launchlab/engine/engine.h"
#include "launchlab/engine/errors.h"
#include "launchlab/kernels.h"
#include "launchlab/worker/wire.h"

using namespace launchlab;
using launchlab::test::twoDevices;

namespace {

RunRequest hypot(std::optional<int> device) {
  RunRequest r;
  r.workload = "hypot";
  r.n = 1000;
  r.impls = {"cpu-serial"};
  r.device = device;
  return r;
}

}  // namespace

TEST(Devices, ProblemNamesTheDevicesThereAre) {
  const DeviceStatus two = twoDevices();
  EXPECT_EQ(deviceProblem(two, 0), "");
  EXPECT_EQ(deviceProblem(two, 1), "");
  EXPECT_EQ(deviceProblem(two, 2), "device 2 does not exist: this machine has 2 CUDA devices (0 to 1)");
  EXPECT_EQ(deviceProblem(two, -1), "device -1 does not exist: this machine has 2 CUDA devices (0 to 1)");
  DeviceStatus one = two;
  one.devices.pop_back();
  EXPECT_EQ(deviceProblem(one, 1), "device 1 does not exist: this machine has 1 CUDA device (0)");
  DeviceStatus none;
  none.reason = "no CUDA device found: CUDA implementations are skipped";
  EXPECT_EQ(deviceProblem(none, 0), "no CUDA device (no CUDA device found: CUDA implementations are skipped)");
}

TEST(Devices, RequestTextParsesTheIndex) {
  RequestText t;
  t.workload = "hypot";
  EXPECT_FALSE(parseRequest(t).request.device.has_value());
  t.device = "1";
  ParsedRequest p = parseRequest(t);
  ASSERT_TRUE(p.ok());
  EXPECT_EQ(p.request.device, 1);
  EXPECT_EQ(requestText(p.request).device, "1");
  for (const char* bad : {"-1", "x", "1.5", "0x"}) {
    t.device = bad;
    p = parseRequest(t);
    ASSERT_EQ(p.problems.size(), 1u) << bad;
    EXPECT_EQ(p.problems[0].field, "device");
    EXPECT_EQ(p.problems[0].message, std::string("device must be a whole number >= 0 (got '") + bad + "')");
  }
}

TEST(Devices, WireCarriesTheDeviceIndexAndTheDeviceList) {
  RunRequest r = hypot(3);
  EXPECT_EQ(wire::decodeRequest(wire::encodeRequest(r)).device, 3);
  r.device.reset();
  EXPECT_FALSE(wire::decodeRequest(wire::encodeRequest(r)).device.has_value());
  // A device that is not a non-negative integer is a malformed request, not device 1 or 0.
  for (const char* bad : {"1.5", "-1", "\"1\"", "true", "4294967296"}) {
    std::string msg = wire::encodeRequest(r);
    std::string json = msg.substr(8);
    json.insert(json.size() - 1, std::string(",\"device\":") + bad);
    std::uint64_t n = json.size();
    std::string framed(8, '\0');
    std::memcpy(framed.data(), &n, 8);
    EXPECT_THROW(wire::decodeRequest(framed + json), BadInput) << bad;
  }
  const DeviceStatus s = twoDevices();
  EXPECT_EQ(wire::decodeDevice(wire::encodeDevice(s)).devices, s.devices);
}

TEST(Devices, ValidationUsesTheRequestedDeviceAndItsLimits) {
  Registry reg;
  kernels::registerAllWorkloads(reg);
  Engine engine(reg, makeStaticGpuRuntime(twoDevices()));
  RunRequest r = hypot(2);
  auto problems = engine.validate(r);
  ASSERT_FALSE(problems.empty());
  EXPECT_EQ(problems[0].field, "device");
  EXPECT_EQ(problems[0].message, "device 2 does not exist: this machine has 2 CUDA devices (0 to 1)");
  EXPECT_EQ(engine.run(r).reason, problems[0].message);

  r.launch.block = Dim3{1024, 1, 1};
  r.device = 0;
  EXPECT_TRUE(engine.validate(r).empty());
  r.device = 1;
  problems = engine.validate(r);
  ASSERT_EQ(problems.size(), 1u);
  EXPECT_EQ(problems[0].field, "block");
  EXPECT_NE(problems[0].message.find("GPU one"), std::string::npos) << problems[0].message;
}

TEST(Devices, ARunSelectsItsDeviceAndNamesIt) {
  Registry reg;
  kernels::registerAllWorkloads(reg);
  Engine engine(reg, makeStaticGpuRuntime(twoDevices()));
  RunResult res = engine.run(hypot(1));
  ASSERT_EQ(res.status, Status::Ok) << res.reason;
  EXPECT_EQ(res.device.info.name, "GPU one");
  EXPECT_TRUE(res.device.devices.empty());  // a result names its device; the list is the status's
  EXPECT_EQ(engine.deviceStatus().info.index, 1);
  res = engine.run(hypot(std::nullopt));  // no device named: the one selected last
  EXPECT_EQ(res.device.info.name, "GPU one");
}

TEST(Devices, WithoutAGpuEveryIndexIsNoCudaDevice) {
  Registry reg;
  kernels::registerAllWorkloads(reg);
  Engine engine(reg, makeUnavailableGpuRuntime("CPU-only build"));
  EXPECT_EQ(engine.gpu().selectDevice(0), "no CUDA device (CPU-only build)");
  RunResult res = engine.run(hypot(0));
  EXPECT_EQ(res.status, Status::Failed);
  EXPECT_EQ(res.reason, "no CUDA device (CPU-only build)");
  EXPECT_EQ(engine.run(hypot(std::nullopt)).status, Status::Ok);  // CPU runs need no device
}
