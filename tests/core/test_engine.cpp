// The engine with the real workloads on the CPU (GPU implementations are skipped here with a reason).
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstring>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "core/engine_fixture.h"
#include "helpers/test_files.h"
#include "launchlab/engine/engine.h"
#include "launchlab/files/csv.h"
#include "launchlab/files/json.h"
#include "launchlab/files/npy.h"
#include "launchlab/kernels.h"

using namespace launchlab;

namespace {
struct Fixture : test::EngineFixture {
  RunRequest req(const std::string& w, std::uint64_t n) {
    RunRequest r;
    r.workload = w;
    r.n = n;
    r.reps = 2;
    r.warmup = 0;
    return r;
  }
  std::string firstProblem(const RunRequest& r) {
    auto p = engine->validate(r);
    return p.empty() ? "" : p.front().field + ": " + p.front().message;
  }
};
using test::data;
}  // namespace

TEST_F(Fixture, ValidationNamesTheProblem) {
  auto r = req("vector_add", 1000);
  EXPECT_EQ(firstProblem(r), "");
  r.workload = "vector_ad";
  EXPECT_NE(firstProblem(r).find("unknown workload 'vector_ad'"), std::string::npos);
  r = req("gaussian_pdf", 1000);
  r.dtype = DType::I32;
  EXPECT_NE(firstProblem(r).find("does not support dtype i32"), std::string::npos);
  r = req("vector_add", 0);
  EXPECT_EQ(firstProblem(r).rfind("n:", 0), 0u);
  r = req("vector_add", 1000);
  r.impls = {"cuda-magic"};
  EXPECT_NE(firstProblem(r).find("unknown implementation 'cuda-magic'"), std::string::npos);
  r = req("vector_add", 1000);
  r.launch.block = Dim3{16, 16, 1};
  EXPECT_NE(firstProblem(r).find("1D launch"), std::string::npos);
  r = req("vector_add", 1000);
  r.launch.block = Dim3{1025, 1, 1};
  EXPECT_NE(firstProblem(r).find("1025 threads per block > 1024"), std::string::npos);
  r = req("gaussian_pdf", 1000);
  r.params = {{"sigma", "-1"}};
  EXPECT_NE(firstProblem(r).find("sigma"), std::string::npos);
  r.params = {{"xmin", "5"}, {"xmax", "1"}};
  EXPECT_NE(firstProblem(r).find("xmin must be below xmax"), std::string::npos);
  r = req("vector_add", 1000);
  r.reps = 0;
  EXPECT_EQ(firstProblem(r).rfind("reps:", 0), 0u);
}

TEST_F(Fixture, BadRequestIsAFailedResultNotAnException) {
  auto r = req("nope", 10);
  RunResult res = engine->run(r);
  EXPECT_EQ(res.status, Status::Failed);
  EXPECT_NE(res.reason.find("unknown workload"), std::string::npos);
}

TEST_F(Fixture, CpuImplementationsVerifyAndGpuOnesAreSkippedWithAReason) {
  for (const char* w : {"vector_add", "gaussian_pdf", "hypot"}) {
    RunResult res = engine->run(req(w, 100003));
    ASSERT_EQ(res.status, Status::Ok) << res.reason;
    const ImplResult* ref = res.find("cpu-serial");
    ASSERT_NE(ref, nullptr);
    EXPECT_EQ(ref->verification.outcome, Verification::Outcome::Reference);
    EXPECT_EQ(ref->phases.at(Phase::Cpu).samples, 2);
    const ImplResult* par = res.find("cpu-parallel");
    ASSERT_NE(par, nullptr);
    EXPECT_EQ(par->verification.outcome, Verification::Outcome::Pass) << w;
    EXPECT_EQ(par->verification.compared, 100003u);
    EXPECT_GT(par->bandwidthGBs, 0);
    EXPECT_GT(par->speedupTotal, 0);
    for (const auto& i : res.impls)
      if (i.gpu && !engine->deviceStatus().available) {
        EXPECT_EQ(i.status, Status::Skipped);
        EXPECT_FALSE(i.reason.empty());
      }
    EXPECT_TRUE(res.allPassed());
  }
}

// Live frames (verify off): only the selected implementation runs, cpu-serial is not run and nothing is verified.
TEST_F(Fixture, WithoutVerificationOnlyTheSelectedImplementationRuns) {
  auto r = req("vector_add", 4099);
  r.impls = {"cpu-parallel"};
  r.verify = false;
  const RunResult res = engine->run(r);
  ASSERT_EQ(res.status, Status::Ok) << res.reason;
  EXPECT_EQ(res.find("cpu-serial"), nullptr);
  const ImplResult* par = res.find("cpu-parallel");
  ASSERT_NE(par, nullptr);
  EXPECT_EQ(par->status, Status::Ok);
  EXPECT_EQ(par->verification.outcome, Verification::Outcome::NotChecked);
  EXPECT_EQ(par->verification.note, "not verified: a live frame (cpu-serial is not run)");
  r.verify = true;  // the same request verified: the reference runs again
  const RunResult checked = engine->run(r);
  ASSERT_NE(checked.find("cpu-serial"), nullptr);
  EXPECT_EQ(checked.find("cpu-parallel")->verification.outcome, Verification::Outcome::Pass);
}

TEST_F(Fixture, ReferenceAndInputsAreCachedAcrossIdenticalRuns) {
  auto r = req("hypot", 5000);
  r.impls = {"cpu-parallel"};
  r.keepInputs = true;
  RunResult a = engine->run(r);
  EXPECT_TRUE(engine->cacheHolds(r));
  RunResult b = engine->run(r);
  ASSERT_NE(b.find("cpu-serial"), nullptr);
  EXPECT_NE(b.find("cpu-serial")->verification.note.find("cached"), std::string::npos);
  EXPECT_EQ(b.find("cpu-parallel")->verification.outcome, Verification::Outcome::Pass);
  ASSERT_EQ(a.inputs.size(), b.inputs.size());
  EXPECT_EQ(std::memcmp(a.inputs[0].data(), b.inputs[0].data(), a.inputs[0].bytes()), 0);
  r.seed = 43;  // other inputs: the cache must not be used
  EXPECT_FALSE(engine->cacheHolds(r));
  RunResult c = engine->run(r);
  EXPECT_EQ(c.find("cpu-serial")->verification.note.find("cached"), std::string::npos);
  EXPECT_NE(std::memcmp(a.inputs[0].data(), c.inputs[0].data(), a.inputs[0].bytes()), 0);
}

// A sweep's points reuse the previous point's output arrays (Engine::reuseScratch): each must still start from
// poison, so a launch that covers less than the last one leaves its tail unwritten and fails there.
TEST_F(Fixture, ReusedOutputArraysArePoisonedAgainForEveryRun) {
  auto r = req("vector_add", 1000);
  r.impls = {"cpu-emulated-one-per-thread"};
  r.launch.block = Dim3{128, 1, 1};
  r.launch.grid = Dim3{8, 1, 1};  // 1024 threads: every element
  RunResult full = engine->run(r);
  ASSERT_NE(full.find("cpu-emulated-one-per-thread"), nullptr);
  EXPECT_EQ(full.find("cpu-emulated-one-per-thread")->verification.outcome, Verification::Outcome::Pass);
  r.launch.grid = Dim3{4, 1, 1};  // 512 threads: elements 512..999 are never written
  ASSERT_TRUE(engine->cacheHolds(r));
  RunResult tail = engine->run(r);
  const ImplResult* t = tail.find("cpu-emulated-one-per-thread");
  ASSERT_NE(t, nullptr);
  EXPECT_EQ(t->verification.outcome, Verification::Outcome::Demonstration);  // the tail alone: the lesson
  EXPECT_EQ(t->verification.mismatches, 488u);
  ASSERT_FALSE(t->verification.firstMismatches.empty());
  EXPECT_EQ(t->verification.firstMismatches.front(), 512u);
}

TEST_F(Fixture, CancelStopsTheRun) {
  CancelToken token;
  token.cancel();
  RunResult res = engine->run(req("vector_add", 1000), &token);
  EXPECT_EQ(res.status, Status::Failed);
  EXPECT_EQ(res.reason, "cancelled");
}

TEST_F(Fixture, ProgressIsReportedPerRepetition) {
  int calls = 0;
  auto r = req("vector_add", 1000);
  r.impls = {"cpu-parallel"};
  r.reps = 3;
  r.warmup = 1;
  engine->run(r, nullptr, [&](const Progress& p) {
    ++calls;
    EXPECT_LT(p.implIndex, p.implCount);
  });
  EXPECT_EQ(calls, 1 + 4);  // the reference once (not selected: 1 rep, no warm-up), cpu-parallel 1 warm-up + 3 reps
}

TEST_F(Fixture, InputFilesAreLoadedAndChecked) {
  auto r = req("vector_add", 1000);
  r.n.reset();
  r.inputFiles = {{"x", data("np_x_f32_1000.npy")}};
  r.keepOutputs = true;
  r.keepInputs = true;
  ASSERT_EQ(firstProblem(r), "");
  RunResult res = engine->run(r);
  ASSERT_EQ(res.status, Status::Ok) << res.reason;
  EXPECT_EQ(res.n, 1000u);  // taken from the file
  EXPECT_EQ(res.inputs[0].view<float>()[3], 3 * 0.25f - 7.0f);
  const auto& out = res.find("cpu-serial")->outputs.at(0).view<float>();
  EXPECT_EQ(out[3], res.inputs[0].view<float>()[3] + res.inputs[1].view<float>()[3]);

  r.inputFiles = {{"x", data("np_x_f32_2d.npy")}};
  EXPECT_NE(firstProblem(r).find("has shape (10, 100), expected (1000,)"), std::string::npos);
  r.inputFiles = {{"x", data("np_f64_2d.npy")}};
  r.dtype = DType::F32;
  EXPECT_NE(firstProblem(r).find("holds f64 but the run is f32"), std::string::npos);
  r.inputFiles = {{"z", data("np_x_f32_1000.npy")}};
  EXPECT_NE(firstProblem(r).find("has no input 'z'"), std::string::npos);
  r.inputFiles = {{"x", data("np_truncated.npy")}};
  EXPECT_NE(firstProblem(r).find("truncated"), std::string::npos);
}

namespace {
/// vector_add whose inputs, when the engine asks for them, first replace the input file with a 16-element array:
/// the file changes after the request was checked and before its data is read, as an editor that saves by renaming
/// can do during a run.
class FileSwappingWorkload final : public Workload {
 public:
  FileSwappingWorkload(const Workload& inner, std::string path) : m_inner(inner), m_path(std::move(path)) {}
  const WorkloadInfo& info() const override { return m_inner.info(); }
  const std::vector<ImplSpec>& impls() const override { return m_inner.impls(); }
  std::vector<HostArray> makeInputs(const RunSetup& setup) const override {
    npy::save(m_path, HostArray("x", DType::F32, std::vector<std::size_t>{16}));
    return m_inner.makeInputs(setup);
  }
  std::vector<std::vector<std::size_t>> inputShapes(const RunSetup& s) const override { return m_inner.inputShapes(s); }
  std::vector<std::vector<std::size_t>> outputShapes(const RunSetup& s) const override {
    return m_inner.outputShapes(s);
  }
  std::vector<HostArray> makeOutputs(const RunSetup& s) const override { return m_inner.makeOutputs(s); }
  Tolerance tolerance(const RunSetup& s, std::size_t i) const override { return m_inner.tolerance(s, i); }

 private:
  const Workload& m_inner;
  std::string m_path;
};
}  // namespace

TEST_F(Fixture, AnInputFileReplacedAfterItsCheckIsRefusedNotRead) {
  const std::string path =
      (std::filesystem::temp_directory_path() / ("ll_swap_" + std::to_string(::getpid()) + ".npy")).string();
  HostArray x("x", DType::F32, std::vector<std::size_t>{100000});
  npy::save(path, x);
  Registry swapping;
  swapping.add(std::make_unique<FileSwappingWorkload>(*reg.find("vector_add"), path));
  Engine e(swapping, kernels::makeDefaultGpuRuntime());
  auto r = req("vector_add", 1000);
  r.n.reset();
  r.impls = {"cpu-serial", "cpu-parallel"};
  r.inputFiles = {{"x", path}};
  ASSERT_TRUE(e.validate(r).empty());
  const RunResult res = e.run(r);
  EXPECT_EQ(res.status, Status::Failed);
  EXPECT_NE(res.reason.find("changed after it was checked"), std::string::npos) << res.reason;
  std::filesystem::remove(path);
}

TEST_F(Fixture, JsonAndCsvCarryTheResult) {
  RunResult res = engine->run(req("gaussian_pdf", 1000));
  auto j = nlohmann::json::parse(json::runResult(res));
  EXPECT_EQ(j["schema"], "launchlab.run");
  EXPECT_EQ(j["workload"], "gaussian_pdf");
  EXPECT_EQ(j["n"], 1000);
  EXPECT_EQ(j["params"]["sigma"], "1");
  ASSERT_TRUE(j["implementations"].is_array());
  EXPECT_EQ(j["implementations"][0]["id"], "cpu-serial");
  EXPECT_EQ(j["implementations"][1]["verification"]["outcome"], "pass");
  EXPECT_TRUE(j["implementations"][1]["phases"].contains("cpu"));
  EXPECT_TRUE(j["all_passed"].get<bool>());
  auto csv = csv::runResult(res);
  EXPECT_EQ(csv.rfind("workload,n,dtype,implementation", 0), 0u);
  EXPECT_NE(csv.find("gaussian_pdf,1000,f32,cpu-parallel,ok"), std::string::npos);
  auto wl = nlohmann::json::parse(json::workloads(reg));
  EXPECT_GE(wl["workloads"].size(), 3u);
  auto dev = nlohmann::json::parse(json::deviceStatus(engine->deviceStatus()));
  EXPECT_TRUE(dev["device"].contains("available"));
}

TEST_F(Fixture, HostMemoryCheckRefusesImpossibleSizes) {
  auto r = req("vector_add", std::uint64_t(1) << 31);
  r.dtype = DType::F64;  // 3 arrays of 16 GiB, for inputs and two sets of outputs: about 96 GiB
  const double need = 2.0 * 3 * 8 * double(std::uint64_t(1) << 31);
  if (double(hostAvailableMemory()) * 0.9 >= need) GTEST_SKIP() << "this machine has enough memory for the run";
  RunResult res = engine->run(r);
  EXPECT_EQ(res.status, Status::Failed);
  EXPECT_NE(res.reason.find("not enough host memory"), std::string::npos) << res.reason;
  EXPECT_NE(res.reason.find("GiB available"), std::string::npos);
}

TEST_F(Fixture, RowsAreInferredFromAMatrixInputFile) {
  if (!reg.find("l2_norm")) GTEST_SKIP() << "l2_norm not built";
  const auto dir = std::filesystem::temp_directory_path() / ("launchlab_rows_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  auto r = req("l2_norm", 123);
  r.keepInputs = true;
  RunResult first = engine->run(r);
  ASSERT_EQ(first.status, Status::Ok) << first.reason;
  const auto path = (dir / "x.npy").string();
  npy::save(path, first.inputs.at(0));
  RunRequest again = req("l2_norm", 0);
  again.n.reset();
  again.inputFiles = {{"x", path}};
  ASSERT_EQ(firstProblem(again), "");
  RunResult second = engine->run(again);
  ASSERT_EQ(second.status, Status::Ok) << second.reason;
  EXPECT_EQ(second.n, 123u);  // rows of the (123, d) file, not its element count
  std::filesystem::remove_all(dir);
}
