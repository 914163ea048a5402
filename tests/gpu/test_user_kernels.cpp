// "my-kernel" on the GPU, through the worker process as the window and `run --kernel-file` use it: every reference
// solution passes verification (its time printed beside the built-in variant it mirrors), and a faulting and a
// non-terminating student kernel each cost one failed run, after which the next run works.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "launchlab/exercise.h"
#include "launchlab/nvrtc.h"
#include "launchlab/worker.h"

using namespace launchlab;

namespace {

/// The built-in variant each reference solution mirrors (for the printed comparison).
const char* mirrorOf(const std::string& exercise) {
  if (exercise == "vector_add") return "cuda-one-per-thread";
  if (exercise == "vector_add_grid_stride" || exercise == "hypot") return "cuda-grid-stride";
  if (exercise == "histogram") return "cuda-global-atomics";
  if (exercise == "atomic_counter") return "cuda-atomic";
  if (exercise == "reduce_sum") return "cuda-warp-shuffle";
  return "cuda-philox";
}

/// A path compiled in, unless the environment names another (the GPU machine runs a copy of the build elsewhere).
std::string fromEnv(const char* name, const char* compiled) {
  const char* v = std::getenv(name);
  return v && *v ? v : compiled;
}
std::string exercisesDir() { return fromEnv("LAUNCHLAB_EXERCISES_DIR", LAUNCHLAB_EXERCISES_DIR); }

std::string solution(const std::string& id) {
  std::ifstream f(exercisesDir() + "/solutions/" + id + ".cu");
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}

RunRequest requestFor(const Exercise& ex, std::string source, const std::string& file) {
  RunRequest r;
  r.workload = ex.workload;
  r.impls = {mirrorOf(ex.id), std::string(kMyKernel)};
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
    const ImplResult* builtIn = r.find(mirrorOf(ex.id));
    std::printf("  %-24s n=%-10llu my-kernel kernel %.4f ms (%s)   %s %.4f ms\n", ex.id.c_str(),
                static_cast<unsigned long long>(r.n), m.phases.at(Phase::Kernel).medianMs, m.launchNote.c_str(),
                mirrorOf(ex.id), builtIn && builtIn->status == Status::Ok ? builtIn->phases.at(Phase::Kernel).medianMs : -1.0);
  }
}

TEST_F(UserKernelsGpu, AStartingFileRunsAndFailsVerificationOnly) {
  const Exercise& ex = *findExercise("vector_add");
  std::ifstream f(exercisesDir() + "/vector_add.cu");
  std::stringstream s;
  s << f.rdbuf();
  const RunResult r = runner.run(requestFor(ex, s.str(), "vector_add.cu"));
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

}  // namespace
