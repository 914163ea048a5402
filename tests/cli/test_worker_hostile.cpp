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
#include "launchlab/io/frames.h"
#include "launchlab/io/wire.h"
#include "launchlab/worker.h"

using namespace launchlab;
namespace fs = std::filesystem;

namespace {

using test::cliPath;

RunRequest request(std::uint64_t n) {
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
  RunRequest r = request(2000003);
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

}  // namespace

TEST(WorkerHostile, ABannerBeforeTheHelloIsShownAsProgramOutput) {
  IsolatedRunner runner(fake("banner"));
  const DeviceStatus s = runner.deviceStatus();
  EXPECT_TRUE(s.available || !contains(s.reason, "fake worker")) << s.reason;
  const RunResult r = runner.run(request(1000));
  ASSERT_EQ(r.status, Status::Ok) << r.reason;
  const std::string said = runner.takeProgramOutput();
  EXPECT_TRUE(contains(said, "Welcome to lab-gpu! Last login: today")) << said;
  EXPECT_EQ(runner.run(request(1000)).status, Status::Ok);
  EXPECT_EQ(runner.takeProgramOutput(), "");  // taken once
  EXPECT_EQ(runner.workersStarted(), 1);
}

TEST(WorkerHostile, AStrayLineMidRunCostsOneRunAndTheNextWorks) {
  const std::string once = onceFile("stray");
  IsolatedRunner runner(fake("stray", once));
  int progress = 0;
  const RunResult r = runner.run(request(1000), nullptr, [&](const Progress&) { ++progress; });
  EXPECT_EQ(r.status, Status::Failed);
  EXPECT_EQ(progress, 1);  // the frame before the text was taken
  EXPECT_TRUE(contains(r.reason, "sent something that is not a frame: 'hello from thread 0'")) << r.reason;
  EXPECT_TRUE(contains(r.reason, "a fresh worker starts with the next run")) << r.reason;
  const RunResult next = runner.run(request(1000));
  EXPECT_EQ(next.status, Status::Ok) << next.reason;
  EXPECT_EQ(runner.workersStarted(), 2);
  fs::remove(once);
}

TEST(WorkerHostile, EndlessGarbageBeforeTheHelloIsRefusedAndQuoted) {
  IsolatedRunner runner(fake("garbage"));
  const DeviceStatus s = runner.deviceStatus();
  EXPECT_FALSE(s.available);
  EXPECT_TRUE(contains(s.reason, "printed text and no hello: 'garbage xxx")) << s.reason;
  const RunResult r = runner.run(request(10));
  EXPECT_EQ(r.status, Status::Failed);
  EXPECT_TRUE(contains(r.reason, "no hello")) << r.reason;
  // What is kept of it is bounded: the banner's cap, not the stream.
  EXPECT_LE(runner.takeProgramOutput().size(), kMaxProgramOutputBytes + 100);
}

TEST(WorkerHostile, EndlessGarbageMidRunCostsOneRun) {
  const std::string once = onceFile("garbage");
  IsolatedRunner runner(fake("garbage-run", once));
  const RunResult r = runner.run(request(1000));
  EXPECT_EQ(r.status, Status::Failed);
  EXPECT_TRUE(contains(r.reason, "not a frame: 'garbage xxx")) << r.reason;
  EXPECT_EQ(runner.run(request(1000)).status, Status::Ok);
  fs::remove(once);
}

TEST(WorkerHostile, AFrameOverItsCapIsRefusedBeforeAnyAllocation) {
  IsolatedRunner runner(fake("huge"));
  const RunResult r = runner.run(request(10));
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
    const RunResult r = runner.run(request(1000), &token);
    EXPECT_EQ(r.status, Status::Failed) << mode;
    EXPECT_TRUE(contains(r.reason, "cancelled (the fake worker did not stop within 0.2 s of the cancel")) << r.reason;
    EXPECT_EQ(runner.run(request(1000)).status, Status::Ok) << mode;
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
