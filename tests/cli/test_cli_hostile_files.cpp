// Files that are not what their names say, given to the CLI: a FIFO or /dev/zero as a course file or a kernel file,
// an #include of a FIFO, ids that are paths. Each is one line at once; nothing blocks, nothing grows.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <fstream>

#include "cli/cli_helpers.h"
#include "launchlab/course/exercise.h"
#include "launchlab/course/nvrtc.h"

using namespace launchlab::test;

namespace {

std::string courseFileWithId(const std::string& idJson) {
  return R"({"launchlab_course": 1, "experiments": [{"id": )" + idJson +
         R"(, "chapter": "C", "title": "T", "seed": {"file": "f", "section": "s", "line": 3}, "look_for": "x",
         "request": {"workload": "vector_add", "n": "1000", "dtype": "f32", "impls": "cpu-serial"}}]})";
}

}  // namespace

TEST(CliHostileFiles, ACourseFolderOfAPipeADeviceAndAFolderIsReadAtOnce) {
  const fs::path dir = freshFolder("hostile_course");
  ASSERT_EQ(::mkfifo((dir / "a.json").c_str(), 0600), 0);
  fs::create_symlink("/dev/zero", dir / "b.json");
  fs::create_directories(dir / "c.json");
  std::ofstream(dir / "d.json") << courseFileWithId(R"("my-good")");
  const Out r = cli("course --course-dir '" + dir.string() + "' --course-dir-only");
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.err.find((dir / "a.json").string() + ": is a pipe (FIFO), not a regular file"), std::string::npos);
  EXPECT_NE(r.err.find((dir / "b.json").string() + ": is a device, not a regular file"), std::string::npos);
  EXPECT_NE(r.err.find((dir / "c.json").string() + ": is a folder, not a file"), std::string::npos);
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 3) << r.err;
  EXPECT_NE(r.out.find("my-good"), std::string::npos);
  expectBadInput("course --course-dir ''", "--course-dir: '' is not a folder");
}

TEST(CliHostileFiles, IdsThatAreNotPlainNamesAreRefusedByFileAndField) {
  // An id names files (a preset per experiment) and goes on command lines: 'x/../../y' once wrote outside its folder.
  const fs::path dir = freshFolder("hostile_ids");
  std::ofstream(dir / "a.json") << courseFileWithId(R"("x/../../y")");
  std::ofstream(dir / "b.json") << courseFileWithId(R"("-rf")");
  const Out r = cli("course --course-dir '" + dir.string() + "' --course-dir-only");
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.err.find((dir / "a.json").string() + ": experiments[0].id: 'x/../../y' is not a plain name"),
            std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find((dir / "b.json").string() + ": experiments[0].id: '-rf' is not a plain name"), std::string::npos)
      << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 2) << r.err;
}

TEST(CliHostileFiles, AKernelFileThatIsAPipeOrADeviceIsBadInput) {
  const fs::path dir = freshFolder("hostile_kernel");
  ASSERT_EQ(::mkfifo((dir / "k.cu").c_str(), 0600), 0);
  expectBadInput("compile vector_add --kernel-file '" + (dir / "k.cu").string() + "'",
                 "--kernel-file: " + (dir / "k.cu").string() + ": is a pipe (FIFO), not a regular file");
  expectBadInput("compile vector_add --kernel-file /dev/zero", "--kernel-file: /dev/zero: is a device");
}

TEST(CliHostileFiles, AnIncludeOfAPipeIsOneErrorNotAHang) {
  if (const std::string why = launchlab::nvrtcUnavailableReason(); !why.empty()) GTEST_SKIP() << why;
  const fs::path dir = freshFolder("hostile_include");
  ASSERT_EQ(::mkfifo((dir / "fifo.h").c_str(), 0600), 0);
  const launchlab::Exercise& ex = *launchlab::findExercise("vector_add");
  std::ofstream(dir / "k.cu") << "#include \"fifo.h\"\n" << launchlab::exerciseText(ex, true);
  const Out r = cli("compile vector_add --kernel-file '" + (dir / "k.cu").string() + "'");
  EXPECT_NE(r.code, 0);
  EXPECT_NE(r.out.find("#include \"fifo.h\" is not a regular file (a pipe or a device)"), std::string::npos)
      << r.out << r.err;
}
