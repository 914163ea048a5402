// "my-kernel" on the GPU, through the worker process as the window and `run --kernel-file` use it: every reference
// solution passes verification (its time printed beside the built-in variant it mirrors), a kernel's printf comes
// back as the run's program output, and a faulting and a non-terminating student kernel each cost one failed run,
// after which the next run works.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <sstream>

#include "launchlab/course/exercise.h"
#include "launchlab/course/nvrtc.h"
#include "launchlab/worker/worker.h"

using namespace launchlab;

namespace {

/// A path compiled in, unless the environment names another (the GPU machine runs a copy of the build elsewhere).
std::string fromEnv(const char* name, const char* compiled) {
  const char* v = std::getenv(name);
  return v && *v ? v : compiled;
}
/// The reference solution as the programs carry it (compiled in from kernels/<workload>/).
std::string solution(const std::string& id) { return std::string(exerciseText(*findExercise(id), true)); }

RunRequest requestFor(const Exercise& ex, std::string source, const std::string& file) {
  RunRequest r;
  r.workload = ex.workload;
  r.impls = {ex.mirrors, std::string(kMyKernel)};
  r.reps = 10;
  r.userKernel = UserKernel{ex.id, file, std::move(source), "", 10};
  return r;
}

const ImplResult& mine(const RunResult& r) {
  static const ImplResult none;
  const ImplResult* m = r.find(std::string(kMyKernel));
  return m ? *m : none;
}

class UserKernelsGpu : public ::testing::Test {
 protected:
  void SetUp() override {
    if (const std::string why = nvrtcUnavailableReason(); !why.empty()) GTEST_SKIP() << why;
  }
  IsolatedRunner runner{{fromEnv("LAUNCHLAB_CLI_PATH", LAUNCHLAB_CLI_PATH), "worker"}};
};

TEST_F(UserKernelsGpu, EveryReferenceSolutionPassesVerification) {
  for (const auto& ex : exercises()) {
    SCOPED_TRACE(ex.id);
    const RunResult r = runner.run(requestFor(ex, solution(ex.id), ex.id + ".cu"));
    ASSERT_EQ(r.status, Status::Ok) << r.reason;
    const ImplResult& m = mine(r);
    ASSERT_EQ(m.status, Status::Ok) << m.reason;
    EXPECT_TRUE(m.verification.passed()) << m.verification.note << " (" << m.verification.mismatches << " mismatches)";
    ASSERT_TRUE(m.launch.has_value());
    const ImplResult* builtIn = r.find(ex.mirrors);
    std::printf("  %-24s n=%-10llu my-kernel kernel %.4f ms (%s)   %s %.4f ms\n", ex.id.c_str(),
                static_cast<unsigned long long>(r.n), m.phases.at(Phase::Kernel).medianMs, m.launchNote.c_str(),
                ex.mirrors.c_str(),
                builtIn && builtIn->status == Status::Ok ? builtIn->phases.at(Phase::Kernel).medianMs : -1.0);
  }
}

// The 2-D solutions on sides that are not multiples of their tiles (the edge tiles' bounds checks), with the auto
// launch and with a grid smaller than the matrix in neither axis.
TEST_F(UserKernelsGpu, MatrixSolutionsOnOddShapes) {
  const std::pair<const char*, std::map<std::string, std::string>> cases[] = {{"transpose", {{"cols", "777"}}},
                                                                              {"matrix_add_2d", {{"cols", "333"}}},
                                                                              {"matmul", {{"k", "37"}, {"cols", "61"}}},
                                                                              {"row_normalize", {{"d", "17"}}}};
  for (const auto& [id, params] : cases) {
    SCOPED_TRACE(id);
    const Exercise& ex = *findExercise(id);
    RunRequest req = requestFor(ex, solution(ex.id), ex.id + ".cu");
    req.n = 101;
    req.params = params;
    req.reps = 2;
    const RunResult r = runner.run(req);
    ASSERT_EQ(r.status, Status::Ok) << r.reason;
    ASSERT_EQ(mine(r).status, Status::Ok) << mine(r).reason;
    EXPECT_TRUE(mine(r).verification.passed()) << mine(r).verification.note;
  }
}

TEST_F(UserKernelsGpu, AStartingFileRunsAndFailsVerificationOnly) {
  const Exercise& ex = *findExercise("vector_add");
  const RunResult r = runner.run(requestFor(ex, std::string(exerciseText(ex)), "vector_add.cu"));
  ASSERT_EQ(mine(r).status, Status::Ok) << mine(r).reason;
  EXPECT_FALSE(mine(r).verification.passed());  // the TODO writes nothing: the poisoned output shows it
  EXPECT_FALSE(mine(r).verification.firstMismatches.empty());
}

TEST_F(UserKernelsGpu, FaultAndHangEachCostOneFailedRun) {
  const Exercise& ex = *findExercise("vector_add");
  const std::string good = solution("vector_add");
  const std::string fault =
      "__global__ void vector_add(const float* x, const float* y, float* out, unsigned long long n) {\n"
      "  out[threadIdx.x + (1ull << 40)] = 1.0f;\n}\n";
  const std::string hang =
      "__global__ void vector_add(const float* x, const float* y, float* out, unsigned long long n) {\n"
      "  for (;;) out[threadIdx.x] = float(clock64());\n}\n";
  RunRequest faulting = requestFor(ex, fault, "fault.cu");
  faulting.impls = {std::string(kMyKernel)};
  const RunResult f = runner.run(faulting);
  EXPECT_EQ(mine(f).status, Status::Failed);
  EXPECT_NE(mine(f).reason.find("cudaErrorIllegalAddress"), std::string::npos) << mine(f).reason;
  const RunResult afterFault = runner.run(requestFor(ex, good, "good.cu"));
  EXPECT_TRUE(mine(afterFault).verification.passed()) << afterFault.reason << mine(afterFault).reason;

  RunRequest hung = requestFor(ex, hang, "hang.cu");
  hung.impls = {std::string(kMyKernel)};
  hung.userKernel->timeLimitS = 3;
  const RunResult h = runner.run(hung);
  EXPECT_EQ(h.status, Status::Failed);
  EXPECT_NE(h.reason.find("did not finish within the time limit of 3 s"), std::string::npos) << h.reason;
  const RunResult afterHang = runner.run(requestFor(ex, good, "good.cu"));
  EXPECT_TRUE(mine(afterHang).verification.passed()) << afterHang.reason << mine(afterHang).reason;
  EXPECT_GE(runner.workersStarted(), 3);
}

// A kernel's printf goes to the worker's stdout, which is not the frame stream: the run works, and the lines come
// back as the program's output (the window logs them under "the program printed:").
TEST_F(UserKernelsGpu, AKernelsPrintfIsProgramOutput) {
  const Exercise& ex = *findExercise("vector_add");
  const std::string printing =
      "__global__ void vector_add(const float* x, const float* y, float* out, unsigned long long n) {\n"
      "  const unsigned long long i = (unsigned long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
      "  if (i == 0) printf(\"hello from thread %d\\n\", int(threadIdx.x));\n"
      "  if (i < n) out[i] = x[i] + y[i];\n}\n";
  RunRequest req = requestFor(ex, printing, "printf.cu");
  req.impls = {std::string(kMyKernel)};
  req.reps = 3;
  const RunResult r = runner.run(req);
  ASSERT_EQ(r.status, Status::Ok) << r.reason;
  ASSERT_EQ(mine(r).status, Status::Ok) << mine(r).reason;
  EXPECT_TRUE(mine(r).verification.passed()) << mine(r).verification.note;
  const std::string out = runner.takeProgramOutput();
  std::printf("  the kernel printed: %s", out.c_str());
  EXPECT_NE(out.find("hello from thread 0\n"), std::string::npos) << out;
  const RunResult next = runner.run(requestFor(ex, solution("vector_add"), "vector_add.cu"));
  EXPECT_TRUE(mine(next).verification.passed()) << next.reason;
  EXPECT_EQ(runner.workersStarted(), 1);  // the same worker: nothing broke its frames
}

}  // namespace
