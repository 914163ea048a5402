// NVML on the GPU (gpu_sharing.h): the monitor sees this GPU and this process's context, a run alone on the GPU is
// not flagged, and a run while a second launchlab-cli works on the same GPU is, naming that process.
#include <gtest/gtest.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <thread>

#include "gpu_env.h"
#include "launchlab/engine/gpu_sharing.h"

extern char** environ;

using namespace launchlab;

namespace {
RunRequest vectorAdd() {
  RunRequest r;
  r.workload = "vector_add";
  r.n = 1 << 24;
  r.reps = 5;
  r.warmup = 1;
  r.impls = {"cuda-one-per-thread"};
  return r;
}

bool listed(const GpuSample& s, unsigned pid) {
  for (const auto& p : s.processes)
    if (p.pid == pid) return true;
  return false;
}
}  // namespace

TEST(GpuSharingGpu, NvmlSeesThisGpuAndARunAloneIsNotFlagged) {
  auto& env = test::gpuEnv();
  const DeviceStatus st = env.engine->deviceStatus();
  if (!st.available) GTEST_SKIP() << "no GPU: " << st.reason;
  auto monitor = makeNvmlMonitor();
  const GpuSample s = monitor->sample(st.info.pciBusId);
  ASSERT_TRUE(s.ok) << s.problem;
  EXPECT_GE(s.gpuUtilPercent, 0);
  EXPECT_GT(s.smClockMHz, 0);
  env.engine->setGpuMonitor(monitor);
  const RunResult r = env.engine->run(vectorAdd());
  env.engine->setGpuMonitor(nullptr);
  ASSERT_EQ(r.status, Status::Ok) << r.reason;
  ASSERT_TRUE(r.sharing.checked);
  EXPECT_TRUE(r.sharing.after.ok) << r.sharing.after.problem;
  EXPECT_TRUE(listed(r.sharing.after, unsigned(::getpid()))) << "this process's context is not in NVML's list";
  EXPECT_FALSE(r.sharing.shared) << "flagged with nothing else on the GPU (is it idle?): " << r.sharing.note;
}

TEST(GpuSharingGpu, ARunBesideAnotherLaunchLabProcessIsFlagged) {
  auto& env = test::gpuEnv();
  const DeviceStatus st = env.engine->deviceStatus();
  if (!st.available) GTEST_SKIP() << "no GPU: " << st.reason;
  auto monitor = makeNvmlMonitor();
  if (!monitor->sample(st.info.pciBusId).ok) GTEST_SKIP() << monitor->sample(st.info.pciBusId).problem;
  // The other user: a second launchlab-cli streaming through a large vector_add for many repetitions.
  const char* cli = std::getenv("LAUNCHLAB_CLI_PATH") ? std::getenv("LAUNCHLAB_CLI_PATH") : LAUNCHLAB_CLI_PATH;
  std::vector<std::string> args = {cli,      "run",   "vector_add", "--n", "2^26", "--impl", "cuda-one-per-thread",
                                   "--reps", "20000", "--warmup",   "0"};
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  pid_t other = -1;
  ASSERT_EQ(posix_spawn(&other, cli, nullptr, nullptr, argv.data(), environ), 0);
  bool onGpu = false;
  for (int i = 0; i < 200 && !onGpu; ++i) {  // up to 20 s for its context and inputs
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    onGpu = listed(monitor->sample(st.info.pciBusId), unsigned(other));
  }
  env.engine->setGpuMonitor(monitor);
  const RunResult r = onGpu ? env.engine->run(vectorAdd()) : RunResult{};
  env.engine->setGpuMonitor(nullptr);
  ::kill(other, SIGKILL);
  ::waitpid(other, nullptr, 0);
  ASSERT_TRUE(onGpu) << "the second launchlab-cli never appeared in NVML's process list";
  ASSERT_EQ(r.status, Status::Ok) << r.reason;
  EXPECT_TRUE(r.sharing.shared);
  EXPECT_NE(r.sharing.note.find("pid " + std::to_string(other)), std::string::npos) << r.sharing.note;
}
