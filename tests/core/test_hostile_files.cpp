// Files and tools that are not what they claim: a FIFO, /dev/zero, a folder or an oversized file where a course
// file is expected, a tool that floods its output, a compile that never ends. Each gives one clear line at once.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <thread>

#include "core/restore_course.h"
#include "launchlab/course/course.h"
#include "launchlab/course/nvrtc.h"
#include "launchlab/explorer/sweep.h"
#include "launchlab/files/bounded_file.h"
#include "launchlab/worker/subprocess.h"

using namespace launchlab;
#if defined(__SANITIZE_ADDRESS__)
#define LAUNCHLAB_UNDER_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define LAUNCHLAB_UNDER_ASAN 1
#endif
#endif
#ifndef LAUNCHLAB_UNDER_ASAN
#define LAUNCHLAB_UNDER_ASAN 0
#endif

namespace fs = std::filesystem;

namespace {

using test::RestoreCourse;
using test::writeFile;

fs::path hostileFolder(const std::string& name) { return test::freshFolder("hostile_" + name); }

fs::path fifo(const fs::path& p) {
  EXPECT_EQ(::mkfifo(p.c_str(), 0600), 0);
  return p;
}

bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

std::string experimentWithId(const std::string& idJson, const std::string& line = "3") {
  return R"({"launchlab_course": 1, "experiments": [{"id": )" + idJson +
         R"(, "chapter": "C", "title": "T", "seed": {"file": "f", "section": "s", "line": )" + line +
         R"(}, "look_for": "x", "request": {"workload": "hypot", "n": "1000", "dtype": "f32"}}]})";
}

}  // namespace

TEST(BoundedFile, ReadsARegularFileAndRefusesEverythingElseInOneLine) {
  const fs::path dir = hostileFolder("bounded");
  writeFile(dir / "ok.json", "{}");
  const auto ok = files::readBoundedFile((dir / "ok.json").string(), 10);
  EXPECT_TRUE(ok.ok()) << ok.error;
  EXPECT_EQ(ok.bytes, "{}");
  fs::create_symlink(dir / "ok.json", dir / "link.json");  // a link to a regular file is one
  EXPECT_TRUE(files::readBoundedFile((dir / "link.json").string(), 10).ok());

  const std::string pipe = fifo(dir / "pipe.json").string();  // never opened blocking: no writer ever comes
  EXPECT_EQ(files::readBoundedFile(pipe, 10).error, pipe + ": is a pipe (FIFO), not a regular file");
  fs::create_symlink("/dev/zero", dir / "zero.json");
  EXPECT_EQ(files::readBoundedFile((dir / "zero.json").string(), 10).error,
            (dir / "zero.json").string() + ": is a device, not a regular file");
  EXPECT_EQ(files::readBoundedFile(dir.string(), 10).error, dir.string() + ": is a folder, not a file");
  EXPECT_EQ(files::readBoundedFile((dir / "none").string(), 10).error, (dir / "none").string() + ": no such file");
  EXPECT_EQ(files::readBoundedFile((dir / "ok.json").string(), 1).error,
            (dir / "ok.json").string() + ": larger than 1 bytes, far more than such a file holds");
  // The cap counts what is read, not the reported size: /proc's files report 0 bytes.
  const auto proc = files::readBoundedFile("/proc/self/status", 64);
  EXPECT_TRUE(contains(proc.error, "larger than 64 bytes")) << proc.error;
  EXPECT_TRUE(proc.bytes.empty());
  std::string why;
  EXPECT_EQ(files::openRegularFile(pipe, why), -1);
  EXPECT_TRUE(contains(why, "FIFO"));
}

TEST(HostileCourseDir, PipesDevicesFoldersAndHugeFilesAreRefusedByName) {
  RestoreCourse restore;
  const fs::path dir = hostileFolder("coursedir");
  fifo(dir / "a_fifo.json");
  fs::create_symlink("/dev/zero", dir / "b_zero.json");
  fs::create_directories(dir / "c_folder.json");
  writeFile(dir / "d_huge.json", std::string(files::kMaxCourseFileBytes + 1, ' '));
  writeFile(dir / "e_good.json", experimentWithId(R"("my-good")"));
  const auto problems = useCourseDir(dir.string(), true);
  ASSERT_EQ(problems.size(), 4u);
  EXPECT_EQ(problems[0], (dir / "a_fifo.json").string() + ": is a pipe (FIFO), not a regular file");
  EXPECT_EQ(problems[1], (dir / "b_zero.json").string() + ": is a device, not a regular file");
  EXPECT_EQ(problems[2], (dir / "c_folder.json").string() + ": is a folder, not a file");
  EXPECT_EQ(problems[3], (dir / "d_huge.json").string() + ": larger than 4 MiB, far more than such a file holds");
  ASSERT_EQ(courseExperiments().size(), 1u);
  EXPECT_EQ(courseExperiments()[0].id, "my-good");
}

TEST(HostileCourseDir, IdsArePlainNamesAndNumbersDoNotWrap) {
  for (const char* id : {R"("x/../../y")", R"("/etc/passwd")", R"("a\nb")", R"(" ")", R"("-rf")", R"("..")"}) {
    const CourseFile f = parseCourseFile("c.json", experimentWithId(id));
    EXPECT_TRUE(f.experiments.empty()) << id;
    EXPECT_TRUE(f.problem.rfind("c.json: experiments[0].id: ", 0) == 0 && contains(f.problem, "not a plain name"))
        << f.problem;
    EXPECT_EQ(f.problem.find('\n'), std::string::npos) << f.problem;
  }
  EXPECT_EQ(parseCourseFile("c.json", experimentWithId(R"("my-exp.1_a")")).problem, "");
  EXPECT_EQ(parseCourseFile("c.json", experimentWithId(R"("a")", "4294967297")).problem,
            "c.json: experiments[0].seed.line: is too large (at most 2147483647)");
  EXPECT_EQ(parseCourseFile("c.json", experimentWithId(R"("a")", "-4294967297")).problem,
            "c.json: experiments[0].seed.line: is too large (at most 2147483647)");
}

TEST(HostileSweepFile, PipesAndDevicesAreRefusedAndTheCapIsOnWhatIsRead) {
  const fs::path dir = hostileFolder("sweep");
  const std::string pipe = fifo(dir / "s.json").string();
  std::string err;
  EXPECT_FALSE(loadSweepFile(pipe, &err));
  EXPECT_EQ(err, pipe + ": is a pipe (FIFO), not a regular file");
  EXPECT_FALSE(loadSweepFile("/dev/zero", &err));
  EXPECT_EQ(err, "/dev/zero: is a device, not a regular file");
}

TEST(BoundedOutput, AFloodingToolKeepsOnlyTheFirstKilobytes) {
  const Captured c = captureCommand({"head", "-c", "5000000", "/dev/zero"}, 30);
  EXPECT_EQ(c.status, 0);
  EXPECT_EQ(c.output.size(), kMaxCapturedBytes);
  EXPECT_EQ(c.dropped, 5000000 - kMaxCapturedBytes);
}

TEST(ChildProcess, TimeLimitCancelAndMemoryLimitEachStopIt) {
  const Captured slow = runInChild([](int) { ::pause(); }, {0.2, std::size_t(1) << 30, 1024});
  EXPECT_TRUE(slow.timedOut);
  EXPECT_EQ(slow.status, -1);
  CancelToken cancel;
  cancel.cancel();
  const Captured abandoned = runInChild([](int) { ::pause(); }, {60, std::size_t(1) << 30, 1024}, &cancel);
  EXPECT_TRUE(abandoned.cancelled);
  const Captured greedy = runInChild(
      [](int fd) {
        std::vector<char> big(std::size_t(512) << 20, 'x');  // past the limit: std::bad_alloc ends the child
        (void)!::write(fd, big.data(), 1);
      },
      {60, std::size_t(64) << 20, 1024});
#if LAUNCHLAB_UNDER_ASAN
  // ASan's allocator reports the refused allocation itself and exits with its own code, before any bad_alloc.
  EXPECT_NE(greedy.status, 0);
#else
  EXPECT_EQ(greedy.status, 125);
#endif
  EXPECT_TRUE(greedy.output.empty());
  const Captured fine = runInChild([](int fd) { (void)!::write(fd, "answer", 6); }, {});
  EXPECT_EQ(fine.status, 0);
  EXPECT_EQ(fine.output, "answer");
}

class HostileCompile : public ::testing::Test {
 protected:
  void SetUp() override {
    if (const std::string why = nvrtcUnavailableReason(); !why.empty()) GTEST_SKIP() << why;
  }
  const Exercise& ex = *findExercise("vector_add");
  UserKernel kernel(const std::string& source, const std::string& file = "k.cu") {
    return UserKernel{"vector_add", file, source + "\n" + std::string(exerciseText(ex, true)), "", 10};
  }
  static std::string onlyError(const CompileResult& r) {
    EXPECT_FALSE(r.ok);
    EXPECT_EQ(r.diagnostics.size(), 1u);
    return r.diagnostics.empty() ? "" : r.diagnostics[0].text;
  }
};

TEST_F(HostileCompile, AnIncludeOfAPipeIsRefusedBeforeCompiling) {
  const fs::path dir = hostileFolder("include");
  fifo(dir / "fifo.h");
  const auto r = compileUserKernel(kernel("#include \"fifo.h\""), ex, "sm_90");  // not beside k.cu: not found
  EXPECT_FALSE(r.ok);
  EXPECT_TRUE(std::any_of(r.diagnostics.begin(), r.diagnostics.end(),
                          [](const Diagnostic& d) { return contains(d.text, "fifo.h"); }));
  const auto beside = compileUserKernel(kernel("#include \"fifo.h\"", (dir / "k.cu").string()), ex, "sm_90");
  EXPECT_EQ(onlyError(beside),
            "#include \"fifo.h\" is not a regular file (a pipe or a device): the compiler would wait on it");
  const auto absolute = compileUserKernel(kernel("  #  include <" + (dir / "fifo.h").string() + ">"), ex, "sm_90");
  EXPECT_TRUE(contains(onlyError(absolute), "is not a regular file")) << onlyError(absolute);
}

TEST_F(HostileCompile, AMacroBombStopsAtTheTimeLimitAndAnAbandonedCompileAtOnce) {
  std::string bomb = "#define A0 x\n";
  for (int i = 1; i <= 40; ++i)
    bomb += "#define A" + std::to_string(i) + " A" + std::to_string(i - 1) + " A" + std::to_string(i - 1) + "\n";
  bomb += "int bomb = A40;\n";
  const auto r = compileUserKernel(kernel(bomb), ex, "sm_90", {0.5, std::size_t(1) << 30});
  EXPECT_EQ(onlyError(r),
            "the compiler did not finish within 0.5 s (an #include that waits, or a macro or template that expands "
            "without end?): it was stopped");
  CancelToken abandon;
  abandon.cancel();
  EXPECT_EQ(onlyError(compileUserKernel(kernel(bomb), ex, "sm_90", {}, &abandon)), "the compile was abandoned");
  // A sound kernel still compiles through the child.
  const auto good =
      compileUserKernel(UserKernel{"vector_add", "v.cu", std::string(exerciseText(ex, true)), "", 10}, ex, "sm_90");
  EXPECT_TRUE(good.ok);
  EXPECT_FALSE(good.cubin.empty());
  EXPECT_FALSE(good.loweredName.empty());
}
