#pragma once
// Helpers for the CPU tests of the course's workloads (part 2: launch_coverage, atomic_counter, histogram,
// reduce_sum, monte_carlo_pi): the registry, an engine without a GPU, resolved setups and runs.
#include <gtest/gtest.h>

#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include "launchlab/engine.h"
#include "launchlab/kernels.h"

namespace launchlab::partb_test {

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
inline Engine& engine() {
  static Engine e(registry(), makeUnavailableGpuRuntime("tests run without a GPU"));
  return e;
}

/// A setup as the engine resolves it (parameter defaults filled in).
inline RunSetup setup(const std::string& id, std::uint64_t n, DType dtype,
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

/// Runs the CPU implementations once with outputs kept. `launch` is passed on as the user's request.
inline RunResult run(const std::string& id, std::uint64_t n, DType dtype,
                     const std::map<std::string, std::string>& params = {}, const LaunchRequest& launch = {},
                     std::uint64_t seed = 7) {
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
  req.launch = launch;
  for (const auto& s : workload(id).impls())
    if (!s.isGpu()) req.impls.push_back(s.id);
  return engine().run(req);
}

/// The CPU implementations ran, the GPU ones were skipped, and cpu-parallel verified against cpu-serial.
inline void expectCpuPass(const RunResult& r) {
  ASSERT_EQ(r.status, Status::Ok) << r.reason;
  for (const auto& i : r.impls) {
    if (i.gpu) {
      EXPECT_EQ(i.status, Status::Skipped) << i.implId;
      continue;
    }
    ASSERT_EQ(i.status, Status::Ok) << i.implId << ": " << i.reason;
    if (i.implId == "cpu-serial") continue;
    EXPECT_EQ(i.verification.outcome, Verification::Outcome::Pass)
        << r.workload << "/" << i.implId << ": " << i.verification.mismatches << " mismatches ("
        << i.verification.note << ")";
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

/// The implementation spec `id` of workload `w`.
inline const ImplSpec& spec(const std::string& w, const std::string& id) {
  const ImplSpec* s = workload(w).findImpl(id);
  if (!s) throw std::logic_error("no implementation " + id);
  return *s;
}

/// Every workload's metadata the GUI relies on: chapter, lesson, seed note, an output per spec, and the CUDA
/// variants listed (unavailable here, but registered).
inline void expectMetadata(const std::string& id, const std::string& chapter, std::size_t gpuVariants) {
  const auto& info = workload(id).info();
  EXPECT_EQ(info.chapter, chapter);
  EXPECT_GT(info.lesson.size(), 80u);
  EXPECT_GT(info.seedNote.size(), 40u);
  EXPECT_FALSE(info.outputs.empty());
  EXPECT_NE(workload(id).findImpl("cpu-serial"), nullptr);
  EXPECT_NE(workload(id).findImpl("cpu-parallel"), nullptr);
  std::size_t gpu = 0;
  for (const auto& s : workload(id).impls()) gpu += s.isGpu() ? 1 : 0;
  EXPECT_EQ(gpu, gpuVariants);
}

}  // namespace launchlab::partb_test
