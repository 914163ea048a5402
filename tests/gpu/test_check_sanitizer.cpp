// `launchlab-cli check` on the GPU under the real compute-sanitizer: a reference solution is clean, a kernel without
// its bounds check is a memcheck finding at its line, a shared-memory tree without its barrier a racecheck finding,
// and the same tree with the barrier clean; every exercise's reference solution is clean at its check size, with
// progress lines, and a check past its time limit stops with a message. Skipped (with the reason) where the toolkit
// has no compute-sanitizer.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "launchlab/course/exercise.h"
#include "launchlab/course/sanitizer.h"
#include "launchlab/files/command_line.h"

namespace {

std::string env(const char* name, const char* fallback) {
  const char* v = std::getenv(name);
  return v && *v ? v : fallback;
}

struct Ran {
  int code = -1;
  std::string out;
};

Ran cli(const std::string& args) {
  const std::string line = launchlab::shellQuote(env("LAUNCHLAB_CLI", LAUNCHLAB_CLI_PATH)) + " " + args + " 2>&1";
  Ran r;
  FILE* p = ::popen(line.c_str(), "r");
  if (!p) return r;
  char buf[4096];
  for (std::size_t n; (n = std::fread(buf, 1, sizeof buf, p)) > 0;) r.out.append(buf, n);
  const int st = ::pclose(p);
  r.code = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
  return r;
}

std::string file(const std::string& name) {
  return launchlab::shellQuote(env("LAUNCHLAB_CHECK_DATA_DIR", LAUNCHLAB_CHECK_DATA_DIR) + "/" + name);
}

/// reduce_sum_shared.cu without its tree's barrier (line 14), written to a temporary file: a shared-memory race.
std::string racyTree() {
  std::ifstream in(env("LAUNCHLAB_CHECK_DATA_DIR", LAUNCHLAB_CHECK_DATA_DIR) + "/reduce_sum_shared.cu");
  std::stringstream out;
  for (std::string line; std::getline(in, line);)
    if (line.find("__syncthreads();  // every step") == std::string::npos) out << line << "\n";
  const auto path = std::filesystem::temp_directory_path() / "reduce_sum_shared_race.cu";
  std::ofstream(path) << out.str();
  return path.string();
}

TEST(CheckGpu, FindingsAtTheirLines) {
  if (launchlab::findComputeSanitizer(env("PATH", ""), env("CUDA_HOME", "")).empty())
    GTEST_SKIP() << "compute-sanitizer not found (PATH, $CUDA_HOME/bin, /usr/local/cuda/bin)";
  const std::string solution =
      launchlab::shellQuote(env("LAUNCHLAB_KERNELS_DIR", LAUNCHLAB_KERNELS_DIR) + "/vector_add/exercise_solution.cu");
  Ran r = cli("check vector_add --kernel-file " + solution);
  EXPECT_EQ(r.code, 0) << r.out;
  EXPECT_NE(r.out.find("memcheck clean"), std::string::npos) << r.out;

  r = cli("check vector_add --n 1000 --kernel-file " + file("vector_add_no_bounds_check.cu"));
  EXPECT_EQ(r.code, 1) << r.out;
  EXPECT_NE(r.out.find("vector_add_no_bounds_check.cu:7: memcheck: Invalid __global__"), std::string::npos) << r.out;
  // Every thread past n makes the same bad access: one line each for the read and the write, not one per thread.
  for (const char* access : {":7: memcheck: Invalid __global__ write", ":7: memcheck: Invalid __global__ read"}) {
    std::size_t lines = 0;
    for (auto at = r.out.find(access); at != std::string::npos; at = r.out.find(access, at + 1)) ++lines;
    EXPECT_LE(lines, 1u) << access << "\n" << r.out;
  }
  std::printf("%s", r.out.c_str());

  r = cli("check reduce_sum --block 256 --kernel-file " + launchlab::shellQuote(racyTree()));
  EXPECT_EQ(r.code, 1) << r.out;
  EXPECT_NE(r.out.find("reduce_sum_shared_race.cu:13: racecheck: race"), std::string::npos) << r.out;
  std::printf("%s", r.out.c_str());

  r = cli("check reduce_sum --block 256 --kernel-file " + file("reduce_sum_shared.cu"));
  EXPECT_EQ(r.code, 0) << r.out;
  EXPECT_NE(r.out.find("memcheck clean, racecheck clean"), std::string::npos) << r.out;
}

bool noSanitizer() { return launchlab::findComputeSanitizer(env("PATH", ""), env("CUDA_HOME", "")).empty(); }

std::string solutionOf(const std::string& exerciseId) {
  const launchlab::Exercise* ex = launchlab::findExercise(exerciseId);
  return ex ? launchlab::shellQuote(env("LAUNCHLAB_KERNELS_DIR", LAUNCHLAB_KERNELS_DIR) + "/" +
                                    launchlab::exerciseFile(*ex, true))
            : std::string("missing-exercise-") + exerciseId;
}

// Every reference solution, checked at its exercise's default check size. The time each takes is printed for the
// record (scripts/gpu/check_exercises.sh collects it); the check's own time limit, not this test, bounds it.
TEST(CheckGpu, EveryExerciseSolutionIsCleanAtItsCheckSize) {
  if (noSanitizer()) GTEST_SKIP() << "compute-sanitizer not found (PATH, $CUDA_HOME/bin, /usr/local/cuda/bin)";
  for (const auto& ex : launchlab::exercises()) {
    SCOPED_TRACE(ex.id);
    const auto start = std::chrono::steady_clock::now();
    const Ran r = cli("check " + ex.workload + " --exercise " + ex.id + " --kernel-file " + solutionOf(ex.id));
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::printf("exercise %s (%s, n = %llu): check exit %d in %.1f s\n", ex.id.c_str(), ex.workload.c_str(),
                static_cast<unsigned long long>(ex.checkN), r.code, s);
    EXPECT_EQ(r.code, 0) << r.out;
    EXPECT_NE(r.out.find("check: memcheck (1 of "), std::string::npos) << r.out;            // progress: the tool
    EXPECT_NE(r.out.find("n = " + std::to_string(ex.checkN)), std::string::npos) << r.out;  // and the size
  }
}

TEST(CheckGpu, ACheckPastItsTimeLimitStopsWithAMessage) {
  if (noSanitizer()) GTEST_SKIP() << "compute-sanitizer not found (PATH, $CUDA_HOME/bin, /usr/local/cuda/bin)";
  // 4096^3 products under memcheck take minutes: a one-second limit must stop it, and say how to go on.
  const Ran r = cli("check matmul --n 4096 --time-limit 1 --kernel-file " + solutionOf("matmul"));
  EXPECT_EQ(r.code, 1) << r.out;
  EXPECT_NE(r.out.find("memcheck did not finish within 1 s at n = 4096"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("--time-limit"), std::string::npos) << r.out;
}

}  // namespace
