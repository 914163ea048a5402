#pragma once
// Checks of a workload's metadata and implementation list, on top of cpu_impl_checks.h (registry and runs).
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

#include "cpu_impl_checks.h"
#include "launchlab/course/lesson.h"

namespace launchlab::test {

/// The implementation spec `id` of workload `w`.
inline const ImplSpec& spec(const std::string& w, const std::string& id) {
  const ImplSpec* s = workload(w).findImpl(id);
  if (!s) throw std::logic_error("no implementation " + id);
  return *s;
}

/// The metadata the GUI relies on: chapter, lesson, seed note, outputs, both CPU implementations, and the number of
/// CUDA variants (registered even where they cannot run).
inline void expectMetadata(const std::string& id, const std::string& chapter, std::size_t gpuVariants) {
  const Workload& w = workload(id);
  const auto& info = w.info();
  EXPECT_EQ(info.chapter, chapter);
  EXPECT_GT(lessonOf(id).lookFor.size(), 80u);  // kernels/<id>/lesson.md
  EXPECT_GT(lessonOf(id).seedNote.size(), 40u);
  EXPECT_FALSE(info.outputs.empty());
  EXPECT_NE(w.findImpl("cpu-serial"), nullptr);
  EXPECT_NE(w.findImpl("cpu-parallel"), nullptr);
  std::size_t gpu = 0;
  for (const auto& s : w.impls()) gpu += s.isGpu() ? 1 : 0;
  EXPECT_EQ(gpu, gpuVariants);
}

}  // namespace launchlab::test
