// Process isolation without a GPU: runs through `launchlab-cli worker` give the same results as in-process runs,
// relay progress and cancellation, and a worker that dies mid-run costs one failed result, not the front end.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <utility>
#include <vector>

#include "cli_helpers.h"
#include "launchlab/engine/engine.h"
#include "launchlab/kernels.h"
#include "launchlab/worker/frames.h"
#include "launchlab/worker/worker.h"

using namespace launchlab;

namespace {
using test::cliPath;
RunRequest request(std::uint64_t n) {
  RunRequest r;
  r.workload = "hypot";
  r.n = n;
  r.reps = 2;
  r.warmup = 0;
  r.seed = 5;
  r.keepOutputs = r.keepInputs = true;
  return r;
}
}  // namespace

TEST(Worker, SameResultAsInProcess) {
  IsolatedRunner runner({cliPath(), "worker"});
  EXPECT_FALSE(runner.deviceStatus().reason.empty() && !runner.deviceStatus().available);
  int progressCalls = 0;
  RunResult remote = runner.run(request(10007), nullptr, [&](const Progress&) { ++progressCalls; });
  ASSERT_EQ(remote.status, Status::Ok) << remote.reason;
  EXPECT_GT(progressCalls, 0);

  Registry reg;
  kernels::registerAllWorkloads(reg);
  Engine engine(reg, kernels::makeDefaultGpuRuntime());
  RunResult local = engine.run(request(10007));
  ASSERT_EQ(remote.impls.size(), local.impls.size());
  ASSERT_EQ(remote.inputs.size(), 2u);
  EXPECT_EQ(std::memcmp(remote.inputs[0].data(), local.inputs[0].data(), local.inputs[0].bytes()), 0);
  for (std::size_t k = 0; k < local.impls.size(); ++k) {
    EXPECT_EQ(remote.impls[k].implId, local.impls[k].implId);
    EXPECT_EQ(remote.impls[k].status, local.impls[k].status);
    EXPECT_EQ(remote.impls[k].verification.outcome, local.impls[k].verification.outcome);
    ASSERT_EQ(remote.impls[k].outputs.size(), local.impls[k].outputs.size());
    for (std::size_t o = 0; o < local.impls[k].outputs.size(); ++o)
      EXPECT_EQ(std::memcmp(remote.impls[k].outputs[o].data(), local.impls[k].outputs[o].data(),
                            local.impls[k].outputs[o].bytes()),
                0);
    EXPECT_EQ(remote.impls[k].phases.size(), local.impls[k].phases.size());
  }
  EXPECT_EQ(runner.workersStarted(), 1);
}

// Repetitions of microseconds report progress each; the worker sends it when an implementation starts and then at
// most every 50 ms, so its parent (the window, which redraws for it) is not woken beside every timed repetition.
TEST(Worker, ProgressFramesComeAtABoundedRate) {
  IsolatedRunner runner({cliPath(), "worker"});
  ASSERT_EQ(runner.run(request(100)).status, Status::Ok);  // started: its start is not the run's time
  auto r = request(1000);
  r.impls = {"cpu-serial", "cpu-parallel"};
  r.reps = 5000;
  r.keepOutputs = r.keepInputs = false;
  std::vector<std::string> impls;
  const auto t0 = std::chrono::steady_clock::now();
  const RunResult res = runner.run(r, nullptr, [&](const Progress& p) { impls.push_back(p.implId); });
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  ASSERT_EQ(res.status, Status::Ok) << res.reason;
  ASSERT_FALSE(impls.empty());
  EXPECT_EQ(impls.front(), "cpu-serial");
  EXPECT_EQ(impls.back(), "cpu-parallel");  // each implementation's start is told
  EXPECT_LE(double(impls.size()), 2 + seconds / 0.05 + 2) << impls.size() << " progress frames in " << seconds << " s";
}

TEST(Worker, CancelIsForwarded) {
  IsolatedRunner runner({cliPath(), "worker"});
  CancelToken token;
  auto r = request(2000003);
  r.impls = {"cpu-parallel"};
  r.reps = 100000;  // far longer than the test: only cancellation ends it
  int calls = 0;
  RunResult res = runner.run(r, &token, [&](const Progress&) {
    if (++calls == 3) token.cancel();
  });
  EXPECT_EQ(res.status, Status::Failed);
  EXPECT_EQ(res.reason, "cancelled");
  // The same worker serves the next run.
  EXPECT_EQ(runner.run(request(1000)).status, Status::Ok);
  EXPECT_EQ(runner.workersStarted(), 1);
}

TEST(Worker, AWorkerThatDiesCostsOneRunAndTheNextRunWorks) {
  IsolatedRunner runner({cliPath(), "worker"});
  ASSERT_EQ(runner.run(request(1000)).status, Status::Ok);
  auto r = request(2000003);
  r.impls = {"cpu-parallel"};
  r.reps = 100000;
  int calls = 0;
  RunResult res = runner.run(r, nullptr, [&](const Progress&) {
    if (++calls == 2) ::kill(runner.workerPid(), SIGKILL);  // what a crash inside the worker looks like
  });
  EXPECT_EQ(res.status, Status::Failed);
  EXPECT_NE(res.reason.find("killed by signal 9"), std::string::npos) << res.reason;
  RunResult next = runner.run(request(1000));
  EXPECT_EQ(next.status, Status::Ok) << next.reason;
  EXPECT_EQ(runner.workersStarted(), 2);
}

TEST(Worker, MissingWorkerExecutableIsAFailedResult) {
  IsolatedRunner runner({"/nonexistent/launchlab-cli", "worker"});
  RunResult r = runner.run(request(10));
  EXPECT_EQ(r.status, Status::Failed);
  EXPECT_FALSE(r.reason.empty());
  EXPECT_FALSE(runner.deviceStatus().available);
}

namespace {
// Appended rather than "literal" + std::string here and below: GCC 12 warns falsely inside libstdc++ on that form
// where it inlines this into a larger translation unit (a unity build; bug 105329).
/// `bytes` as printf(1) octal escapes.
std::string escaped(const std::string& bytes) {
  std::string out;
  for (unsigned char c : bytes)
    out.append("\\").append(std::to_string(c >> 6)).append(std::to_string((c >> 3) & 7)).append(std::to_string(c & 7));
  return out;
}
/// A stand-in worker: a shell that says hello, writes the bytes `printf` makes of `frames`, then holds its end of
/// the pipes for a second (so that the request can be written) and ends.
IsolatedRunner fakeWorker(const std::string& frames) {
  std::string script = "printf '";
  script.append(escaped(frames::hello())).append(frames).append("'; exec sleep 1");
  return IsolatedRunner({"/bin/sh", "-c", script});
}
}  // namespace

TEST(Worker, AMalformedResultIsAFailedRunNotACrash) {
  // A result frame ('Z') of 5 bytes: too short to be a wire message.
  IsolatedRunner runner = fakeWorker("Z\\005\\000\\000\\000\\000\\000\\000\\000hello");
  RunResult r = runner.run(request(10));
  EXPECT_EQ(r.status, Status::Failed);
  EXPECT_NE(r.reason.find("malformed message"), std::string::npos) << r.reason;
}

TEST(Worker, AFrameLongerThanTheStreamIsAFailedRun) {
  // A result frame that announces 2^64 - 1 bytes and ends: nothing of that size is allocated.
  IsolatedRunner runner = fakeWorker("Z\\377\\377\\377\\377\\377\\377\\377\\377abc");
  RunResult r = runner.run(request(10));
  EXPECT_EQ(r.status, Status::Failed);
  EXPECT_NE(r.reason.find("sent a frame 'Z' of 18446744073709551615 bytes"), std::string::npos) << r.reason;
  // One of 100 bytes of which 3 arrive before the stream ends.
  IsolatedRunner cut = fakeWorker("Z\\144\\0\\0\\0\\0\\0\\0\\0abc");
  r = cut.run(request(10));
  EXPECT_EQ(r.status, Status::Failed);
  EXPECT_NE(r.reason.find("during the run"), std::string::npos) << r.reason;
}

TEST(Worker, AMalformedDeviceStatusSaysSo) {
  IsolatedRunner runner = fakeWorker("I\\002\\000\\000\\000\\000\\000\\000\\000{}");
  DeviceStatus s = runner.deviceStatus();
  EXPECT_FALSE(s.available);
  EXPECT_NE(s.reason.find("malformed device status"), std::string::npos) << s.reason;
}

// The worker side: a frame longer than kMaxRequestFrameBytes (2^63 announced), of an unknown type, or cut short by
// the end of the input (a partial header; a 64 KiB or a 5-byte payload announced and 3 bytes sent) gets one failed
// result naming the problem and a clean exit 2, with nothing allocated for the announced length.
TEST(Worker, MalformedFramesFromTheParentGetOneErrorReplyAndExitTwo) {
  const std::string out =
      (std::filesystem::temp_directory_path() / ("ll_worker_" + std::to_string(::getpid()))).string();
  for (const auto& [frame, needle] : std::vector<std::pair<std::string, std::string>>{
           {"R\\377\\377\\377\\377\\377\\377\\377\\177", "a frame over 1048576 bytes"},
           {"X\\0\\0\\0\\0\\0\\0\\0\\0", "a frame of unknown type 88"},
           {"garbage", "a truncated frame"},
           {"R\\0\\0\\1\\0\\0\\0\\0\\0abc", "a truncated frame"},
           {"R\\5\\0\\0\\0\\0\\0\\0\\0abc", "a truncated frame"}}) {
    const std::string cmd = "printf '" + frame + "' | '" + cliPath() + "' worker > '" + out + "'";
    const int st = std::system(cmd.c_str());
    ASSERT_TRUE(WIFEXITED(st));
    EXPECT_EQ(WEXITSTATUS(st), 2) << needle;
    std::ifstream f(out, std::ios::binary);
    const std::string reply((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
    const std::string hello = frames::hello();
    ASSERT_GT(reply.size(), hello.size() + 9);
    EXPECT_EQ(reply.substr(0, hello.size()), hello);  // every connection starts with the hello
    EXPECT_EQ(reply[hello.size()], 'Z');
    EXPECT_NE(reply.find("worker: malformed input: " + needle), std::string::npos) << reply.substr(0, 200);
  }
  std::filesystem::remove(out);
}

// The device index travels in the request: the worker's engine selects it before the run, or answers with the one
// message for a device it does not have (every device, on a machine without a GPU).
TEST(Worker, RequestCarriesTheDeviceIndex) {
  IsolatedRunner runner({cliPath(), "worker"});
  const DeviceStatus s = runner.deviceStatus();
  RunRequest r = request(1000);
  r.impls = {"cpu-serial"};
  r.device = int(s.devices.size());
  RunResult res = runner.run(r);
  EXPECT_EQ(res.status, Status::Failed);
  EXPECT_EQ(res.reason, deviceProblem(s, *r.device));
  if (s.devices.empty()) return;
  r.device = int(s.devices.size()) - 1;
  res = runner.run(r);
  ASSERT_EQ(res.status, Status::Ok) << res.reason;
  EXPECT_EQ(res.device.info.index, *r.device);
}

// The window asks the worker for the roofline's ceilings ('K'): without a GPU it answers invalid ceilings with the
// reason, and the worker still serves runs afterwards.
TEST(Worker, CeilingsWithoutAGpuSayWhy) {
  IsolatedRunner runner({cliPath(), "worker"});
  if (runner.deviceStatus().available) GTEST_SKIP() << "a GPU is present: the ceilings are measured (GPU check)";
  const Ceilings c = runner.ceilings();
  EXPECT_FALSE(c.valid());
  EXPECT_NE(c.problem.find("no GPU"), std::string::npos) << c.problem;
  EXPECT_EQ(runner.run(request(1001)).status, Status::Ok);
  EXPECT_EQ(runner.workersStarted(), 1);
}

// The window's worker gets its OpenMP threads through WorkerCommand::env (launchlab/engine/cpu_threads.h): the run's
// host line, written by the worker's engine, names the threads it was given, and an entry replaces the inherited one.
TEST(Worker, ItsEnvironmentEntriesReachTheWorker) {
  ::setenv("OMP_NUM_THREADS", "5", 1);
  WorkerCommand c{{cliPath(), "worker"}};
  c.env = {"OMP_NUM_THREADS=3"};
  IsolatedRunner runner(c);
  RunRequest r = request(1000);
  r.impls = {"cpu-parallel"};
  const RunResult result = runner.run(r, nullptr, {});
  ::unsetenv("OMP_NUM_THREADS");
  ASSERT_EQ(result.status, Status::Ok) << result.reason;
  EXPECT_NE(result.host.find("(3 OpenMP threads)"), std::string::npos) << result.host;
}
