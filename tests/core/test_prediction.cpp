// The measure vocabulary on synthetic results: each measure's value, unit and headline, the reason when the run
// lacks what it needs ("needs a GPU"), the course file's checks of the "predict" field, scoring a prediction, and
// the stage's header.
#include <gtest/gtest.h>

#include "launchlab/course/course.h"
#include "launchlab/course/course_headline.h"
#include "launchlab/course/prediction.h"

using namespace launchlab;

namespace {

ImplResult timed(const std::string& id, bool gpu, double computeMs, double totalMs) {
  ImplResult i;
  i.implId = id;
  i.gpu = gpu;
  i.phases[gpu ? Phase::Kernel : Phase::Cpu] = PhaseStats{computeMs, computeMs, computeMs, 1};
  i.phases[Phase::Total] = PhaseStats{totalMs, totalMs, totalMs, 1};
  i.verification.outcome = Verification::Outcome::Pass;
  return i;
}

ImplResult skippedGpu(const std::string& id) {
  ImplResult i;
  i.implId = id;
  i.gpu = true;
  i.status = Status::Skipped;
  i.reason = "no CUDA device";
  return i;
}

RunResult runOf(std::vector<ImplResult> impls, bool device = true) {
  RunResult r;
  r.device.available = device;
  r.n = 4096;
  r.impls = std::move(impls);
  return r;
}

MeasureSpec spec(std::string name, std::string of, std::string over = {}) {
  MeasureSpec m;
  m.name = std::move(name);
  m.of = std::move(of);
  m.over = std::move(over);
  return m;
}

ImplResult withCounter(ImplResult i, const std::string& id, double value) {
  if (!i.counters) i.counters = ImplCounters{};
  i.counters->values[id] = value;
  return i;
}

}  // namespace

TEST(Measures, KernelRatioDividesKernelTimesAndTotalRatioTotals) {
  const RunResult r = runOf({timed("cuda-coalesced", true, 0.2, 3), timed("cuda-strided", true, 1.0, 3.9)});
  MeasureValue v = measure(spec("kernel_ratio", "cuda-strided", "cuda-coalesced"), r);
  ASSERT_TRUE(v.ok()) << v.reason;
  EXPECT_DOUBLE_EQ(v.number, 5.0);
  EXPECT_EQ(v.unit, "×");
  EXPECT_EQ(v.headline, "kernel time: 0.2 ms coalesced → 1.00 ms strided: 5.0×");
  v = measure(spec("total_ratio", "cuda-strided", "cuda-coalesced"), r);
  EXPECT_DOUBLE_EQ(v.number, 1.3);
}

TEST(Measures, AGpuImplementationSkippedWithoutADeviceNeedsAGpu) {
  const RunResult none = runOf({timed("cpu-serial", false, 10, 10), skippedGpu("cuda-race")}, false);
  MeasureValue v = measure(spec("kernel_ratio", "cuda-race", "cpu-serial"), none);
  EXPECT_FALSE(v.ok());
  EXPECT_TRUE(v.needsGpu);
  EXPECT_EQ(v.reason, "needs a GPU");
  EXPECT_EQ(v.headline, "");
  // With a device, a skip has another cause: it is named, not blamed on the GPU.
  const RunResult gpu = runOf({timed("cpu-serial", false, 10, 10), skippedGpu("cuda-race")}, true);
  v = measure(spec("kernel_ratio", "cuda-race", "cpu-serial"), gpu);
  EXPECT_FALSE(v.needsGpu);
  EXPECT_EQ(v.reason, "cuda-race was skipped: no CUDA device");
  v = measure(spec("kernel_ratio", "cuda-atomic", "cpu-serial"), gpu);
  EXPECT_EQ(v.reason, "cuda-atomic is not in the run");
  EXPECT_EQ(measure(spec("kernel_ratio", "a", "b"), std::span<const RunPoint>{}).reason, "not run yet");
}

TEST(Measures, SpeedupIsAgainstOneCoreByDefaultAndTimeIsInMilliseconds) {
  const RunResult r = runOf({timed("cpu-serial", false, 40, 40), timed("cuda", true, 0.1, 0.5)});
  MeasureValue v = measure(spec("speedup", "cuda"), r);
  ASSERT_TRUE(v.ok()) << v.reason;
  EXPECT_DOUBLE_EQ(v.number, 80);
  EXPECT_EQ(v.headline, "speedup of CUDA over CPU serial (total time): 40 ms → 0.5 ms: 80×");
  MeasureSpec k = spec("speedup", "cuda");
  k.time = "kernel";
  EXPECT_DOUBLE_EQ(measure(k, r).number, 400);
  v = measure(spec("time", "cuda"), r);
  EXPECT_EQ(v.unit, "ms");
  EXPECT_EQ(v.headline, "total time of CUDA: 0.5 ms");
}

TEST(Measures, CountersShowBothSidesOrSayWhyTheyAreMissing) {
  const std::string id = "sectors_per_request";
  MeasureSpec m = spec("counter", "cuda-strided");
  m.counter = id;
  m.vs = "cuda-coalesced";
  RunResult r = runOf({withCounter(timed("cuda-coalesced", true, 1, 1), id, 4),
                       withCounter(timed("cuda-strided", true, 1, 1), id, 32)});
  MeasureValue v = measure(m, r);
  ASSERT_TRUE(v.ok()) << v.reason;
  EXPECT_DOUBLE_EQ(v.number, 32);
  EXPECT_EQ(v.headline, "sectors per request: 4.00 coalesced → 32.00 strided");
  m.name = "counter_ratio";
  m.over = "cuda-coalesced";
  EXPECT_DOUBLE_EQ(measure(m, r).number, 8);
  r.impls[0].counters.reset();
  EXPECT_EQ(measure(m, r).reason, "needs hardware counters (run with --counters on a GPU)");
  r.impls[0].counters = ImplCounters{};
  r.impls[0].counters->unavailable[id] = "not on this GPU";
  EXPECT_EQ(measure(m, r).reason, "not on this GPU");
}

TEST(Measures, MetricsAreCountsOfAWholeOrRatios) {
  ImplResult race = timed("cuda-race", true, 1, 1);
  race.metrics = {{"lost_updates", 4095}, {"expected", 4096}, {"pcie_bytes", 500}};
  ImplResult resident = timed("cuda-device-resident", true, 1, 1);
  resident.metrics = {{"pcie_bytes", 200}, {"row_sums_ms", 3}, {"col_sums_ms", 2}};
  const RunResult r = runOf({race, resident});
  MeasureSpec m = spec("metric", "cuda-race");
  m.metric = "lost_updates";
  m.outOf = "expected";
  MeasureValue v = measure(m, r);
  EXPECT_EQ(v.headline, "lost updates: 4095 of 4096");
  Prediction p;
  p.label = "lost increments";
  EXPECT_EQ(headlineOf(p, v), "lost increments: 4095 of 4096");
  m.outOf = "n";
  EXPECT_EQ(measure(m, r).headline, "lost updates: 4095 of 4096");
  m.metric = "missing";
  EXPECT_EQ(measure(m, r).reason, "cuda-race reports no missing");
  MeasureSpec ratio = spec("metric_ratio", "cuda-race", "cuda-device-resident");
  ratio.metric = "pcie_bytes";
  EXPECT_DOUBLE_EQ(measure(ratio, r).number, 2.5);
  MeasureSpec phases = spec("metric_ratio", "cuda-device-resident");
  phases.metric = "row_sums_ms";
  phases.outOf = "col_sums_ms";
  v = measure(phases, r);
  EXPECT_DOUBLE_EQ(v.number, 1.5);
  EXPECT_EQ(v.headline, "row sums / col sums: 2.00 ms col sums → 3.00 ms row sums: 1.50×");
}

TEST(Measures, FastestComparesTheTimeTheQuestionAsksFor) {
  // CPU parallel wins on the wall clock (no copies), the kernel wins on compute: a kernel lesson asks "kernel".
  const RunResult r =
      runOf({timed("cpu-parallel", false, 2, 2), timed("cuda-naive", true, 1.5, 9), timed("cuda-tile", true, 0.4, 8)});
  MeasureSpec m = spec("fastest", "");
  m.among = {"cuda-naive", "cuda-tile"};
  MeasureValue v = measure(m, r);
  EXPECT_EQ(v.choice, "cuda-tile");
  EXPECT_EQ(v.headline, "fastest (kernel time): tile, 0.4 ms");
  m.among.clear();
  m.time = "total";
  EXPECT_EQ(measure(m, r).choice, "cpu-parallel");
  m.time = "kernel";
  EXPECT_EQ(measure(m, r).choice, "cuda-tile");
  EXPECT_TRUE(measureIsChoice("fastest"));
  EXPECT_FALSE(measureIsChoice("kernel_ratio"));
}

TEST(Measures, OverlapFirstCallAndVerification) {
  ImplResult streams = timed("cuda-streams", true, 1, 1);
  streams.metrics["overlap_fraction"] = 0.91;
  ImplResult first = timed("cuda-nvrtc-first-call", true, 1, 1);
  first.metrics = {{"first_call_ms", 29}, {"later_call_ms", 0.057}};
  ImplResult wrong = timed("cuda-shared-no-sync", true, 1, 1);
  wrong.verification = {Verification::Outcome::Fail, 3, 0.75, 3, 4, {}, ""};
  const RunResult r = runOf({streams, first, wrong});
  EXPECT_EQ(measure(spec("overlap", "cuda-streams"), r).headline, "overlap 91 %");
  const MeasureValue f = measure(spec("first_call_ratio", "cuda-nvrtc-first-call"), r);
  EXPECT_NEAR(f.number, 508.8, 0.1);
  EXPECT_EQ(f.headline, "first call 29 ms, later calls 0.057 ms: 509×");
  EXPECT_EQ(measure(spec("verified", "cuda-streams"), r).choice, "yes");
  const MeasureValue no = measure(spec("verified", "cuda-shared-no-sync"), r);
  EXPECT_EQ(no.choice, "no");
  EXPECT_EQ(no.headline, "shared no sync: wrong in 3 of 4 elements");
  EXPECT_DOUBLE_EQ(measure(spec("mismatches", "cuda-shared-no-sync"), r).number, 3);
  ImplResult lucky = timed("cuda-race", true, 1, 1);  // a demonstration whose race did not strike this time
  lucky.verification.outcome = Verification::Outcome::Demonstration;
  EXPECT_EQ(measure(spec("verified", "cuda-race"), runOf({lucky})).choice, "yes");
  lucky.verification.mismatches = 1;
  EXPECT_EQ(measure(spec("verified", "cuda-race"), runOf({lucky})).choice, "no");
  EXPECT_DOUBLE_EQ(measure(spec("rel_error", "cuda-shared-no-sync"), r).number, 75);
  ImplResult unchecked = timed("cuda-x", true, 1, 1);
  unchecked.verification.outcome = Verification::Outcome::NotChecked;
  EXPECT_EQ(measure(spec("verified", "cuda-x"), runOf({unchecked})).reason, "cuda-x's result was not checked");
}

TEST(Measures, ScalarIsAOneElementOutput) {
  ImplResult mc = timed("cuda", true, 1, 1);
  mc.scalars["estimate"] = 1.5071;
  MeasureSpec m = spec("scalar", "cuda");
  m.metric = "estimate";
  EXPECT_EQ(measure(m, runOf({mc})).headline, "estimate from CUDA: 1.5071");
  m.metric = "pi";
  EXPECT_EQ(measure(m, runOf({mc})).reason, "cuda has no one-element output pi");
}

TEST(Measures, SweepPointsAreComparedByTheirFieldValues) {
  const RunResult f32 = runOf({timed("cuda", true, 0.2, 1)}), f64 = runOf({timed("cuda", true, 0.5, 2)});
  const RunResult slow = runOf({timed("cuda", true, 4.0, 5)});
  const std::vector<RunPoint> run = {{{{"dtype", "f32"}, {"n", "16"}}, &f32},
                                     {{{"dtype", "f64"}, {"n", "16"}}, &f64},
                                     {{{"dtype", "f64"}, {"n", "32"}}, &slow}};
  MeasureSpec m = spec("point_ratio", "cuda");
  m.at = {{"dtype", "f64"}, {"n", "16"}};
  m.overAt = {{"dtype", "f32"}, {"n", "16"}};
  MeasureValue v = measure(m, run);
  ASSERT_TRUE(v.ok()) << v.reason;
  EXPECT_DOUBLE_EQ(v.number, 2.5);
  EXPECT_EQ(v.headline, "kernel time of CUDA: 0.2 ms f32 → 0.5 ms f64: 2.5×");
  m.at = {{"dtype", "f64"}};  // two points match: ambiguous, not a guess
  EXPECT_EQ(measure(m, run).reason, "more than one sweep point has f64");
  m.at = {{"dtype", "f16"}};
  EXPECT_EQ(measure(m, run).reason, "no sweep point has f16");
  v = measure(spec("sweep_spread", "cuda"), run);
  EXPECT_DOUBLE_EQ(v.number, 20);
  EXPECT_EQ(v.headline, "kernel time of CUDA, slowest over fastest point: 0.2 ms (f32, 16) → 4.00 ms (f64, 32): 20×");
  // One run (the window's first, before the sweep) has no spread: never "0.086 ms () → 0.086 ms (): 1.00×".
  v = measure(spec("sweep_spread", "cuda"), std::vector<RunPoint>{{{}, &slow}});
  EXPECT_FALSE(v.ok());
  EXPECT_EQ(v.reason, "needs the experiment's sweep (one run is one point)");
}

namespace {

std::string fileWith(const std::string& predict, const std::string& impls = "cpu-serial,cuda-strided") {
  return R"({"launchlab_course": 1, "experiments": [{"id": "x", "chapter": "c", "title": "t",
    "seed": {"file": "f", "section": "s", "line": 1}, "look_for": "l",
    "request": {"workload": "coalescing", "n": "1024", "dtype": "f32", "impls": ")" +
         impls + R"("}, "predict": )" + predict + "}]}";
}

std::string problemOf(const std::string& predict, const std::string& impls = "cpu-serial,cuda-strided") {
  return parseCourseFile("my.json", fileWith(predict, impls)).problem;
}

const char* kRatio = R"({"question": "How many times slower?", "measure": "kernel_ratio", "of": "cuda-strided",
  "over": "cpu-serial", "answer": {"unit": "×", "scale": "log", "min": 1, "max": 100}, "explain": "Sectors."})";

}  // namespace

TEST(PredictionFile, APredictionIsReadAndWrittenBackTheSame) {
  const CourseFile f = parseCourseFile("my.json", fileWith(kRatio));
  ASSERT_EQ(f.problem, "");
  ASSERT_EQ(f.experiments.at(0).predictions.size(), 1u);
  const Prediction& p = f.experiments[0].predictions[0];
  EXPECT_EQ(p.measure.name, "kernel_ratio");
  EXPECT_EQ(p.measure.over, "cpu-serial");
  EXPECT_TRUE(p.answer.logScale);
  EXPECT_EQ(p.answer.unit, "×");
  const CourseFile back = parseCourseFile("my.json", fileWith(predictionsJson(f.experiments[0].predictions)));
  ASSERT_EQ(back.problem, "");
  EXPECT_EQ(back.experiments[0].predictions, f.experiments[0].predictions);
}

TEST(PredictionFile, EveryMistakeNamesTheFileAndTheField) {
  std::string bad = kRatio;
  bad.replace(bad.find("kernel_ratio"), 12, "kernel_rate");
  EXPECT_EQ(problemOf(bad).rfind("my.json: experiments[0].predict.measure: unknown measure 'kernel_rate' (one of: ", 0),
            0u)
      << problemOf(bad);
  bad = kRatio;
  bad.replace(bad.find("cuda-strided"), 12, "cuda-stridd");
  EXPECT_EQ(problemOf(bad),
            "my.json: experiments[0].predict.of: unknown implementation 'cuda-stridd': the request runs "
            "cpu-serial,cuda-strided");
  EXPECT_EQ(problemOf(bad, "all"), "");  // checked against the workload when it runs every implementation
  bad = kRatio;
  bad.replace(bad.find("\"over\""), 6, "\"ovr\"");
  EXPECT_EQ(problemOf(bad).rfind("my.json: experiments[0].predict.ovr: not an argument of kernel_ratio", 0), 0u);
  bad = kRatio;
  bad.replace(bad.find("\"min\": 1"), 8, "\"min\": 0");
  EXPECT_EQ(problemOf(bad), "my.json: experiments[0].predict.answer.min: must be more than 0 on a log scale");
  EXPECT_EQ(problemOf(std::string("[") + kRatio + ", 3]"), "my.json: experiments[0].predict[1]: must be an object");
  EXPECT_EQ(problemOf(R"({"question": "Which?", "measure": "fastest", "explain": "e"})"),
            "my.json: experiments[0].predict.answer.choices: missing (or give among)");
  EXPECT_EQ(problemOf(R"({"question": "Which?", "measure": "fastest", "among": ["cpu-serial", "cuda-strided"],
                          "answer": {"choices": ["cpu-serial", "cuda-x"]}, "explain": "e"})"),
            "my.json: experiments[0].predict.answer.choices[1]: unknown implementation 'cuda-x': the request runs "
            "cpu-serial,cuda-strided");
  EXPECT_EQ(problemOf(R"({"question": "Right?", "measure": "verified", "of": "cuda-strided", "explain": "e"})"), "");
  EXPECT_EQ(problemOf(R"({"question": "c?", "measure": "counter", "counter": "sectors", "of": "cuda-strided",
                          "answer": {"unit": "", "scale": "linear", "min": 0, "max": 1}, "explain": "e"})"),
            "my.json: experiments[0].predict.counter: unknown counter 'sectors' (see 'launchlab-cli profile --help')");
  EXPECT_EQ(problemOf(R"({"question": "q", "measure": "metric_ratio", "metric": "m", "of": "cuda-strided",
                          "answer": {"unit": "", "scale": "linear", "min": 0, "max": 1}, "explain": "e"})"),
            "my.json: experiments[0].predict.over: metric_ratio needs one of over (another implementation) or "
            "out_of (another metric)");
  std::string text = fileWith(kRatio);
  text.replace(text.find("\"title\": \"t\""), 12,
               "\"title\": \"t\", \"short_title\": \"" + std::string(57, 'x') + "\"");
  EXPECT_EQ(parseCourseFile("my.json", text).problem,
            "my.json: experiments[0].short_title: must be 1 to 56 characters");
}

TEST(PredictionScore, NumbersByFactorAndChoicesRightOrWrong) {
  Prediction p;
  p.answer = {{}, "×", true, 1, 100};
  std::string why;
  EXPECT_DOUBLE_EQ(parseGuess(p, " 4.5x ", &why)->number, 4.5);
  EXPECT_DOUBLE_EQ(parseGuess(p, "1e1×")->number, 10);
  EXPECT_FALSE(parseGuess(p, "500", &why));
  EXPECT_EQ(why, "'500' is out of range: give 1 to 100 ×");
  EXPECT_FALSE(parseGuess(p, "fast", &why));
  EXPECT_EQ(why, "'fast' is not a number (in ×)");
  MeasureValue m;
  m.number = 32;
  GuessScore s = scoreGuess(p, m, {4, {}});
  EXPECT_FALSE(s.close);
  EXPECT_DOUBLE_EQ(s.factor, 8);
  EXPECT_EQ(s.text, "8.0× too low");
  s = scoreGuess(p, m, {40, {}});
  EXPECT_TRUE(s.close);
  EXPECT_EQ(s.text, "1.25× too high (within 2×)");
  EXPECT_EQ(scoreGuess(p, m, {32, {}}).text, "exact");
  m.reason = "needs a GPU";
  s = scoreGuess(p, m, {4, {}});
  EXPECT_FALSE(s.comparable);
  EXPECT_EQ(s.text, "no answer to compare with: needs a GPU");

  Prediction share;
  share.answer = {{}, "%", false, 0, 100};
  MeasureValue overlap;
  overlap.number = 91;
  EXPECT_TRUE(scoreGuess(share, overlap, *parseGuess(share, "85 %")).close);
  EXPECT_EQ(scoreGuess(share, overlap, {50, {}}).text, "off by 41 % too low");

  Prediction which;
  which.answer.choices = {"cuda-tile", "cuda-naive"};
  EXPECT_EQ(parseGuess(which, "CUDA-Tile")->choice, "cuda-tile");
  EXPECT_FALSE(parseGuess(which, "tile", &why));
  EXPECT_EQ(why, "'tile' is not one of the choices: cuda-tile, cuda-naive");
  MeasureValue fastest;
  fastest.choice = "cuda-tile";
  EXPECT_EQ(scoreGuess(which, fastest, {0, "cuda-tile"}).text, "right");
  EXPECT_EQ(scoreGuess(which, fastest, {0, "cuda-naive"}).text, "wrong: it is cuda-tile");
}

TEST(StageText, ShortTitleQuestionAndTheHeadlineOnceItRan) {
  CourseExperiment e;
  e.title = "add_experiment[1024, 1024]: stride 16 against coalesced on n = 2^20";
  e.shortTitle = "Coalescing: stride 16";
  Prediction p;
  p.question = "How many times slower is strided?";
  p.measure = spec("kernel_ratio", "cuda-strided", "cuda-coalesced");
  e.predictions = {p};
  StageText h = stageText(e, {});
  EXPECT_EQ(h.title, "Coalescing: stride 16");
  EXPECT_EQ(h.question, "How many times slower is strided?");
  EXPECT_EQ(h.headline, "");
  const RunResult r = runOf({timed("cuda-coalesced", true, 0.2, 3), timed("cuda-strided", true, 1.0, 3.9)});
  const RunPoint one{{}, &r};
  h = stageText(e, std::span<const RunPoint>(&one, 1));
  EXPECT_EQ(h.headline, "kernel time: 0.2 ms coalesced → 1.00 ms strided: 5.0×");
  const RunResult cpu = runOf({skippedGpu("cuda-coalesced"), skippedGpu("cuda-strided")}, false);
  const RunPoint none{{}, &cpu};
  EXPECT_EQ(stageText(e, std::span<const RunPoint>(&none, 1)).headline, "kernel time: needs a GPU");
}

TEST(PredictionFile, ImplementationsOfAnAllRequestAreCheckedAgainstTheWorkload) {
  const CourseFile f = parseCourseFile("my.json", fileWith(std::string("[") + kRatio + ", " + kRatio + "]", "all"));
  ASSERT_EQ(f.problem, "");
  const auto& ps = f.experiments.at(0).predictions;
  EXPECT_EQ(unknownImplementation(ps, {"cpu-serial", "cuda-strided", "cuda-coalesced"}), "");
  EXPECT_EQ(unknownImplementation(ps, {"cpu-serial", "cuda-coalesced"}),
            "predict[0].of: unknown implementation 'cuda-strided' (the workload has cpu-serial, cuda-coalesced)");
  EXPECT_EQ(unknownImplementation({ps.front()}, {"cuda-strided"}),
            "predict.over: unknown implementation 'cpu-serial' (the workload has cuda-strided)");
}
