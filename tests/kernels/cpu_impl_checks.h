#pragma once
// Helpers for the CPU tests of the workloads: the registry, an engine without a GPU, setups with resolved
// parameters, runs of every CPU implementation checked against cpu-serial, and comparisons.
#include <gtest/gtest.h>

#include <cstring>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include "launchlab/engine/engine.h"
#include "launchlab/kernels.h"

namespace launchlab::test {

inline const Registry& registry() {
  static const Registry r = [] {
    Registry reg;
    kernels::registerAllWorkloads(reg);
    return reg;
  }();
  return r;
}

inline const Workload& workload(const std::string& id) {
  const Workload* w = registry().find(id);
  if (!w) throw std::logic_error("workload " + id + " is not registered");
  return *w;
}

/// An engine whose GPU is unavailable: CUDA implementations are skipped, CPU ones run.
inline Engine& cpuEngine() {
  static Engine e(registry(), makeUnavailableGpuRuntime("tests run without a GPU"));
  return e;
}

/// A setup as the engine would resolve it (defaults filled in, `params` given as text).
inline RunSetup setupFor(const std::string& id, std::uint64_t n, DType dtype,
                         const std::map<std::string, std::string>& params = {}, std::uint64_t seed = 42) {
  RunSetup s;
  s.n = n;
  s.dtype = dtype;
  s.seed = seed;
  std::string err;
  auto pv = resolveParams(workload(id).info().params, params, err);
  if (!pv) throw std::invalid_argument(err);
  s.params = *pv;
  return s;
}

/// Runs every CPU implementation once (outputs kept) and returns the result.
inline RunResult runCpu(const std::string& id, std::uint64_t n, DType dtype,
                        const std::map<std::string, std::string>& params = {}, std::uint64_t seed = 7) {
  RunRequest req;
  req.workload = id;
  req.n = n;
  req.dtype = dtype;
  req.params = params;
  req.seed = seed;
  req.warmup = 0;
  req.reps = 1;
  req.keepOutputs = true;
  req.keepInputs = true;
  for (const auto& s : workload(id).impls())
    if (!s.isGpu()) req.impls.push_back(s.id);
  return cpuEngine().run(req);
}

/// Every CPU implementation other than the reference verified against it (and ran); demonstrations report as such.
inline void expectCpuImplsPass(const RunResult& r) {
  ASSERT_EQ(r.status, Status::Ok) << r.reason;
  int checked = 0;
  for (const auto& i : r.impls) {
    if (i.gpu) {
      EXPECT_EQ(i.status, Status::Skipped) << i.implId;
      continue;
    }
    EXPECT_EQ(i.status, Status::Ok) << i.implId << ": " << i.reason;
    if (i.implId == "cpu-serial") continue;
    if (i.demonstration) {  // deliberately different (e.g. the seed's own bin rule): its result is the lesson
      EXPECT_EQ(i.verification.outcome, Verification::Outcome::Demonstration) << i.implId;
      continue;
    }
    ++checked;
    EXPECT_EQ(i.verification.outcome, Verification::Outcome::Pass)
        << r.workload << "/" << i.implId << ": " << i.verification.mismatches << " mismatches (" << i.verification.note
        << ")";
  }
  EXPECT_GE(checked, 1);
}

/// expectCpuImplsPass for every dtype of an element-wise workload at odd sizes (1, 31, 1000003), with every element
/// of every output compared.
inline void expectCpuImplsPassForEveryDType(const std::string& id) {
  for (DType t : workload(id).info().dtypes)
    for (std::uint64_t n : {1ull, 31ull, 1000003ull}) {
      SCOPED_TRACE(id + " " + std::string(dtypeName(t)) + " n=" + std::to_string(n));
      const RunResult r = runCpu(id, n, t, {}, 1000 + n);
      expectCpuImplsPass(r);
      for (const auto& i : r.impls)
        if (!i.gpu && i.implId != "cpu-serial") {
          EXPECT_EQ(i.verification.compared, n) << i.implId;
        }
    }
}

/// The output `name` of implementation `impl` in a run with kept outputs.
inline const HostArray& output(const RunResult& r, const std::string& impl, const std::string& name) {
  const ImplResult* i = r.find(impl);
  if (!i) throw std::logic_error("no implementation " + impl);
  for (const auto& a : i->outputs)
    if (a.name() == name) return a;
  throw std::logic_error("no output " + name);
}

/// Byte-for-byte equality of two arrays (name aside).
inline bool sameContents(const HostArray& a, const HostArray& b) {
  return a.dtype() == b.dtype() && a.shape() == b.shape() && std::memcmp(a.data(), b.data(), a.bytes()) == 0;
}

/// Input generation is a pure function of the seed: the same seed gives the same arrays, another seed other
/// arrays, and the inputs of one run differ from each other (distinct streams).
inline void expectDeterministicInputs(const std::string& id, const RunSetup& s, bool inputsDifferPairwise = true) {
  const Workload& w = workload(id);
  auto a = w.makeInputs(s);
  auto b = w.makeInputs(s);
  RunSetup other = s;
  other.seed = s.seed + 1;
  auto c = w.makeInputs(other);
  ASSERT_EQ(a.size(), w.info().inputs.size());
  const auto shapes = w.inputShapes(s);
  for (std::size_t i = 0; i < a.size(); ++i) {
    EXPECT_EQ(a[i].name(), w.info().inputs[i].name);
    EXPECT_EQ(a[i].shape(), shapes[i]) << a[i].name();
    EXPECT_EQ(a[i].dtype(), s.dtype);
    EXPECT_TRUE(sameContents(a[i], b[i])) << a[i].name() << " changed between two calls with one seed";
  }
  bool anyChanged = false;
  for (std::size_t i = 0; i < a.size(); ++i) anyChanged = anyChanged || !sameContents(a[i], c[i]);
  EXPECT_TRUE(anyChanged) << "another seed gave the same inputs";
  if (!inputsDifferPairwise) return;
  for (std::size_t i = 0; i < a.size(); ++i)
    for (std::size_t j = i + 1; j < a.size(); ++j)
      if (a[i].shape() == a[j].shape()) {
        EXPECT_FALSE(sameContents(a[i], a[j])) << a[i].name() << " == " << a[j].name();
      }
}

/// The engine's first validation problem for a request, or "" when it is valid.
inline std::string firstProblem(const std::string& id, std::uint64_t n, DType dtype,
                                const std::map<std::string, std::string>& params = {}) {
  RunRequest req;
  req.workload = id;
  req.n = n;
  req.dtype = dtype;
  req.params = params;
  auto p = cpuEngine().validate(req);
  return p.empty() ? std::string() : p.front().message;
}

}  // namespace launchlab::test
