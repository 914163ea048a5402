// --device on run, sweep, bench and worker: the index is checked against the devices `info` lists, and a device
// that does not exist (or any device without a GPU) is one line on stderr and exit 2, before anything runs.
#include <nlohmann/json.hpp>

#include "cli_helpers.h"
#include "launchlab/engine/device.h"
#include "launchlab/files/json_value.h"

using namespace launchlab::test;

namespace {
/// The CLI's own view of the devices (info --json), and the one message for a device it does not have.
launchlab::DeviceStatus cliDevices() {
  return nlohmann::ordered_json::parse(cli("info --json").out).at("device").get<launchlab::DeviceStatus>();
}
}  // namespace

TEST(CliDevices, InfoListsEveryDeviceOrSaysThereIsNone) {
  const launchlab::DeviceStatus s = cliDevices();
  const Out r = cli("info");
  ASSERT_EQ(r.code, 0) << r.err;
  if (s.devices.empty()) {
    EXPECT_NE(r.out.find("device: none: "), std::string::npos) << r.out;
    EXPECT_FALSE(s.available);
  }
  for (const auto& d : s.devices)
    EXPECT_NE(r.out.find("device " + std::to_string(d.index) + ": " + d.name), std::string::npos) << r.out;
}

TEST(CliDevices, ADeviceThatDoesNotExistIsBadInput) {
  const launchlab::DeviceStatus s = cliDevices();
  const std::string past = std::to_string(s.devices.size());  // one past the last device
  const std::string line = "--device: " + launchlab::deviceProblem(s, int(s.devices.size()));
  expectBadInput("run hypot --n 1000 --device " + past, line);
  expectBadInput("sweep hypot --n 1000 --block 32,64 --device " + past, line);
  expectBadInput("bench --quick --device " + past, line);
  expectBadInput("worker --device " + past, line);
  expectBadInput("run hypot --device -2", "--device: device must be a whole number >= 0 (got '-2')");
  expectBadInput("bench --quick --device one", "--device: device must be a whole number >= 0 (got 'one')");
  if (s.devices.empty()) expectBadInput("run hypot --n 1000 --device 0", "--device: no CUDA device (");
}

TEST(CliDevices, AnExistingDeviceRuns) {
  const launchlab::DeviceStatus s = cliDevices();
  if (s.devices.empty()) GTEST_SKIP() << "no CUDA device: " << s.reason;
  const int last = int(s.devices.size()) - 1;
  const Out r = cli("run hypot --n 1000 --reps 1 --json - --device " + std::to_string(last));
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(nlohmann::json::parse(r.out)["device"]["index"].get<int>(), last);
}
