// No silent data loss: a writer killed mid-write (SIGKILL: no handler, no clean-up) leaves the file it was
// replacing exactly as it was, never a partial one in its place. files::writeAtomic is the writer under every file
// core and the CLI write (JSON, CSV, .npy, presets of `course presets`); atomic_write_helper drives it.
#include <cstdlib>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <optional>
#include <thread>

#include "cli/cli_helpers.h"

using namespace launchlab::test;

namespace {
/// The writer's temporary file for `target` once it holds at least `bytes`, or nullopt after `timeout`.
std::optional<fs::path> partialFileOf(const fs::path& target, std::uintmax_t bytes, std::chrono::seconds timeout) {
  const std::string prefix = "." + target.filename().string() + ".";
  const auto end = std::chrono::steady_clock::now() + timeout;
  while (std::chrono::steady_clock::now() < end) {
    std::error_code ec;
    for (const auto& e : fs::directory_iterator(target.parent_path(), ec))
      if (e.path().filename().string().rfind(prefix, 0) == 0 && fs::file_size(e.path(), ec) >= bytes) return e.path();
    std::this_thread::sleep_for(std::chrono::microseconds(200));
  }
  return std::nullopt;
}

/// The helper built beside this suite, or LAUNCHLAB_WRITE_HELPER (binaries carried to another machine).
const char* writeHelper() {
  const char* env = std::getenv("LAUNCHLAB_WRITE_HELPER");
  return env ? env : LAUNCHLAB_WRITE_HELPER_PATH;
}

pid_t startWriter(const fs::path& target, const char* mib) {
  const char* helper = writeHelper();
  const pid_t pid = ::fork();
  if (pid == 0) {
    ::execl(helper, helper, target.c_str(), mib, static_cast<char*>(nullptr));
    ::_exit(127);
  }
  return pid;
}
}  // namespace

TEST(AtomicWrite, AWriterKilledMidWriteLeavesTheOldFileIntact) {
  const fs::path dir = scratch() / "atomic_kill";
  fs::remove_all(dir);
  fs::create_directories(dir);
  const fs::path target = dir / "result.json";
  const std::string old = "{\"the\": \"previous result\"}\n";
  std::ofstream(target) << old;

  const pid_t pid = startWriter(target, "1024");  // 1 GiB: far longer to write than the 1 MiB we wait for
  ASSERT_GT(pid, 0);
  const auto partial = partialFileOf(target, 1 << 20, std::chrono::seconds(30));
  ::kill(pid, SIGKILL);
  int st = 0;
  ::waitpid(pid, &st, 0);
  ASSERT_TRUE(partial) << "the writer never started writing";
  ASSERT_TRUE(WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL) << "the writer finished before it was killed";
  EXPECT_EQ(slurp(target), old);                 // the old file, whole
  EXPECT_GE(fs::file_size(*partial), 1u << 20);  // the partial write went to its own file
  fs::remove_all(dir);
}

TEST(AtomicWrite, AWriterThatFinishesReplacesTheFileWhole) {
  const fs::path dir = scratch() / "atomic_done";
  fs::remove_all(dir);
  fs::create_directories(dir);
  const fs::path target = dir / "outputs.npy";
  std::ofstream(target) << "old";
  const pid_t pid = startWriter(target, "2");
  int st = 0;
  ASSERT_EQ(::waitpid(pid, &st, 0), pid);
  ASSERT_TRUE(WIFEXITED(st) && WEXITSTATUS(st) == 0);
  EXPECT_EQ(fs::file_size(target), 2u << 20);
  EXPECT_EQ(std::distance(fs::directory_iterator(dir), fs::directory_iterator()), 1);  // no temporary file left
  fs::remove_all(dir);
}
