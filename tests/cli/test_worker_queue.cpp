// A worker that waits in a queue before it starts (WorkerCommand::queue, as a Slurm job does): its waiting line
// reaches the front end while it waits, the start time limit does not run out while it waits, and a cancel while it
// waits gives up its place (release) and ends in one failed run. The queue here is a file the test removes.
#include <gtest/gtest.h>

#include <atomic>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <thread>

#include "cli_helpers.h"
#include "launchlab/worker/worker.h"

using namespace launchlab;

namespace {
using test::cliPath;

/// The "queue": the worker starts once the flag file is gone; waiting() says so while it exists.
struct FileQueue : QueueWatch {
  std::filesystem::path flag;
  std::atomic<int> asked{0}, released{0};
  std::string waiting(const std::string&) override {
    ++asked;
    return std::filesystem::exists(flag) ? "waiting for a GPU: job 7 PENDING (Resources)" : "";
  }
  void release(const std::string&) override {
    ++released;
    std::filesystem::remove(flag);
  }
};

struct Queued {
  std::shared_ptr<FileQueue> queue = std::make_shared<FileQueue>();
  WorkerCommand command;
  explicit Queued(const std::string& name) {
    queue->flag = std::filesystem::temp_directory_path() / (name + "-" + std::to_string(::getpid()));
    std::ofstream(queue->flag) << "queued\n";
    command.argv = {"sh", "-c", "while [ -e \"$0\" ]; do sleep 0.1; done; exec \"$1\" worker", queue->flag.string(),
                    cliPath()};
    command.queue = queue;
    command.startTimeoutS = 1;  // shorter than the wait: waiting in the queue must not count
  }
  ~Queued() { std::filesystem::remove(queue->flag); }
};

RunRequest request() {
  RunRequest r;
  r.workload = "hypot";
  r.n = 1000;
  r.reps = 1;
  r.warmup = 0;
  r.impls = {"cpu-serial"};
  return r;
}
}  // namespace

TEST(WorkerQueue, SaysItWaitsThenRuns) {
  Queued q("launchlab-queue-runs");
  IsolatedRunner runner(q.command);
  std::vector<std::string> lines, shown;
  runner.setWaitingFn([&](const std::string& line) { lines.push_back(line); });
  std::thread leaveQueue([&] {
    while (q.queue->asked < 3) std::this_thread::sleep_for(std::chrono::milliseconds(50));
    std::filesystem::remove(q.queue->flag);
  });
  const RunResult r = runner.run(request(), nullptr, [&](const Progress& p) {
    if (!p.waiting.empty()) shown.push_back(p.waiting);  // what the window's progress line shows
  });
  leaveQueue.join();
  ASSERT_EQ(r.status, Status::Ok) << r.reason;
  ASSERT_EQ(lines.size(), 2u);
  EXPECT_EQ(lines[0], "waiting for a GPU: job 7 PENDING (Resources)");
  EXPECT_EQ(lines[1], "");  // it runs now
  EXPECT_EQ(shown, std::vector<std::string>{"waiting for a GPU: job 7 PENDING (Resources)"});
  EXPECT_EQ(q.queue->released, 0);
}

TEST(WorkerQueue, CancelWhileWaitingGivesUpThePlace) {
  Queued q("launchlab-queue-cancel");
  IsolatedRunner runner(q.command);
  CancelToken cancel;
  runner.setWaitingFn([&](const std::string& line) {
    if (!line.empty()) cancel.cancel();  // Ctrl+C as soon as the front end shows the queue
  });
  const RunResult r = runner.run(request(), &cancel);
  EXPECT_EQ(r.status, Status::Failed);
  EXPECT_NE(r.reason.find("cancelled before it started"), std::string::npos) << r.reason;
  EXPECT_EQ(q.queue->released, 1);
}
