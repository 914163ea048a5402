#pragma once
// Helpers for the CPU tests of the course's workloads, part 2 (launch_coverage, atomic_counter, histogram,
// reduce_sum, monte_carlo_pi), on top of part_a_util.h (registry, engine without a GPU, setups and runs).
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

#include "part_a_util.h"

namespace launchlab::partb_test {

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
  const ImplSpec* s = test::workload(w).findImpl(id);
  if (!s) throw std::logic_error("no implementation " + id);
  return *s;
}

/// The metadata the GUI relies on: chapter, lesson, seed note, outputs, both CPU implementations, and the number of
/// CUDA variants (registered even where they cannot run).
inline void expectMetadata(const std::string& id, const std::string& chapter, std::size_t gpuVariants) {
  const Workload& w = test::workload(id);
  const auto& info = w.info();
  EXPECT_EQ(info.chapter, chapter);
  EXPECT_GT(info.lesson.size(), 80u);
  EXPECT_GT(info.seedNote.size(), 40u);
  EXPECT_FALSE(info.outputs.empty());
  EXPECT_NE(w.findImpl("cpu-serial"), nullptr);
  EXPECT_NE(w.findImpl("cpu-parallel"), nullptr);
  std::size_t gpu = 0;
  for (const auto& s : w.impls()) gpu += s.isGpu() ? 1 : 0;
  EXPECT_EQ(gpu, gpuVariants);
}

}  // namespace launchlab::partb_test
