// The course's declared views: every experiment's "stage" names an output (or the timing chart) and an
// implementation of its workload that the experiment runs, so the window opens where the lesson is.
#include <gtest/gtest.h>

#include <sstream>

#include "launchlab/course/course.h"
#include "metadata_checks.h"

using namespace launchlab;

TEST(CourseStage, DeclaredViewsAndImplementationsExist) {
  int declared = 0;
  for (const auto& e : courseExperiments()) {
    if (e.stage == StageView{}) continue;
    ++declared;
    const auto& w = test::workload(e.request.workload);
    if (!e.stage.view.empty() && e.stage.view != "timing") {
      bool found = false;
      for (const auto& o : w.info().outputs) found = found || o.name == e.stage.view;
      EXPECT_TRUE(found) << e.id << ": stage.view " << e.stage.view << " is no output of " << e.request.workload;
    }
    if (!e.stage.impl.empty()) {
      EXPECT_NE(w.findImpl(e.stage.impl), nullptr) << e.id << ": stage.impl " << e.stage.impl;
      std::stringstream impls(e.request.impls);
      bool runs = e.request.impls.empty() || e.request.impls == "all";
      for (std::string id; std::getline(impls, id, ',');) runs = runs || id == e.stage.impl;
      EXPECT_TRUE(runs) << e.id << ": stage.impl " << e.stage.impl << " is not among the experiment's impls";
    }
    EXPECT_TRUE(e.stage.timing.empty() || e.stage.timing == "kernel" || e.stage.timing == "gpu" ||
                e.stage.timing == "total")
        << e.id;
  }
  // The streams lesson opens on the overlap, the coalescing lesson on the access map with kernel time first.
  const auto* streams = findCourseExperiment("s3-streams-overlap");
  ASSERT_NE(streams, nullptr);
  EXPECT_EQ(streams->stage, (StageView{"timeline", "cuda-streams", ""}));
  const auto* coalescing = findCourseExperiment("es-coalescing");
  ASSERT_NE(coalescing, nullptr);
  EXPECT_EQ(coalescing->stage, (StageView{"sectors", "cuda-strided", "kernel"}));
  // The hidden layer's lesson is the CUDA bars' phases: the axis fits them.
  const auto* layer = findCourseExperiment("tp31-nn-hidden-layer");
  ASSERT_NE(layer, nullptr);
  EXPECT_EQ(layer->stage, (StageView{"timing", "", "gpu"}));
  EXPECT_GE(declared, 7);
}

TEST(CourseStage, AStageFieldOfTheWrongKindIsNamed) {
  const std::string head =
      R"({"launchlab_course": 1, "experiments": [{"id": "x", "chapter": "c", "title": "t", "seed": {"file": "f",)"
      R"( "section": "s", "line": 1}, "look_for": "l", "request": {"workload": "square", "n": "8", "dtype": "f32"})";
  EXPECT_EQ(parseCourseFile("a.json", head + R"(, "stage": {"timing": "fast"}}]})").problem,
            "a.json: experiments[0].stage.timing: must be \"kernel\", \"gpu\" or \"total\"");
  EXPECT_EQ(parseCourseFile("a.json", head + R"(, "stage": "points"}]})").problem,
            "a.json: experiments[0].stage: must be an object");
  const CourseFile ok = parseCourseFile("a.json", head + R"(, "stage": {"view": "out", "timing": "kernel"}}]})");
  ASSERT_TRUE(ok.problem.empty()) << ok.problem;
  EXPECT_EQ(ok.experiments[0].stage, (StageView{"out", "", "kernel"}));
}
