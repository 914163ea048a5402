// The parent side of the worker protocol against workers that stay alive and misbehave (tests/helpers/fake_worker):
// a banner before the hello is program output; stray text, endless garbage, an oversized or half-sent frame, silence
// and another protocol version each cost one failed run with a reason that quotes or names what happened, and the
// next run starts a fresh worker. And a cancel right behind its request is never lost.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <string>

#include "cli_helpers.h"
#include "launchlab/engine/engine.h"
#include "launchlab/kernels.h"
#include "launchlab/worker/frames.h"
#include "launchlab/worker/wire.h"
#include "launchlab/worker/worker.h"

using namespace launchlab;
namespace fs = std::filesystem;

namespace {

using test::cliPath;

RunRequest oneRepRequest(std::uint64_t n) {
  RunRequest r;
  r.workload = "hypot";
  r.n = n;
  r.reps = 1;
  r.warmup = 0;
  r.impls = {"cpu-serial"};
  return r;
}

/// A request that runs far longer than any test: only a cancel ends it.
RunRequest endless() {
  RunRequest r = oneRepRequest(2000003);
  r.impls = {"cpu-parallel"};
  r.reps = 100000;
  return r;
}

/// A fresh path for the fake worker's "misbehave once" file.
std::string onceFile(const std::string& tag) {
  const fs::path p = fs::temp_directory_path() / ("ll_fake_" + tag + "_" + std::to_string(::getpid()));
  fs::remove(p);
  return p.string();
}

WorkerCommand fake(const std::string& mode, const std::string& once = {}) {
  WorkerCommand c;
  c.argv = {LAUNCHLAB_FAKE_WORKER_PATH, mode, cliPath()};
  if (!once.empty()) c.argv.push_back(once);
  c.name = "the fake worker";
  // Failure guards only: every case below ends on a message, a cancel or the end of a stream, not on these.
  c.startTimeoutS = 60;
  c.cancelGraceS = 60;
  return c;
}

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

/// A request that carries a student's kernel with a time limit of `limitS` (the fake workers never compile it).
RunRequest withKernel(double limitS) {
  RunRequest r = oneRepRequest(1000);
  r.workload = "vector_add";
  r.impls = {"cpu-serial", "cpu-parallel", std::string(kMyKernel)};
  UserKernel k;
  k.exercise = "vector_add";
  k.fileName = "mine.cu";
  k.source = "__global__ void vector_add() {}";
  k.timeLimitS = limitS;
  r.userKernel = k;
  return r;
}

const Registry& builtIn() {
  static const Registry* r = [] {
    auto* reg = new Registry;
    kernels::registerAllWorkloads(*reg);
    return reg;
  }();
  return *r;
}

}  // namespace

TEST(WorkerHostile, ABannerBeforeTheHelloIsShownAsProgramOutput) {
  IsolatedRunner runner(fake("banner"));
  const DeviceStatus s = runner.deviceStatus();
  EXPECT_TRUE(s.available || !contains(s.reason, "fake worker")) << s.reason;
  const RunResult r = runner.run(oneRepRequest(1000));
  ASSERT_EQ(r.status, Status::Ok) << r.reason;
  const std::string said = runner.takeProgramOutput();
  EXPECT_TRUE(contains(said, "Welcome to lab-gpu! Last login: today")) << said;
  EXPECT_EQ(runner.run(oneRepRequest(1000)).status, Status::Ok);
  EXPECT_EQ(runner.takeProgramOutput(), "");  // taken once
  EXPECT_EQ(runner.workersStarted(), 1);
}

TEST(WorkerHostile, AStrayLineMidRunCostsOneRunAndTheNextWorks) {
  const std::string once = onceFile("stray");
  IsolatedRunner runner(fake("stray", once));
  int progress = 0;
  const RunResult r = runner.run(oneRepRequest(1000), nullptr, [&](const Progress&) { ++progress; });
  EXPECT_EQ(r.status, Status::Failed);
  EXPECT_EQ(progress, 1);  // the frame before the text was taken
  EXPECT_TRUE(contains(r.reason, "sent something that is not a frame: 'hello from thread 0'")) << r.reason;
  EXPECT_TRUE(contains(r.reason, "a fresh worker starts with the next run")) << r.reason;
  const RunResult next = runner.run(oneRepRequest(1000));
  EXPECT_EQ(next.status, Status::Ok) << next.reason;
  EXPECT_EQ(runner.workersStarted(), 2);
  fs::remove(once);
}

TEST(WorkerHostile, EndlessGarbageBeforeTheHelloIsRefusedAndQuoted) {
  IsolatedRunner runner(fake("garbage"));
  const DeviceStatus s = runner.deviceStatus();
  EXPECT_FALSE(s.available);
  EXPECT_TRUE(contains(s.reason, "printed text and no hello: 'garbage xxx")) << s.reason;
  const RunResult r = runner.run(oneRepRequest(10));
  EXPECT_EQ(r.status, Status::Failed);
  EXPECT_TRUE(contains(r.reason, "no hello")) << r.reason;
  // What is kept of it is bounded: the banner's cap, not the stream.
  EXPECT_LE(runner.takeProgramOutput().size(), kMaxProgramOutputBytes + 100);
}

TEST(WorkerHostile, EndlessGarbageMidRunCostsOneRun) {
  const std::string once = onceFile("garbage");
  IsolatedRunner runner(fake("garbage-run", once));
  const RunResult r = runner.run(oneRepRequest(1000));
  EXPECT_EQ(r.status, Status::Failed);
  EXPECT_TRUE(contains(r.reason, "not a frame: 'garbage xxx")) << r.reason;
  EXPECT_EQ(runner.run(oneRepRequest(1000)).status, Status::Ok);
  fs::remove(once);
}

TEST(WorkerHostile, AFrameOverItsCapIsRefusedBeforeAnyAllocation) {
  IsolatedRunner runner(fake("huge"));
  const RunResult r = runner.run(oneRepRequest(10));
  EXPECT_EQ(r.status, Status::Failed);
  EXPECT_TRUE(contains(r.reason, "sent a frame 'Z' of 4611686018427387904 bytes (at most")) << r.reason;
}

TEST(WorkerHostile, AnotherProtocolVersionIsOneClearError) {
  IsolatedRunner runner(fake("old"));
  const DeviceStatus s = runner.deviceStatus();
  EXPECT_FALSE(s.available);
  EXPECT_TRUE(contains(s.reason,
                       "speaks worker protocol '1', this LaunchLab speaks " + std::to_string(frames::kProtocolVersion)))
      << s.reason;
}

TEST(WorkerHostile, ASilentStartHitsTheStartLimit) {
  WorkerCommand c = fake("silent");
  c.startTimeoutS = 0.2;
  IsolatedRunner runner(c);
  const DeviceStatus s = runner.deviceStatus();
  EXPECT_FALSE(s.available);
  EXPECT_TRUE(contains(s.reason, "did not say hello within 0.2 s")) << s.reason;
}

// A worker that goes silent mid-run (or stops inside a frame) does not hold the run: a cancel ends it after the
// grace period, with the worker stopped, and the next run starts a fresh one.
TEST(WorkerHostile, ASilentWorkerIsStoppedAfterACancel) {
  for (const char* mode : {"silent-run", "half-frame"}) {
    const std::string once = onceFile(mode);
    WorkerCommand c = fake(mode, once);
    c.cancelGraceS = 0.2;
    IsolatedRunner runner(c);
    CancelToken token;
    token.cancel();
    const RunResult r = runner.run(oneRepRequest(1000), &token);
    EXPECT_EQ(r.status, Status::Failed) << mode;
    EXPECT_TRUE(contains(r.reason, "cancelled (the fake worker did not stop within 0.2 s of the cancel")) << r.reason;
    EXPECT_EQ(runner.run(oneRepRequest(1000)).status, Status::Ok) << mode;
    EXPECT_EQ(runner.workersStarted(), 2) << mode;
    fs::remove(once);
  }
}

// The early cancel: IsolatedRunner sends the cancel right behind the request. Every one of 50 runs must come back
// "cancelled" from the worker itself (not from the grace period's stop) on the one worker.
TEST(WorkerHostile, ACancelRightBehindItsRequestIsNeverLost) {
  WorkerCommand c{{cliPath(), "worker"}};
  c.cancelGraceS = 120;  // a lost cancel would run 100000 repetitions: far past this guard
  IsolatedRunner runner(c);
  for (int i = 0; i < 50; ++i) {
    CancelToken token;
    token.cancel();
    const RunResult r = runner.run(endless(), &token);
    ASSERT_EQ(r.reason, "cancelled") << "iteration " << i;
  }
  EXPECT_EQ(runner.workersStarted(), 1);
}

// The same at the byte level: request and cancel in one write to `launchlab-cli worker`, 50 times on one worker.
TEST(WorkerHostile, RequestAndCancelInOneWriteAreAnsweredCancelled) {
  int in[2], out[2];
  ASSERT_EQ(::pipe(in), 0);
  ASSERT_EQ(::pipe(out), 0);
  const pid_t pid = ::fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    ::dup2(in[0], 0);
    ::dup2(out[1], 1);
    ::close(in[1]);
    ::close(out[0]);
    ::execl(cliPath().c_str(), cliPath().c_str(), "worker", static_cast<char*>(nullptr));
    ::_exit(127);
  }
  ::close(in[0]);
  ::close(out[1]);
  frames::FrameReader reader(std::uint64_t(1) << 30);
  const std::string both = frames::encode('R', wire::encodeRequest(endless())) + frames::encode('C', {});
  // The next result frame; false when the worker ends, breaks the stream, or is silent past the failure guard.
  auto nextResult = [&](std::string& payload) {
    char type = 0;
    for (;;) {
      while (reader.next(type, payload))
        if (type == 'Z') return true;
      pollfd p{out[0], POLLIN, 0};
      char buf[65536];
      if (::poll(&p, 1, 120000) <= 0) return false;
      const ssize_t r = ::read(out[0], buf, sizeof buf);
      if (r <= 0) return false;
      reader.feed(buf, std::size_t(r));
      if (!reader.problem().empty()) return false;
    }
  };
  for (int i = 0; i < 50; ++i) {
    ASSERT_EQ(::write(in[1], both.data(), both.size()), ssize_t(both.size()));
    std::string payload;
    ASSERT_TRUE(nextResult(payload)) << "iteration " << i << ": " << reader.problem();
    EXPECT_TRUE(reader.greeted());
    ASSERT_EQ(wire::decodeResult(payload).reason, "cancelled") << "iteration " << i;
  }
  ::close(in[1]);
  int st = 0;
  ::waitpid(pid, &st, 0);
  ::close(out[0]);
  EXPECT_TRUE(WIFEXITED(st) && WEXITSTATUS(st) == 0);
}

// The kernel's time limit counts while the kernel runs: a CPU repetition five times longer than it, before the
// kernel, is not stopped.
TEST(WorkerHostile, ASlowCpuReferenceIsNotTheKernelsTime) {
  IsolatedRunner runner(fake("slow-cpu"));
  const RunResult r = runner.run(withKernel(0.1));
  EXPECT_EQ(r.status, Status::Ok) << r.reason;
  EXPECT_EQ(runner.workersStarted(), 1);
}

// A kernel that does not finish within its limit costs its own row: the worker is stopped and the rest of the run
// is run again without it in a fresh worker, so the CPU rows stay.
TEST(WorkerHostile, AKernelPastItsLimitLosesOnlyItsOwnRow) {
  const std::string once = onceFile("hang");
  IsolatedRunner runner(fake("hang-kernel", once));
  const RunResult r = runner.run(withKernel(0.2));
  ASSERT_EQ(r.status, Status::Ok) << r.reason;
  ASSERT_EQ(r.impls.size(), 3u);
  EXPECT_EQ(r.impls[0].implId, "cpu-serial");
  EXPECT_EQ(r.impls[0].status, Status::Ok);
  EXPECT_EQ(r.impls[1].implId, "cpu-parallel");
  EXPECT_TRUE(r.impls[1].verification.passed());
  const ImplResult& mine = r.impls[2];
  EXPECT_EQ(mine.implId, kMyKernel);
  EXPECT_EQ(mine.title, "My kernel (mine.cu)");
  EXPECT_EQ(mine.status, Status::Failed);
  EXPECT_TRUE(contains(mine.reason, "my-kernel did not finish within the time limit of 0.2 s")) << mine.reason;
  EXPECT_EQ(runner.workersStarted(), 2);
  fs::remove(once);
  // Only the kernel asked for: nothing else to show, the run fails with the reason.
  IsolatedRunner alone(fake("hang-kernel"));
  RunRequest mineOnly = withKernel(0.2);
  mineOnly.impls = {std::string(kMyKernel)};
  const RunResult f = alone.run(mineOnly);
  EXPECT_EQ(f.status, Status::Failed);
  EXPECT_TRUE(contains(f.reason, "my-kernel did not finish within the time limit of 0.2 s")) << f.reason;
}

// A device query answered with a 3 GiB result frame: refused from the header, at once, and nothing allocated.
TEST(WorkerHostile, AResultFrameForTheDeviceQueryIsRefusedFromItsHeader) {
  IsolatedRunner runner(fake("z-for-device"));
  const DeviceStatus s = runner.deviceStatus();
  EXPECT_FALSE(s.available);
  EXPECT_TRUE(contains(s.reason, "sent a frame 'Z' of 3221225472 bytes when asked for the device (refused unread"))
      << s.reason;
}

// A result is capped by what its request can produce: 512 MiB for a 1000-element run is refused from its header
// (the cap of the machine, half its memory, would have taken it).
TEST(WorkerHostile, AResultLargerThanItsRequestCanProduceIsRefused) {
  IsolatedRunner runner(fake("big-result"));
  runner.setResultCap([](const RunRequest& r) { return resultBytesBound(builtIn(), r); });
  const RunResult r = runner.run(oneRepRequest(1000));
  EXPECT_EQ(r.status, Status::Failed);
  EXPECT_TRUE(contains(r.reason, "sent a frame 'Z' of 536870912 bytes (at most")) << r.reason;
}

// The bound holds what a real result of the request is, with its arrays kept, and grows with the request.
TEST(WorkerHostile, TheResultBoundHoldsARealResult) {
  Engine engine(builtIn(), kernels::makeDefaultGpuRuntime());
  RunRequest req = oneRepRequest(1 << 18);
  req.workload = "vector_add";
  req.impls = {"cpu-serial", "cpu-parallel"};
  req.keepInputs = req.keepOutputs = true;
  const std::uint64_t bound = resultBytesBound(builtIn(), req);
  const std::size_t size = wire::encodeResult(engine.run(req)).size();
  EXPECT_GT(bound, size);
  EXPECT_LT(bound, std::uint64_t(256) << 20);
  req.n = 1 << 22;
  EXPECT_GT(resultBytesBound(builtIn(), req), bound + (std::uint64_t(48) << 20));  // 3 arrays x 16 MiB more, at least
  req.workload = "no-such-workload";
  EXPECT_EQ(resultBytesBound(builtIn(), req), 0u);  // refused by the worker in a small answer: no bound of its own
}
