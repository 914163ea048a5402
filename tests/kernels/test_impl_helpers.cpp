// The helpers workloads are written with: BasicWorkload's default arrays and implementation list, the byte model
// computed from shapes, and the CPU loops.
#include <gtest/gtest.h>
#include <omp.h>

#include <atomic>
#include <cmath>
#include <cstring>
#include <stdexcept>

#include "common/cpu_loops.h"
#include "common/impl_helpers.h"
#include "launchlab/engine/engine.h"
#include "launchlab/engine/errors.h"

using namespace launchlab;
using namespace launchlab::kernels;

namespace {

// Two inputs and two outputs: "sum" in the run's dtype, "hits" with its own dtype (u32).
class Probe : public BasicWorkload {
 public:
  Probe() {
    m_info.id = "probe";
    m_info.dtypes = {DType::F32, DType::F64};
    m_info.inputs = {{.name = "x"}, {.name = "w"}};
    m_info.outputs = {{.name = "sum"}, {.name = "hits", .dtype = DType::U32}};
    addReference("ref", "the reference", [](ImplContext&) {});
    addCpu("cpu-parallel", "par", "all cores", [](ImplContext&) {});
    addGpu("cuda", "gpu", "not built here", ImplFn());
  }
  std::vector<HostArray> makeInputs(const RunSetup& s) const override { return allocateInputs(s); }
};

// Probe with its own output shapes: a 2 x n matrix and a single count.
class ShapedProbe final : public Probe {
 public:
  std::vector<std::vector<std::size_t>> outputShapes(const RunSetup& s) const override {
    return {{2, std::size_t(s.n)}, {1}};
  }
};

// Allocating anything fails: the byte model must not need the arrays.
class HugeProbe final : public Probe {
 public:
  std::vector<HostArray> makeInputs(const RunSetup&) const override { throw std::bad_alloc(); }
  std::vector<HostArray> makeOutputs(const RunSetup&) const override { throw std::bad_alloc(); }
};

RunSetup setup(std::uint64_t n, DType t) {
  RunSetup s;
  s.n = n;
  s.dtype = t;
  return s;
}

}  // namespace

TEST(BasicWorkload, DefaultOutputsAreShapedLikeNInTheRunsDTypeUnlessDeclared) {
  const Probe p;
  const auto out = p.makeOutputs(setup(7, DType::F64));
  ASSERT_EQ(out.size(), 2u);
  EXPECT_EQ(out[0].name(), "sum");
  EXPECT_EQ(out[0].shape(), (std::vector<std::size_t>{7}));
  EXPECT_EQ(out[0].dtype(), DType::F64);
  EXPECT_EQ(out[1].name(), "hits");
  EXPECT_EQ(out[1].shape(), (std::vector<std::size_t>{7}));
  EXPECT_EQ(out[1].dtype(), DType::U32);
  const auto in = p.makeInputs(setup(7, DType::F32));
  ASSERT_EQ(in.size(), 2u);
  EXPECT_EQ(in[1].name(), "w");
  EXPECT_EQ(in[1].shape(), (std::vector<std::size_t>{7}));
  EXPECT_EQ(in[1].dtype(), DType::F32);
}

TEST(BasicWorkload, OutputsFollowOutputShapes) {
  const ShapedProbe p;
  const auto out = p.makeOutputs(setup(5, DType::F32));
  ASSERT_EQ(out.size(), 2u);
  EXPECT_EQ(out[0].shape(), (std::vector<std::size_t>{2, 5}));
  EXPECT_EQ(out[0].dtype(), DType::F32);
  EXPECT_EQ(out[1].shape(), (std::vector<std::size_t>{1}));
  EXPECT_EQ(out[1].dtype(), DType::U32);
}

TEST(BasicWorkload, HostBytesAndBytesMovedComeFromShapesAndDTypes) {
  // Inputs 2 x n f64, outputs n f64 + n u32.
  EXPECT_EQ(Probe().hostBytes(setup(10, DType::F64)), 2 * 80.0 + 80.0 + 40.0);
  EXPECT_EQ(Probe().bytesMoved(setup(10, DType::F64)), 2 * 80.0 + 80.0 + 40.0);
  // Inputs 2 x n f32, outputs 2n f32 + one u32.
  EXPECT_EQ(ShapedProbe().hostBytes(setup(10, DType::F32)), 2 * 40.0 + 80.0 + 4.0);
  // 2^40 elements per array: counted, never allocated.
  const double n = double(std::uint64_t(1) << 40);
  EXPECT_EQ(HugeProbe().hostBytes(setup(std::uint64_t(1) << 40, DType::F64)), n * (8 + 8 + 8 + 4));
  EXPECT_EQ(HugeProbe().bytesMoved(setup(std::uint64_t(1) << 40, DType::F64)), n * (8 + 8 + 8 + 4));
}

TEST(BasicWorkload, ImplementationsAndTheirKinds) {
  const Probe p;
  ASSERT_EQ(p.impls().size(), 3u);
  EXPECT_EQ(p.impls()[0].id, kCpuSerial);
  EXPECT_EQ(p.impls()[0].kind, ImplKind::CpuSerial);
  EXPECT_EQ(p.impls()[1].kind, ImplKind::CpuParallel);
  EXPECT_EQ(p.impls()[2].kind, ImplKind::Cuda);
  EXPECT_TRUE(p.impls()[2].usesLaunchConfig);
  EXPECT_FALSE(p.impls()[2].unavailableReason.empty());  // no entry point: not built
  struct SecondReference : Probe {
    SecondReference() { addCpu(std::string(kCpuSerial), "again", "a reference by the back door", {}); }
  };
  EXPECT_THROW(SecondReference(), std::logic_error);
}

TEST(MakeArrays, NeedsOneShapePerSpec) {
  const std::vector<ArraySpec> specs = {{.name = "a"}, {.name = "b"}};
  EXPECT_THROW(makeArrays(specs, {{3}}, DType::F32), std::logic_error);
  EXPECT_EQ(makeArrays(specs, {{3}, {4, 5}}, DType::I32)[1].size(), 20u);
}

namespace {

// Runs a CPU implementation once (plus one warm-up) on fresh copies of `in`, returns its outputs.
template <typename Impl>
std::vector<HostArray> runOnce(const RunSetup& s, const std::vector<HostArray>& in, std::vector<HostArray> out,
                               Impl impl) {
  for (auto& o : out) o.poison();
  ImplContext ctx(s, in, out);
  ctx.reps = 2;
  impl(ctx);
  EXPECT_EQ(ctx.samples[Phase::Cpu].size(), 2u);  // one sample per timed repetition
  return out;
}

bool sameBytes(const HostArray& a, const HostArray& b) {
  return a.dtype() == b.dtype() && a.shape() == b.shape() && std::memcmp(a.data(), b.data(), a.bytes()) == 0;
}

const auto kFormula = [](auto a, auto b) { return a * b + std::sin(a) / (b + decltype(a)(3)); };

template <bool Parallel>
void mapImpl(ImplContext& ctx) {
  runCpuMap<Parallel, float, double>(ctx, kFormula);
}

// Each row r of an n x 3 matrix: y = x / (sum of the row), with an inner loop per row.
template <bool Parallel>
void rowImpl(ImplContext& ctx) {
  runCpuLoop<Parallel, float, double>(
      ctx,
      [&](auto tag) {
        using T = decltype(tag);
        const T* x = ctx.inputs[0].view<T>().data();
        T* y = ctx.outputs[0].view<T>().data();
        return [=](std::size_t r) {
          T sum = 0;
          for (std::size_t j = 0; j < 3; ++j) sum += x[3 * r + j];
          for (std::size_t j = 0; j < 3; ++j) y[3 * r + j] = x[3 * r + j] / sum;
        };
      },
      LoopItem::Row);
}

std::vector<HostArray> filledInputs(std::size_t n, DType t) {
  std::vector<HostArray> in;
  in.emplace_back("a", t, std::vector<std::size_t>{n});
  in.emplace_back("b", t, std::vector<std::size_t>{n});
  for (std::size_t i = 0; i < n; ++i) {
    visitDTypeAmong<float, double>(t, [&](auto tag) {
      using T = decltype(tag);
      in[0].view<T>()[i] = T(0.001) * T(i % 7919) - T(2);
      in[1].view<T>()[i] = T(1) + T(i % 13);
    });
  }
  return in;
}

}  // namespace

TEST(CpuLoops, MapIsTheFormulaAndParallelEqualsSerial) {
  for (DType t : {DType::F32, DType::F64}) {
    const std::size_t n = 100003;
    const auto in = filledInputs(n, t);
    std::vector<HostArray> out;
    out.emplace_back("out", t, std::vector<std::size_t>{n});
    const auto serial = runOnce(setup(n, t), in, out, mapImpl<false>);
    const auto parallel = runOnce(setup(n, t), in, out, mapImpl<true>);
    EXPECT_TRUE(sameBytes(serial[0], parallel[0])) << dtypeName(t);
    for (std::size_t i : {std::size_t(0), std::size_t(1), n / 2, n - 1}) {
      double expected = 0;
      visitDTypeAmong<float, double>(t, [&](auto tag) {
        using T = decltype(tag);
        expected = double(kFormula(in[0].view<T>()[i], in[1].view<T>()[i]));
      });
      EXPECT_EQ(serial[0].at(i), expected) << i;
    }
  }
}

TEST(CpuLoops, RowLoopParallelEqualsSerialAndCoversEveryRow) {
  const std::size_t rows = 1001;
  for (DType t : {DType::F32, DType::F64}) {
    std::vector<HostArray> in;
    in.emplace_back("x", t, std::vector<std::size_t>{rows, 3});
    for (std::size_t i = 0; i < in[0].size(); ++i)
      visitDTypeAmong<float, double>(t, [&](auto tag) { in[0].view<decltype(tag)>()[i] = decltype(tag)(1 + i % 5); });
    std::vector<HostArray> out;
    out.emplace_back("y", t, std::vector<std::size_t>{rows, 3});
    const auto serial = runOnce(setup(rows, t), in, out, rowImpl<false>);
    const auto parallel = runOnce(setup(rows, t), in, out, rowImpl<true>);
    EXPECT_TRUE(sameBytes(serial[0], parallel[0]));
    for (std::size_t r = 0; r < rows; ++r)
      ASSERT_NEAR(serial[0].at(3 * r) + serial[0].at(3 * r + 1) + serial[0].at(3 * r + 2), 1.0, 1e-6) << r;
  }
}

// A loop starts one thread per grain of work, at most OpenMP's maximum: a small loop stays on one core, where a
// team's slowest member would hold it for a scheduler time slice.
TEST(CpuLoops, TheTeamFollowsTheWorkAndOpenMPsMaximum) {
  const int saved = omp_get_max_threads();
  omp_set_num_threads(4);
  EXPECT_EQ(cpuTeam(0), 1);
  EXPECT_EQ(cpuTeam(10000), 1);
  EXPECT_EQ(cpuTeam(2 * kCpuGrain - 1), 1);
  EXPECT_EQ(cpuTeam(2 * kCpuGrain), 2);
  EXPECT_EQ(cpuTeam(std::size_t(1) << 40), 4);
  EXPECT_EQ(cpuTeam(100, 10), 4);
  const auto teamOf = [](std::size_t n) {
    std::atomic<int> most{0};
    forEachIndex<true>(n, [&](std::size_t) {
      int t = omp_get_num_threads(), m = most.load();
      while (t > m && !most.compare_exchange_weak(m, t)) {
      }
    });
    return most.load();
  };
  EXPECT_EQ(teamOf(10000), 1);
  EXPECT_EQ(teamOf(3 * kCpuGrain), 3);
  EXPECT_EQ(teamOf(64 * kCpuGrain), 4);
  omp_set_num_threads(saved);
}

TEST(CpuLoops, MapChecksItsArraysAndDType) {
  const auto in = filledInputs(10, DType::F32);
  std::vector<HostArray> out;
  out.emplace_back("out", DType::F32, std::vector<std::size_t>{10});
  const RunSetup s32 = setup(10, DType::F32);
  ImplContext ctx(s32, in, out);
  // One value per element, but the workload has two inputs.
  EXPECT_THROW((runCpuMap<false, float>(ctx, [](auto a) { return a; })), std::logic_error);
  // A dtype the implementation does not handle.
  const RunSetup sI32 = setup(10, DType::I32);
  ImplContext ctxI32(sI32, in, out);
  EXPECT_THROW((runCpuMap<false, float, double>(ctxI32, kFormula)), std::invalid_argument);
}

// An implementation whose library is missing at run time (cuBLAS loaded with dlopen, say) throws Unavailable: the
// engine reports it skipped with that reason, not failed, and the rest of the run goes on.
TEST(Engine, AnUnavailableImplementationIsSkippedWithItsReason) {
  class NeedsALibrary final : public Probe {
   public:
    NeedsALibrary() {
      m_info.id = "needs-a-library";
      addCpu("cpu-library", "library", "a library loaded at run time",
             [](ImplContext&) -> void { throw Unavailable("libexample.so.1 not found"); });
    }
  };
  Registry reg;
  reg.add(std::make_unique<NeedsALibrary>());
  Engine engine(reg, makeUnavailableGpuRuntime("no GPU in this test"));
  RunRequest r;
  r.workload = "needs-a-library";
  r.n = 16;
  r.reps = 1;
  r.warmup = 0;
  const RunResult res = engine.run(r);
  const ImplResult* lib = res.find("cpu-library");
  ASSERT_NE(lib, nullptr);
  EXPECT_EQ(lib->status, Status::Skipped);
  EXPECT_EQ(lib->reason, "libexample.so.1 not found");
  const ImplResult* par = res.find("cpu-parallel");
  ASSERT_NE(par, nullptr);
  EXPECT_EQ(par->status, Status::Ok);
}

// The engine leaves a GPU implementation's host outputs to it (the standard pipeline overwrites them from its
// poisoned device copy): one with its own copies calls poisonHostOutputs first, so what it leaves unwritten is NaN
// and fails verification; one that does neither fails with the reason, so the rule cannot be forgotten silently.
// The "GPU" implementations here are host functions behind a runtime that reports a device.
TEST(Engine, GpuImplementationsPoisonTheirOwnHostOutputsOrFail) {
  class OwnCopies final : public Probe {
   public:
    OwnCopies() {
      m_info.id = "own-copies";
      m_impls.clear();
      m_info.outputs = {{.name = "sum"}};
      auto fill = [](ImplContext& ctx, std::size_t upto) {
        auto v = ctx.outputs[0].view<float>();
        for (std::size_t i = 0; i < upto && i < v.size(); ++i) v[i] = 1.0f;
      };
      addReference("ref", "the reference", [fill](ImplContext& ctx) { fill(ctx, SIZE_MAX); });
      addGpu("cuda-half", "writes half, poisoned first", "", [fill](ImplContext& ctx) {
        ctx.poisonHostOutputs();
        fill(ctx, ctx.outputs[0].size() / 2);
      });
      addGpu("cuda-forgets", "writes all, never poisons", "", [fill](ImplContext& ctx) { fill(ctx, SIZE_MAX); });
    }
  };
  Registry reg;
  reg.add(std::make_unique<OwnCopies>());
  DeviceStatus gpu;
  gpu.available = true;
  gpu.info.name = "a reported GPU";
  Engine engine(reg, makeStaticGpuRuntime(gpu));
  RunRequest r;
  r.workload = "own-copies";
  r.n = 64;
  r.reps = 1;
  r.warmup = 0;
  // The reused host arrays of the reference's run hold 1.0 everywhere: without poison, half would pass unseen.
  const RunResult res = engine.run(r);
  const ImplResult* half = res.find("cuda-half");
  ASSERT_NE(half, nullptr);
  ASSERT_EQ(half->status, Status::Ok) << half->reason;
  EXPECT_EQ(half->verification.outcome, Verification::Outcome::Fail);
  EXPECT_EQ(half->verification.mismatches, 32u);
  const ImplResult* forgets = res.find("cuda-forgets");
  ASSERT_NE(forgets, nullptr);
  EXPECT_EQ(forgets->status, Status::Failed);
  EXPECT_NE(forgets->reason.find("neither ran the standard pipeline nor poisoned"), std::string::npos)
      << forgets->reason;
}
