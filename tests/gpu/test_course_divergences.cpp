// The course's divergences closed on the GPU: ATLAS's tree reduction (the race, one launch per level
// on the seed's 8 values and on 2^20), add_ufunc's device-array variants, the dropped cuda.synchronize(), the
// int16 waveform and the in-place normalisation, each against cpu-serial.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <set>
#include <utility>

#include "gpu_env.h"
#include "launchlab/files/npy.h"

using namespace launchlab;

namespace {

test::GpuEnv& env() { return test::gpuEnv(); }

RunResult run(const std::string& workload, std::uint64_t n, DType dtype, std::vector<std::string> impls,
              std::map<std::string, std::string> params = {}) {
  RunRequest req;
  req.workload = workload;
  req.n = n;
  req.dtype = dtype;
  req.impls = std::move(impls);
  req.params = std::move(params);
  req.reps = 3;
  req.keepOutputs = true;
  return env().engine->run(req);
}

const ImplResult& impl(const RunResult& r, const std::string& id) {
  const ImplResult* i = r.find(id);
  if (!i) throw std::runtime_error("no result for " + id);
  return *i;
}

void expectPass(const RunResult& r, const std::string& id) {
  const ImplResult& i = impl(r, id);
  EXPECT_EQ(i.status, Status::Ok) << id << ": " << i.reason;
  EXPECT_EQ(i.verification.outcome, Verification::Outcome::Pass) << id << ": " << i.verification.note;
}

}  // namespace

TEST(CourseDivergences, TreeSumStepOnTheSeedsEightValues) {
  const auto dir = std::filesystem::temp_directory_path() / "launchlab_tree8";
  std::filesystem::create_directories(dir);
  HostArray x("x", DType::F64, {8});
  const double v[8] = {3, 1, 7, 0, 4, 1, 6, 3};
  std::copy(v, v + 8, x.view<double>().begin());
  npy::save((dir / "x.npy").string(), x);
  RunRequest req;
  req.workload = "reduce_sum";
  req.n = 8;
  req.dtype = DType::F64;
  req.inputFiles = {{"x", (dir / "x.npy").string()}};
  req.impls = {"cpu-serial", "cuda-tree-global-halving"};
  req.reps = 1;
  req.keepOutputs = true;
  const RunResult r = env().engine->run(req);
  ASSERT_EQ(r.status, Status::Ok) << r.reason;
  expectPass(r, "cuda-tree-global-halving");
  EXPECT_EQ(impl(r, "cuda-tree-global-halving").outputs[0].view<double>()[0], 25.0);  // [4,7,5,9] -> [11,14] -> [25]
  EXPECT_EQ(impl(r, "cuda-tree-global-halving").metrics.at("launches_per_rep"), 3);
  const auto tree =
      impl(r, "cuda-tree-global-halving").outputs.at(1).view<double>();  // the tree output, drawn on the GPU
  EXPECT_EQ(tree[8], 4.0);
  EXPECT_EQ(tree[11], 9.0);
  EXPECT_EQ(tree[17], 14.0);
  EXPECT_EQ(tree[24], 25.0);
}

TEST(CourseDivergences, AtlasTreeReductionTwentyLaunchesAndTheRace) {
  const RunResult r =
      run("reduce_sum", std::uint64_t(1) << 20, DType::F64,
          {"cpu-serial", "cuda-naive-race", "cuda-atomics", "cuda-tree-global-halving"}, {{"input", "random"}});
  ASSERT_EQ(r.status, Status::Ok) << r.reason;
  expectPass(r, "cuda-atomics");
  expectPass(r, "cuda-tree-global-halving");
  EXPECT_EQ(impl(r, "cuda-tree-global-halving").metrics.at("launches_per_rep"), 20);
  const ImplResult& race = impl(r, "cuda-naive-race");
  EXPECT_EQ(race.verification.outcome, Verification::Outcome::Demonstration);
  EXPECT_EQ(race.verification.mismatches, 1u) << "a race over 2^20 additions on one address loses some";
}

TEST(CourseDivergences, AddUfuncDeviceArraysAndTheDroppedSynchronize) {
  const RunResult r = run("vector_add", 100000, DType::F32,
                          {"cpu-serial", "cuda-one-per-thread", "cuda-device-inputs", "cuda-device-output",
                           "cuda-explicit-sync", "cuda-no-sync"},
                          {{"input", "seed-2x"}});
  ASSERT_EQ(r.status, Status::Ok) << r.reason;
  for (const char* id :
       {"cuda-one-per-thread", "cuda-device-inputs", "cuda-device-output", "cuda-explicit-sync", "cuda-no-sync"})
    expectPass(r, id);
  // Host arrays copy every call; device inputs only copy the result back; out= copies nothing per call.
  EXPECT_TRUE(impl(r, "cuda-one-per-thread").phases.count(Phase::H2D));
  EXPECT_FALSE(impl(r, "cuda-device-inputs").phases.count(Phase::H2D));
  EXPECT_TRUE(impl(r, "cuda-device-inputs").phases.count(Phase::D2H));
  EXPECT_FALSE(impl(r, "cuda-device-output").phases.count(Phase::D2H));
  EXPECT_EQ(impl(r, "cuda-no-sync").outputs[0].view<float>()[99999], 3.0f * 99999.0f);
}

TEST(CourseDivergences, PyCudaIncrementInPlaceAndMonteCarloPointCloud) {
  const RunResult inc = run("vector_add", 1024, DType::I32, {"cpu-serial", "cuda-in-place"}, {{"input", "arange"}});
  ASSERT_EQ(inc.status, Status::Ok) << inc.reason;
  expectPass(inc, "cuda-in-place");
  EXPECT_EQ(impl(inc, "cuda-in-place").outputs[0].view<std::int32_t>()[1023], 1024);  // arange(1024) + 1
  const RunResult mc =
      run("monte_carlo_pi", 24 * 64 * 10000, DType::F32, {"cpu-serial", "cuda-philox", "cuda-shared-seed"});
  ASSERT_EQ(mc.status, Status::Ok) << mc.reason;
  expectPass(mc, "cuda-philox");
  auto distinct = [&](const std::string& id) {
    const HostArray& cloud = impl(mc, id).outputs.at(3);
    const auto p = cloud.view<double>();
    const std::size_t k = p.size() / 3;
    std::set<std::pair<double, double>> s;
    for (std::size_t j = 0; j < k; ++j) s.emplace(p[j], p[k + j]);
    return s.size();
  };
  EXPECT_EQ(distinct("cuda-philox"), 4096u);
  EXPECT_EQ(distinct("cuda-shared-seed"), 64u);  // every chunk drew chunk 0's points again
  const auto est = impl(mc, "cuda-shared-seed").outputs.at(2).view<double>();
  for (double e : est) EXPECT_EQ(e, est[0]);  // and every thread the same estimate
  const auto hist = impl(mc, "cuda-shared-seed").outputs.at(4).view<std::uint32_t>();  // so one bar holds them all
  EXPECT_EQ(*std::max_element(hist.begin(), hist.end()), 1536u);
  expectPass(mc, "cuda-philox");  // its histogram is its own estimates binned, checked exactly
}

TEST(CourseDivergences, Int16WaveformAndInPlaceNormalise) {
  const RunResult w = run("pulse_waveform", 100000, DType::I16,
                          {"cpu-serial", "cuda-host-roundtrips", "cuda-device-resident", "cuda-fused"});
  ASSERT_EQ(w.status, Status::Ok) << w.reason;
  for (const char* id : {"cuda-host-roundtrips", "cuda-device-resident", "cuda-fused"}) expectPass(w, id);
  const RunResult n = run("row_normalize", 32, DType::F32, {"cpu-serial", "cuda-thread-per-row-in-place"},
                          {{"d", "3"}, {"input", "arange"}});
  ASSERT_EQ(n.status, Status::Ok) << n.reason;
  expectPass(n, "cuda-thread-per-row-in-place");
}

// Session 3's three calls of sum_reduce on arange(1234) + 1: each gives 761995, and the device input is untouched.
TEST(CourseDivergences, ReduceCallFormsGiveTheSeedsSumAndLeaveTheDeviceInput) {
  const RunResult r =
      run("reduce_sum", 1234, DType::F64,
          {"cuda-reduce-host-input", "cuda-reduce-device-result", "cuda-reduce-device-input"}, {{"input", "arange"}});
  for (const char* id : {"cuda-reduce-host-input", "cuda-reduce-device-result", "cuda-reduce-device-input"}) {
    expectPass(r, id);
    EXPECT_EQ(impl(r, id).outputs.at(0).view<double>()[0], 761995.0) << id;
  }
  EXPECT_EQ(impl(r, "cuda-reduce-device-input").metrics.at("input_untouched"), 1.0);
  // No copy back with res=, no copy up on a device array: those phases are empty.
  EXPECT_EQ(impl(r, "cuda-reduce-device-result").phases.at(Phase::D2H).medianMs, 0.0);
  EXPECT_EQ(impl(r, "cuda-reduce-device-input").phases.at(Phase::H2D).medianMs, 0.0);
}

// go_fast compiled with NVRTC at the start of the run (s3-caching): it verifies and reports the compile and the
// first call beside the later calls (their ratio is recorded, not asserted: no timing comparison in tests).
TEST(CourseDivergences, GoFastCompilesAtRunTimeAndReportsTheFirstCall) {
  RunRequest req;
  req.workload = "go_fast";
  req.n = 64;
  req.dtype = DType::F64;
  req.params = {{"d", "64"}};
  req.impls = {"cuda-nvrtc-first-call"};
  req.reps = 5;
  req.warmup = 0;
  const RunResult r = env().engine->run(req);
  expectPass(r, "cuda-nvrtc-first-call");
  const auto& m = impl(r, "cuda-nvrtc-first-call").metrics;
  for (const char* k : {"compile_ms", "first_call_ms", "later_call_ms", "first_over_later"})
    EXPECT_EQ(m.count(k), 1u) << k;
}

// The seed's zero_suppress call alone (int16 up, one kernel, int16 back), the make_pulses exercise without the
// zero_suppress step, and the array-oriented Mandelbrot: each verifies against cpu-serial.
TEST(CourseDivergences, SeedOnlyVariantsVerify) {
  const RunResult zs = run("pulse_waveform", 100000, DType::I16, {"cuda-zero-suppress-only"},
                           {{"amplitude", "300"}, {"threshold", "15"}});
  expectPass(zs, "cuda-zero-suppress-only");
  EXPECT_EQ(impl(zs, "cuda-zero-suppress-only").metrics.at("pcie_bytes"), 2.0 * 2 * 100000);  // int16 up and down
  const RunResult mp =
      run("pulse_waveform", 100000, DType::F32, {"cuda-host-roundtrips", "cuda-device-resident", "cuda-fused"},
          {{"amplitude", "100"}, {"zero_suppress", "off"}});
  for (const char* id : {"cuda-host-roundtrips", "cuda-device-resident", "cuda-fused"}) expectPass(mp, id);
  EXPECT_EQ(impl(mp, "cuda-device-resident").metrics.at("pcie_bytes"), (2 * 4 + 4) * 100000.0);  // t, noise up; 1 back
  const RunResult mb = run("mandelbrot", 200, DType::F32, {"cuda-per-pixel", "cuda-array-passes"});
  expectPass(mb, "cuda-array-passes");
  const RunResult q = run("quadratic", 1000000, DType::F64, {"cuda-numpy-passes"}, {{"square", "pow"}});
  expectPass(q, "cuda-numpy-passes");
  const RunResult ip = run("quadratic", 1000000, DType::F64, {"cuda-numpy-passes"}, {{"square", "intpow"}});
  expectPass(ip, "cuda-numpy-passes");
  const RunResult rn = run("row_normalize", 32, DType::F32, {"cuda-array-passes"}, {{"d", "3"}});
  expectPass(rn, "cuda-array-passes");
}
