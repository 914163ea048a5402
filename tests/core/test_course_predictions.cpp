// Every course experiment asks a question whose measure names implementations its workload has, and answers it
// from a run: on the CPU the CPU measures give the launch arithmetic's values and a GPU measure says "needs a GPU";
// on a GPU every measure gives a value (counter measures with the counters on). Runs are small (one repetition,
// sizes capped) so that the 60 experiments stay within seconds.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>

#include "core/engine_fixture.h"
#include "launchlab/course/course.h"
#include "launchlab/course/course_headline.h"
#include "launchlab/explorer/sweep.h"

using namespace launchlab;

namespace {

std::size_t characters(const std::string& s) {
  return std::size_t(
      std::count_if(s.begin(), s.end(), [](char c) { return (static_cast<unsigned char>(c) & 0xC0) != 0x80; }));
}

/// The implementation ids a measure names.
std::vector<std::string> implsNamed(const Prediction& p) {
  const MeasureSpec& m = p.measure;
  std::vector<std::string> ids = m.among;
  for (const auto* id : {&m.of, &m.over, &m.vs})
    if (!id->empty()) ids.push_back(*id);
  if (m.name == "fastest") ids.insert(ids.end(), p.answer.choices.begin(), p.answer.choices.end());
  return ids;
}

// 1-D sizes up to 2^17 keep the seeds' launch arithmetic (100000 elements for the grid-stride add); the side of an
// image or a square matrix is kept up to 256.
constexpr std::uint64_t kMaxN1d = std::uint64_t(1) << 17, kMaxSide = 256;

}  // namespace

using CoursePredictions = test::EngineFixture;

TEST_F(CoursePredictions, EveryExperimentAsksAboutImplementationsItsWorkloadHas) {
  ASSERT_TRUE(builtinCourseProblems().empty()) << builtinCourseProblems().front();
  ASSERT_GE(courseExperiments().size(), 60u);  // a lower bound: adding an experiment stays a one-file change
  for (const auto& e : courseExperiments()) {
    SCOPED_TRACE(e.id);
    EXPECT_FALSE(e.predictions.empty());
    EXPECT_LE(characters(e.headerTitle()), kMaxHeaderTitle) << e.headerTitle();
    if (!e.shortTitle.empty()) {
      EXPECT_GT(characters(e.title), kMaxHeaderTitle) << "a short_title the title does not need";
    }
    const Workload* w = reg.find(e.request.workload);
    ASSERT_NE(w, nullptr);
    std::vector<std::string> known;
    for (const auto& s : w->impls()) known.push_back(s.id);
    EXPECT_EQ(unknownImplementation(e.predictions, known), "");
    for (const auto& p : e.predictions)
      EXPECT_GE(std::count(p.explain.begin(), p.explain.end(), '.'), 2) << "two or three sentences: " << p.explain;
  }
}

TEST_F(CoursePredictions, EveryMeasureAnswersFromARunOrSaysItNeedsAGpu) {
  const bool gpu = engine->deviceStatus().available;
  const int sm = smCountForSweeps(engine->deviceStatus());
  std::map<std::string, double> cpuValues;
  for (const auto& e : courseExperiments()) {
    SCOPED_TRACE(e.id);
    const Workload* w = reg.find(e.request.workload);
    ASSERT_NE(w, nullptr);
    const bool side = w->info().launchDims == 2 || w->info().sizeLabel.find("N x N") != std::string::npos;
    const std::uint64_t cap = side ? kMaxSide : kMaxN1d;
    std::vector<std::string> counters, impls = {"cpu-serial"};  // the reference, and what the measures read
    bool every = false, laterCalls = false;
    for (const auto& p : e.predictions) {
      laterCalls = laterCalls || p.measure.name == "first_call_ratio";  // the first call against later ones
      if (gpu && !p.measure.counter.empty()) counters.push_back(p.measure.counter);
      for (const auto& id : implsNamed(p))
        if (std::find(impls.begin(), impls.end(), id) == impls.end()) impls.push_back(id);
      every = every || (p.measure.name == "fastest" && p.measure.among.empty());
    }
    auto small = [&](RunRequest r) {
      r.reps = laterCalls ? 3 : 1;
      r.warmup = 0;
      r.counters = counters;
      if (!every) r.impls = impls;
      if (*r.n > cap) r.n = cap;
      return r;
    };
    std::vector<RunResult> results;
    std::vector<std::map<std::string, std::string>> at;
    SweepPlan plan{e.request, {}};
    for (const auto& [field, text] : e.sweep) plan.axes.push_back({field, *axisValues(text, nullptr, sm)});
    std::vector<RequestProblem> problems;
    const auto cells = plan.axes.empty()
                           ? std::vector<SweepCell>{{{}, parseRequest(e.request).request, {}, {}}}
                           : expandSweep(
                                 plan, [&](const RunRequest& r) { return engine->validate(r); }, problems);
    ASSERT_TRUE(problems.empty()) << problems.front().message;
    for (const auto& cell : cells) {
      ASSERT_TRUE(cell.request) << cell.skipReason;
      results.push_back(engine->run(small(*cell.request)));
      ASSERT_EQ(results.back().status, Status::Ok) << results.back().reason;
      std::map<std::string, std::string> values;
      for (std::size_t i = 0; i < plan.axes.size(); ++i) values[plan.axes[i].field] = cell.values[i];
      at.push_back(values);
    }
    std::vector<RunPoint> run;
    for (std::size_t i = 0; i < results.size(); ++i) run.push_back({at[i], &results[i]});
    for (const auto& p : e.predictions) {
      const MeasureValue v = measure(p.measure, run);
      if (gpu) {
        const bool countersRefused = !p.measure.counter.empty() && v.reason.find("counter") != std::string::npos;
        EXPECT_TRUE(v.ok() || countersRefused) << p.measure.name << ": " << v.reason;
      } else {
        EXPECT_TRUE(v.ok() || v.needsGpu) << p.measure.name << ": " << v.reason;
      }
      EXPECT_FALSE(stageText(e, run).headline.empty());
      if (!v.ok()) continue;
      EXPECT_FALSE(v.headline.empty());
      if (p.answer.isChoice()) {
        EXPECT_NE(std::find(p.answer.choices.begin(), p.answer.choices.end(), v.choice), p.answer.choices.end())
            << v.choice;
      }
      if (!gpu && &p == &e.predictions.front()) cpuValues[e.id] = v.number;
    }
  }
  if (gpu) return;
  // Without a GPU the CPU emulations still answer the launch questions, with the seeds' arithmetic.
  const std::map<std::string, double> expected = {{"tp32-coverage", 0},
                                                  {"tp32-coverage-too-few", 2048},
                                                  {"tp32-coverage-fewer-threads", 2048},
                                                  {"tp32-grid-stride-add", 96160},
                                                  {"es-suma-kernel", 27}};
  for (const auto& [id, value] : expected) {
    ASSERT_TRUE(cpuValues.count(id)) << id;
    EXPECT_DOUBLE_EQ(cpuValues[id], value) << id;
  }
  for (const char* id : {"tp31-monte-carlo-cpu", "tp31-add-ten"}) EXPECT_GT(cpuValues[id], 0) << id;
}
