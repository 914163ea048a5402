// No silent data loss: a writer killed mid-write (SIGKILL: no handler, no clean-up) leaves the file it was
// replacing exactly as it was, never a partial one in its place. files::writeAtomic is the writer under every file
// core and the CLI write (JSON, CSV, .npy, run files); atomic_write_helper drives it.
// The window's writers go through QSaveFile (exports, presets; QSettings uses it too); qt_write_helper drives
// ui::exportBytes the same way in GUI builds.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <thread>

#include "cli/cli_helpers.h"

using namespace launchlab::test;

namespace {
/// The size of the file writer `pid` has open in `target`'s folder (other than `target`) once it holds at least
/// `bytes`, or nullopt after `timeout`. Read through /proc/PID/fd: QSaveFile writes to an unnamed O_TMPFILE inode
/// that no folder listing shows; files::writeAtomic to a named temporary file.
std::optional<std::uintmax_t> partialWriteOf(pid_t pid, const fs::path& target, std::uintmax_t bytes,
                                             std::chrono::seconds timeout) {
  const fs::path fds = fs::path("/proc") / std::to_string(pid) / "fd";
  const std::string folder = target.parent_path().string() + "/";
  const auto end = std::chrono::steady_clock::now() + timeout;
  while (std::chrono::steady_clock::now() < end) {
    std::error_code ec;
    for (const auto& e : fs::directory_iterator(fds, ec)) {
      const fs::path to = fs::read_symlink(e.path(), ec);
      if (ec || to == target || to.string().rfind(folder, 0) != 0) continue;
      const std::uintmax_t size = fs::file_size(e.path(), ec);  // follows the link to the open file itself
      if (!ec && size >= bytes) return size;
    }
    std::this_thread::sleep_for(std::chrono::microseconds(200));
  }
  return std::nullopt;
}

/// A helper built beside this suite, or the one `env` names (binaries carried to another machine).
std::string helperPath(const char* env, const char* built) {
  const char* named = std::getenv(env);
  return named ? named : built;
}

pid_t startWriter(const std::string& helper, const fs::path& target, const char* mib) {
  const pid_t pid = ::fork();
  if (pid == 0) {
    ::execl(helper.c_str(), helper.c_str(), target.c_str(), mib, static_cast<char*>(nullptr));
    ::_exit(127);
  }
  return pid;
}

void expectKilledWriterLeavesTheOldFile(const std::string& helper, const std::string& name) {
  const fs::path dir = scratch() / ("atomic_kill_" + name);
  fs::remove_all(dir);
  fs::create_directories(dir);
  const fs::path target = dir / "result.json";
  const std::string old = "{\"the\": \"previous result\"}\n";
  std::ofstream(target) << old;

  const pid_t pid = startWriter(helper, target, "1024");  // 1 GiB: far longer to write than the 1 MiB we wait for
  ASSERT_GT(pid, 0);
  const auto partial = partialWriteOf(pid, target, 1 << 20, std::chrono::seconds(30));
  ::kill(pid, SIGKILL);
  int st = 0;
  ::waitpid(pid, &st, 0);
  ASSERT_TRUE(partial) << "the writer never started writing";
  ASSERT_TRUE(WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL) << "the writer finished before it was killed";
  EXPECT_EQ(slurp(target), old);  // the old file, whole, although the writer had written >= 1 MiB elsewhere
  // and nothing else: the partial data had no name in the folder, so none is left behind
  EXPECT_EQ(std::distance(fs::directory_iterator(dir), fs::directory_iterator()), 1);
  fs::remove_all(dir);
}

void expectFinishedWriterReplacesTheFile(const std::string& helper, const std::string& name) {
  const fs::path dir = scratch() / ("atomic_done_" + name);
  fs::remove_all(dir);
  fs::create_directories(dir);
  const fs::path target = dir / "outputs.npy";
  std::ofstream(target) << "old";
  const pid_t pid = startWriter(helper, target, "2");
  int st = 0;
  ASSERT_EQ(::waitpid(pid, &st, 0), pid);
  ASSERT_TRUE(WIFEXITED(st) && WEXITSTATUS(st) == 0);
  EXPECT_EQ(fs::file_size(target), 2u << 20);
  EXPECT_EQ(std::distance(fs::directory_iterator(dir), fs::directory_iterator()), 1);  // no temporary file left
  fs::remove_all(dir);
}

const std::string& coreHelper() {
  static const std::string p = helperPath("LAUNCHLAB_WRITE_HELPER", LAUNCHLAB_WRITE_HELPER_PATH);
  return p;
}
}  // namespace

TEST(AtomicWrite, AWriterKilledMidWriteLeavesTheOldFileIntact) {
  expectKilledWriterLeavesTheOldFile(coreHelper(), "core");
}

TEST(AtomicWrite, AWriterThatFinishesReplacesTheFileWhole) {
  expectFinishedWriterReplacesTheFile(coreHelper(), "core");
}

#ifdef LAUNCHLAB_QT_WRITE_HELPER_PATH
// The window's writer (QSaveFile). Carried binaries may lack the GUI helper: then the test says so and skips.
TEST(AtomicWrite, TheWindowsWriterKilledMidWriteLeavesTheOldFileIntact) {
  const std::string helper = helperPath("LAUNCHLAB_QT_WRITE_HELPER", LAUNCHLAB_QT_WRITE_HELPER_PATH);
  if (!fs::exists(helper)) GTEST_SKIP() << "no qt_write_helper at " << helper;
  expectKilledWriterLeavesTheOldFile(helper, "qt");
  expectFinishedWriterReplacesTheFile(helper, "qt");
}
#endif
