// Every CUDA implementation of every registered workload against cpu-serial, on fresh random inputs
// (a new seed per case) and odd sizes, including tails that are not multiples of any block or vector width.
#include <gtest/gtest.h>

#include <random>

#include "gpu_env.h"

using namespace launchlab;

namespace {

test::GpuEnv& env() { return test::gpuEnv(); }

std::uint64_t freshSeed() {
  static std::random_device rd;
  return (std::uint64_t(rd()) << 32) ^ rd();
}

// Runs every CUDA implementation of `w` at size n (clamped to the workload's range) and checks each one.
void checkWorkload(const Workload& w, std::uint64_t n, DType dtype, const LaunchRequest& launch = {}) {
  const auto& info = w.info();
  n = std::clamp<std::uint64_t>(n, info.minN, info.maxN);
  RunRequest req;
  req.workload = info.id;
  req.n = n;
  req.dtype = dtype;
  req.seed = freshSeed();
  req.reps = 1;
  req.warmup = 0;
  req.launch = launch;
  for (const auto& s : w.impls())
    if (s.isGpu()) req.impls.push_back(s.id);
  if (req.impls.empty()) return;
  auto problems = env().engine->validate(req);
  ASSERT_TRUE(problems.empty()) << info.id << ": " << problems.front().message;
  RunResult r = env().engine->run(req);
  ASSERT_EQ(r.status, Status::Ok) << info.id << ": " << r.reason;
  for (const auto& i : r.impls) {
    SCOPED_TRACE(info.id + "/" + i.implId + " n=" + std::to_string(n) + " dtype=" + std::string(dtypeName(dtype)) +
                 " seed=" + std::to_string(req.seed));
    if (!i.gpu) continue;
    EXPECT_EQ(i.status, Status::Ok) << i.reason;
    EXPECT_NE(i.verification.outcome, Verification::Outcome::Fail)
        << i.verification.mismatches << " mismatches of " << i.verification.compared << ", first at "
        << (i.verification.firstMismatches.empty() ? 0 : i.verification.firstMismatches.front()) << " ("
        << i.verification.note << ")";
    EXPECT_NE(i.verification.outcome, Verification::Outcome::NotChecked);
    EXPECT_TRUE(i.launch.has_value());
  }
}

}  // namespace

TEST(AllCudaImpls, OddSizesEveryDType) {
  for (const auto& w : env().registry.all())
    for (DType t : w->info().dtypes)
      for (std::uint64_t n : {std::uint64_t(1), std::uint64_t(31), std::uint64_t(1000003)}) checkWorkload(*w, n, t);
}

TEST(AllCudaImpls, LargeDefaultDType) {
  for (const auto& w : env().registry.all()) checkWorkload(*w, std::uint64_t(1) << 27, w->info().defaultDType);
}

TEST(AllCudaImpls, SmallAndOddLaunches) {
  // Grid-stride and bounds-checked kernels must be right with any block (including non-multiples of 32).
  for (const auto& w : env().registry.all()) {
    if (w->info().launchDims != 1) continue;
    for (unsigned b : {1u, 33u, 1024u}) {
      LaunchRequest l;
      l.block = Dim3{b, 1, 1};
      checkWorkload(*w, 100003, w->info().defaultDType, l);
    }
  }
}
