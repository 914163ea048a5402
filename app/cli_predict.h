#pragma once
// Predict, run, explain on the command line: `course run ID` prints the experiment's questions before its run, then
// each measured answer with its explanation, and with --predict how far off the prediction was.
#include <string>
#include <vector>

#include "launchlab/course/course.h"
#include "launchlab/course/prediction.h"
#include "launchlab/explorer/sweep.h"

namespace launchlab::cli {

/// Keeps every run of a course experiment with its sweep point's field values (a sink of the sweep; or one run
/// added with add()), for its measures.
class CourseRunPoints final : public SweepSink {
 public:
  void begin(const SweepPlan& plan, std::size_t cells) override;
  void point(std::size_t cell, const SweepPoint& p, const RunResult& result) override;
  void add(RunResult r);
  /// The runs as the measures take them; valid while this object lives and receives nothing more.
  std::vector<RunPoint> points() const;

 private:
  std::vector<std::string> m_fields;
  std::vector<std::pair<std::map<std::string, std::string>, RunResult>> m_runs;
  std::size_t m_lastCell = std::size_t(-1);
};

/// The predictions given with --predict (the first for the first question, …), checked against each question's
/// answer kind: one line naming the question and the value when one is wrong ("" when all are fine).
std::string parsePredictions(const CourseExperiment& e, const std::vector<std::string>& given, std::vector<Guess>& out);

/// The questions, each with the answer it takes: "question: … (a number in ×, 1 to 100)".
std::string renderQuestions(const CourseExperiment& e);

/// Each question's measured answer (the headline, or why there is none), the prediction and how far off it was,
/// and the explanation.
std::string renderAnswers(const CourseExperiment& e, const std::vector<RunPoint>& run,
                          const std::vector<Guess>& guesses);

/// The hardware counters the experiment's measures read ("" when none), as --metrics takes them.
std::string countersForMeasures(const CourseExperiment& e);

}  // namespace launchlab::cli
