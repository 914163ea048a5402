// CPU implementations of the first workloads against each other and against known values.
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

#include "gaussian_pdf/gaussian_pdf.h"
#include "launchlab/engine.h"
#include "launchlab/kernels.h"

using namespace launchlab;

namespace {
struct Env {
  Registry reg;
  Engine engine;
  Env() : engine((kernels::registerAllWorkloads(reg), reg), kernels::makeDefaultGpuRuntime()) {}
};

RunResult runCpu(Env& e, const std::string& w, std::uint64_t n, DType t, std::map<std::string, std::string> params = {}) {
  RunRequest r;
  r.workload = w;
  r.n = n;
  r.dtype = t;
  r.impls = {"cpu-serial", "cpu-parallel"};
  r.reps = 1;
  r.warmup = 0;
  r.params = std::move(params);
  r.seed = 1000 + n;
  r.keepInputs = r.keepOutputs = true;
  return e.engine.run(r);
}
}  // namespace

TEST(FirstWorkloads, CpuParallelMatchesSerialForEveryDtypeAndOddSizes) {
  Env e;
  for (const char* w : {"vector_add", "gaussian_pdf", "hypot"}) {
    for (DType t : e.reg.find(w)->info().dtypes) {
      for (std::uint64_t n : {1ull, 31ull, 1000003ull}) {
        RunResult r = runCpu(e, w, n, t);
        ASSERT_EQ(r.status, Status::Ok) << r.reason;
        const ImplResult* p = r.find("cpu-parallel");
        ASSERT_NE(p, nullptr);
        EXPECT_EQ(p->verification.outcome, Verification::Outcome::Pass)
            << w << " " << dtypeName(t) << " n=" << n << ": " << p->verification.mismatches << " mismatches";
        EXPECT_EQ(p->verification.compared, n);
      }
    }
  }
}

TEST(FirstWorkloads, VectorAddArangeIsTheCourseExample) {
  Env e;
  RunResult r = runCpu(e, "vector_add", 4096, DType::I32, {{"input", "arange"}});
  ASSERT_EQ(r.status, Status::Ok) << r.reason;
  auto out = r.find("cpu-serial")->outputs.at(0).view<std::int32_t>();
  for (std::size_t i = 0; i < out.size(); ++i) ASSERT_EQ(out[i], std::int32_t(i + 1));  // [1 ... 4096]
}

TEST(FirstWorkloads, VectorAddOutputIsTheSumOfItsInputs) {
  Env e;
  RunResult r = runCpu(e, "vector_add", 777, DType::F64);
  auto x = r.inputs[0].view<double>();
  auto y = r.inputs[1].view<double>();
  auto out = r.find("cpu-parallel")->outputs.at(0).view<double>();
  for (std::size_t i = 0; i < out.size(); ++i) ASSERT_EQ(out[i], x[i] + y[i]);
  // Inputs are random, not constant (a constant input would hide indexing bugs).
  EXPECT_NE(x[0], x[1]);
}

TEST(FirstWorkloads, GaussianPdfMatchesTheClosedForm) {
  using kernels::gaussian_pdf::pdf;
  EXPECT_NEAR(pdf(0.0, 0.0, 1.0), 1.0 / std::sqrt(2 * std::numbers::pi), 1e-15);
  EXPECT_NEAR(pdf(1.0, 0.0, 1.0), std::exp(-0.5) / std::sqrt(2 * std::numbers::pi), 1e-15);
  EXPECT_NEAR(pdf(3.0, 1.0, 2.0), std::exp(-0.5) / (2 * std::sqrt(2 * std::numbers::pi)), 1e-15);
  Env e;
  RunResult r = runCpu(e, "gaussian_pdf", 10000, DType::F32, {{"mean", "0.5"}, {"sigma", "2"}});
  auto x = r.inputs[0].view<float>();
  auto y = r.find("cpu-serial")->outputs.at(0).view<float>();
  for (std::size_t i = 0; i < x.size(); ++i) {
    EXPECT_GE(x[i], -3.0f);
    EXPECT_LT(x[i], 3.0f);
    const double expect = std::exp(-0.5 * std::pow((x[i] - 0.5) / 2.0, 2)) / (2.0 * std::sqrt(2 * std::numbers::pi));
    ASSERT_NEAR(y[i], expect, 1e-6 * expect);
  }
}

TEST(FirstWorkloads, HypotIsTheHypotenuse) {
  Env e;
  RunResult r = runCpu(e, "hypot", 1000, DType::F64);
  auto a = r.inputs[0].view<double>();
  auto b = r.inputs[1].view<double>();
  auto c = r.find("cpu-parallel")->outputs.at(0).view<double>();
  for (std::size_t i = 0; i < c.size(); ++i) {
    EXPECT_GE(a[i], -12.0);
    EXPECT_LT(a[i], 12.0);
    ASSERT_NEAR(c[i], std::sqrt(a[i] * a[i] + b[i] * b[i]), 1e-12);
  }
}

TEST(FirstWorkloads, MetadataIsComplete) {
  Env e;
  for (const auto& w : e.reg.all()) {
    const auto& i = w->info();
    SCOPED_TRACE(i.id);
    EXPECT_FALSE(i.title.empty());
    EXPECT_FALSE(i.chapter.empty());
    EXPECT_GT(i.lesson.size(), 60u);
    EXPECT_FALSE(i.dtypes.empty());
    EXPECT_FALSE(i.outputs.empty());
    ASSERT_NE(w->findImpl("cpu-serial"), nullptr);
    EXPECT_NE(std::find(i.dtypes.begin(), i.dtypes.end(), i.defaultDType), i.dtypes.end());
    for (const auto& s : w->impls()) {
      EXPECT_FALSE(s.description.empty()) << s.id;
      if (!s.run) {
        EXPECT_FALSE(s.unavailableReason.empty()) << s.id;
      }
    }
  }
}
