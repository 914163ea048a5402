#pragma once
// A course experiment and runs for the stage's suites (the predict-then-reveal flow, the class poll): a kernel-ratio
// question ("how many times slower is the strided kernel?") and runs that answer it with chosen kernel times.
#include <string>

#include "launchlab/course/course.h"
#include "launchlab/engine/result.h"

namespace launchlab::test {

inline ImplResult timed(const std::string& id, double kernelMs) {
  ImplResult i;
  i.implId = id;
  i.gpu = true;
  i.phases[Phase::Kernel] = PhaseStats{kernelMs, kernelMs, kernelMs, 1};
  i.phases[Phase::Total] = PhaseStats{kernelMs * 3, kernelMs * 3, kernelMs * 3, 1};
  i.verification.outcome = Verification::Outcome::Pass;
  return i;
}

inline RunResult runOf(double coalescedMs, double stridedMs) {
  RunResult r;
  r.device.available = true;
  r.n = 4096;
  r.impls = {timed("cuda-coalesced", coalescedMs), timed("cuda-strided", stridedMs)};
  return r;
}

inline CourseExperiment ratioExperiment(const std::string& id) {
  CourseExperiment e;
  e.id = id;
  e.chapter = "memory";
  e.title = "Coalescing: stride 16 against coalesced";
  e.lookFor = "the strided kernel's longer bar";
  Prediction p;
  p.question = "How many times slower is the strided kernel, \"per launch\"?";
  p.answer.unit = "\u00D7";
  p.answer.logScale = true;
  p.answer.min = 0.01;
  p.answer.max = 1000;
  p.measure.name = "kernel_ratio";
  p.measure.of = "cuda-strided";
  p.measure.over = "cuda-coalesced";
  p.explain = "Each strided load touches its own sector.";
  e.predictions = {p};
  return e;
}

}  // namespace launchlab::test
