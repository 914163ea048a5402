// Every course preset as the seed launches it: each CUDA variant runs, verifies (demonstrations report their
// lesson) and launched exactly the seed's grid and block where the preset sets them.
#include <gtest/gtest.h>

#include "launchlab/course/course.h"
#include "launchlab/engine/engine.h"
#include "launchlab/kernels.h"

using namespace launchlab;

namespace {

bool usesLaunch(const Workload& w, const std::string& implId) {
  for (const auto& s : w.impls())
    if (s.id == implId) return s.usesLaunchConfig;
  return false;
}

void checkLaunch(const RunRequest& req, const Workload& w, const ImplResult& i) {
  if (!usesLaunch(w, i.implId)) return;
  ASSERT_TRUE(i.launch.has_value());
  if (req.launch.block) EXPECT_EQ(i.launch->block, *req.launch.block) << "block";
  if (req.launch.grid) EXPECT_EQ(i.launch->grid, *req.launch.grid) << "grid";
}

}  // namespace

TEST(CoursePresets, EveryCudaVariantRunsWithTheSeedsLaunch) {
  Registry registry;
  kernels::registerAllWorkloads(registry);
  Engine engine(registry, kernels::makeDefaultGpuRuntime());
  for (const auto& e : courseExperiments()) {
    SCOPED_TRACE(e.id);
    ParsedRequest p = parseRequest(e.request);
    ASSERT_TRUE(p.ok());
    p.request.reps = 1;
    const RunResult r = engine.run(p.request);
    ASSERT_EQ(r.status, Status::Ok) << r.reason;
    const Workload* w = registry.find(e.request.workload);
    ASSERT_NE(w, nullptr);
    for (const auto& i : r.impls) {
      if (!i.gpu) continue;
      SCOPED_TRACE(i.implId);
      EXPECT_EQ(i.status, Status::Ok) << i.reason;
      EXPECT_NE(i.verification.outcome, Verification::Outcome::Fail) << i.verification.note;
      checkLaunch(p.request, *w, i);
    }
  }
}
