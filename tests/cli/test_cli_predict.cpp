// launchlab-cli course and predictions: the listing asks each question, `course run` prints it before the run and
// the measured answer with its explanation after, --predict says how far off it was, and `course --json` carries
// the predictions and short titles back unchanged.
#include "cli/cli_helpers.h"
#include "launchlab/course/course.h"

using namespace launchlab::test;

TEST(CliPredict, TheListingAsksEachQuestion) {
  Out r = cli("course");
  ASSERT_EQ(r.code, 0) << r.err;
  for (const auto& e : launchlab::courseExperiments())
    for (const auto& p : e.predictions) EXPECT_NE(r.out.find("ask:  " + p.question), std::string::npos) << e.id;
}

TEST(CliPredict, CourseRunAsksFirstThenAnswersAndScoresThePrediction) {
  Out r = cli("course run tp32-coverage-too-few --reps 1 --warmup 0 --predict 2000");
  ASSERT_EQ(r.code, 0) << r.err;
  const auto asked = r.out.find("question: 16 blocks of 128 threads on 4096 elements");
  const auto measured = r.out.find("measured: elements never written: 2048 of 4096");
  ASSERT_NE(asked, std::string::npos) << r.out;
  ASSERT_NE(measured, std::string::npos) << r.out;
  EXPECT_LT(asked, r.out.find("cpu-serial")) << "the question comes before the run's table";
  EXPECT_NE(r.out.find("predicted: 2000: off by 48 too low (close)"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("why: 16 × 128 = 2048 threads"), std::string::npos) << r.out;
}

TEST(CliPredict, AGpuQuestionSaysWhatItNeedsOrAnswers) {
  Out r = cli("course run tp32-atomic-counter --reps 1 --warmup 0 --predict 4000");
  ASSERT_EQ(r.code, 0) << r.err;
  if (r.out.find("needs a GPU") == std::string::npos)  // a GPU ran the race
    EXPECT_NE(r.out.find("measured: lost increments: "), std::string::npos) << r.out;
  else
    EXPECT_NE(r.out.find("measured: lost increments: needs a GPU"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("predicted: 4000: "), std::string::npos) << r.out;
}

TEST(CliPredict, APredictionOutOfRangeOrNotAChoiceIsBadInput) {
  expectBadInput("course run tp32-coverage-too-few --predict 5000",
                 "--predict (question 1, 16 blocks of 128 threads on 4096 elements: how many elements are never "
                 "written?): '5000' is out of range: give 0 to 4096");
  expectBadInput("course run tp32-no-synchronize --predict maybe", "is not one of the choices: yes, no");
  expectBadInput("course run tp32-no-synchronize --predict yes --predict no", "asks 1 question, 2 predictions given");
}

TEST(CliPredict, TheJsonCarriesPredictionsAndShortTitlesBack) {
  Out r = cli("course --json");
  ASSERT_EQ(r.code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  const nlohmann::json file = {{"launchlab_course", 1}, {"experiments", j["experiments"]}};
  const launchlab::CourseFile back = launchlab::parseCourseFile("course.json", file.dump());
  ASSERT_EQ(back.problem, "");
  const auto& all = launchlab::courseExperiments();
  ASSERT_EQ(back.experiments.size(), all.size());
  for (std::size_t i = 0; i < all.size(); ++i) {
    EXPECT_EQ(back.experiments[i].predictions, all[i].predictions) << all[i].id;
    EXPECT_EQ(back.experiments[i].shortTitle, all[i].shortTitle) << all[i].id;
  }
}

TEST(CliPredict, AnInstructorsQuestionIsCheckedAtLoadAndItsImplementationsAtRun) {
  const std::filesystem::path dir = scratch() / "my-questions";
  std::filesystem::create_directories(dir);
  auto file = [](const std::string& impls, const std::string& of) {
    return R"({"launchlab_course": 1, "experiments": [{"id": "my-hypot", "chapter": "Mine", "title": "hypot",
      "seed": {"file": "class.ipynb", "section": "1", "line": 3}, "look_for": "Fast.",
      "request": {"workload": "hypot", "n": "1000", "dtype": "f32", "impls": ")" +
           impls + R"("}, "predict": {"question": "How many times faster?", "measure": "speedup", "of": ")" + of +
           R"(", "answer": {"unit": "×", "scale": "log", "min": 0.1, "max": 1000}, "explain": "One. Two."}}]})";
  };
  std::ofstream(dir / "mine.json") << file("cpu-serial,cpu-parallel", "cuda-grid-stride");
  Out listed = cli("course --course-dir '" + dir.string() + "'");
  EXPECT_EQ(listed.err, "launchlab-cli: --course-dir: " + (dir / "mine.json").string() +
                            ": experiments[0].predict.of: unknown implementation 'cuda-grid-stride': the request runs "
                            "cpu-serial,cpu-parallel\n");
  std::ofstream(dir / "mine.json") << file("all", "cuda-gridstride");
  expectBadInput("course run my-hypot --course-dir '" + dir.string() + "'",
                 "my-hypot: predict.of: unknown implementation 'cuda-gridstride' (the workload has cpu-serial, ");
  std::ofstream(dir / "mine.json") << file("all", "cpu-parallel");
  Out run = cli("course run my-hypot --course-dir '" + dir.string() + "' --reps 1 --warmup 0 --predict 2");
  ASSERT_EQ(run.code, 0) << run.err;
  EXPECT_NE(run.out.find("measured: speedup of CPU parallel over CPU serial (total time): "), std::string::npos)
      << run.out;
}
