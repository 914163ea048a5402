#include <cmath>
#include <cstdio>
#include <filesystem>

#include "cpu_impl_checks.h"
#include "launchlab/files/npy.h"

using namespace launchlab;
using namespace launchlab::test;

TEST(L2Norm, CpuParallelMatchesSerial) {
  for (const char* d : {"1", "2", "37", "256"}) {
    expectCpuImplsPass(runCpu("l2_norm", 1001, DType::F32, {{"d", d}, {"input", "uniform"}}));
    expectCpuImplsPass(runCpu("l2_norm", 333, DType::F64, {{"d", d}}));
  }
}

TEST(L2Norm, EigenMatchesSerialAcrossRowBlocks) {
  // More rows than one Eigen block (4096 rows) with a ragged last block.
  RunResult r = runCpu("l2_norm", 10007, DType::F64, {{"d", "5"}, {"input", "uniform"}});
  expectCpuImplsPass(r);
  const ImplResult* e = r.find("cpu-eigen");
  ASSERT_NE(e, nullptr);
  EXPECT_EQ(e->verification.outcome, Verification::Outcome::Pass);
  EXPECT_EQ(e->verification.compared, 10007u);
}

TEST(L2Norm, UnitRowsHaveNormOne) {
  // The seed's check: points on the unit circle have L2 norm 1.0.
  for (const char* d : {"2", "3", "100"}) {
    RunResult r = runCpu("l2_norm", 10, DType::F32, {{"d", d}});
    ASSERT_EQ(r.status, Status::Ok);
    for (float v : r.find("cpu-serial")->outputs[0].view<float>()) EXPECT_NEAR(v, 1.0f, 2e-7f) << "d = " << d;
  }
}

TEST(L2Norm, MatrixShapesAndDeterminism) {
  const auto s = setupFor("l2_norm", 123, DType::F32, {{"d", "7"}});
  const Workload& w = workload("l2_norm");
  ASSERT_EQ(w.inputShapes(s).size(), 1u);
  EXPECT_EQ(w.inputShapes(s)[0], (std::vector<std::size_t>{123, 7}));
  EXPECT_EQ(w.makeOutputs(s)[0].shape(), (std::vector<std::size_t>{123}));
  expectDeterministicInputs("l2_norm", s);
  expectDeterministicInputs("l2_norm", setupFor("l2_norm", 64, DType::F64, {{"d", "3"}, {"input", "uniform"}}));
  EXPECT_DOUBLE_EQ(w.bytesMoved(s), 123.0 * 8 * 4);
}

TEST(L2Norm, KnownNorms) {
  const auto tmp = std::filesystem::temp_directory_path() / "launchlab_l2_norm_known.npy";
  HostArray x("x", DType::F64, {2, 3});
  auto v = x.view<double>();
  const double values[] = {3, 4, 0, 1, 2, 2};  // norms 5 and 3
  std::copy(std::begin(values), std::end(values), v.begin());
  npy::save(tmp.string(), x);
  RunRequest req;
  req.workload = "l2_norm";
  req.n = 2;  // rows: without it the engine would take the file's element count (6) as n
  req.params = {{"d", "3"}};
  req.inputFiles = {{"x", tmp.string()}};
  req.impls = {"cpu-parallel", "cpu-eigen"};
  req.keepOutputs = true;
  RunResult r = cpuEngine().run(req);
  ASSERT_EQ(r.status, Status::Ok) << r.reason;
  for (const char* id : {"cpu-serial", "cpu-parallel", "cpu-eigen"}) {
    auto norms = r.find(id)->outputs[0].view<double>();
    ASSERT_EQ(norms.size(), 2u);
    EXPECT_DOUBLE_EQ(norms[0], 5.0) << id;
    EXPECT_DOUBLE_EQ(norms[1], 3.0) << id;
  }
  std::filesystem::remove(tmp);
}

TEST(L2Norm, InputFilesMustBeNByD) {
  const auto tmp = std::filesystem::temp_directory_path() / "launchlab_l2_norm_shape.npy";
  HostArray x("x", DType::F64, {2, 3});
  for (auto& e : x.view<double>()) e = 1;
  npy::save(tmp.string(), x);
  RunRequest req;
  req.workload = "l2_norm";
  req.n = 2;
  req.params = {{"d", "3"}};
  req.inputFiles = {{"x", tmp.string()}};
  EXPECT_TRUE(cpuEngine().validate(req).empty());
  req.keepOutputs = true;
  RunResult r = cpuEngine().run(req);
  ASSERT_EQ(r.status, Status::Ok) << r.reason;
  for (double n : r.find("cpu-serial")->outputs[0].view<double>()) EXPECT_DOUBLE_EQ(n, std::sqrt(3.0));
  req.params = {{"d", "2"}};
  auto problems = cpuEngine().validate(req);
  ASSERT_FALSE(problems.empty());
  EXPECT_NE(problems.front().message.find("expected (2, 2)"), std::string::npos) << problems.front().message;
  std::filesystem::remove(tmp);
}

TEST(L2Norm, ValidateLimitsTheMatrix) {
  EXPECT_EQ(firstProblem("l2_norm", 10, DType::F32), "");
  const std::string big = firstProblem("l2_norm", std::uint64_t(1) << 24, DType::F32, {{"d", "1024"}});
  EXPECT_NE(big.find("2^32"), std::string::npos) << big;
  EXPECT_NE(firstProblem("l2_norm", 10, DType::F32, {{"d", "0"}}), "");
  EXPECT_NE(firstProblem("l2_norm", 10, DType::F32, {{"input", "gaussian"}}), "");
}
