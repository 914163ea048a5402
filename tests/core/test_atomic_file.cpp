// files::writeAtomic: the whole new content or the old file, never a mix; a replaced file keeps its permissions;
// through a symbolic link the file it names is replaced and the link stays; a device or a pipe is never replaced.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "helpers/test_files.h"
#include "launchlab/files/atomic_file.h"

namespace fs = std::filesystem;
using launchlab::files::writeAtomic;

namespace {
fs::path freshDir(const char* name) {
  const fs::path d = fs::temp_directory_path() / (std::string(name) + "_" + std::to_string(::getpid()));
  fs::remove_all(d);
  fs::create_directories(d);
  return d;
}
using launchlab::test::slurp;
}  // namespace

TEST(AtomicFile, ReplacesKeepingPermissionsAndLeavesNoTemporaryFile) {
  const fs::path d = freshDir("ll_atomic_perm");
  const fs::path f = d / "settings.json";
  writeAtomic(f.string(), "first");
  EXPECT_EQ(fs::status(f).permissions() & fs::perms::all, fs::perms(0644));
  fs::permissions(f, fs::perms(0600));
  writeAtomic(f.string(), {"sec", "ond"});
  EXPECT_EQ(slurp(f), "second");
  EXPECT_EQ(fs::status(f).permissions() & fs::perms::all, fs::perms(0600));  // was widened to 0644
  EXPECT_EQ(std::distance(fs::directory_iterator(d), fs::directory_iterator()), 1);
  fs::remove_all(d);
}

TEST(AtomicFile, WritesThroughASymbolicLinkAndRefusesPipes) {
  const fs::path d = freshDir("ll_atomic_link");
  fs::create_symlink("target.csv", d / "link.csv");
  writeAtomic((d / "link.csv").string(), "a,b\n");
  EXPECT_TRUE(fs::is_symlink(d / "link.csv"));  // was replaced by a regular file
  EXPECT_EQ(slurp(d / "target.csv"), "a,b\n");
  ASSERT_EQ(::mkfifo((d / "pipe").c_str(), 0600), 0);
  EXPECT_THROW(writeAtomic((d / "pipe").string(), "x"), std::runtime_error);
  EXPECT_TRUE(fs::is_fifo(d / "pipe"));  // was renamed over
  EXPECT_THROW(writeAtomic((d / "missing" / "x.json").string(), "x"), std::runtime_error);
  fs::remove_all(d);
}
