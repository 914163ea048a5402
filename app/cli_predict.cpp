#include "cli_predict.h"

#include <sstream>

#include "launchlab/course/course_headline.h"

namespace launchlab::cli {

void CourseRunPoints::begin(const SweepPlan& plan, std::size_t cells) {
  (void)cells;
  m_fields.clear();
  for (const auto& axis : plan.axes) m_fields.push_back(axis.field);
}

void CourseRunPoints::point(std::size_t cell, const SweepPoint& p, const RunResult& result) {
  if (cell == m_lastCell) return;  // one run per cell, handed over once per implementation
  m_lastCell = cell;
  std::map<std::string, std::string> at;
  for (std::size_t i = 0; i < m_fields.size() && i < p.values.size(); ++i) at[m_fields[i]] = p.values[i];
  m_runs.emplace_back(std::move(at), result);
}

void CourseRunPoints::add(RunResult r) { m_runs.emplace_back(std::map<std::string, std::string>{}, std::move(r)); }

std::vector<RunPoint> CourseRunPoints::points() const {
  std::vector<RunPoint> out;
  for (const auto& [at, r] : m_runs) out.push_back({at, &r});
  return out;
}

std::string parsePredictions(const CourseExperiment& e, const std::vector<std::string>& given,
                             std::vector<Guess>& out) {
  if (given.size() > e.predictions.size())
    return "--predict: " + e.id + " asks " + std::to_string(e.predictions.size()) + " question" +
           (e.predictions.size() == 1 ? "" : "s") + ", " + std::to_string(given.size()) + " predictions given";
  for (std::size_t i = 0; i < given.size(); ++i) {
    std::string why;
    auto g = parseGuess(e.predictions[i], given[i], &why);
    if (!g) return "--predict (question " + std::to_string(i + 1) + ", " + e.predictions[i].question + "): " + why;
    out.push_back(*g);
  }
  return {};
}

namespace {

std::string answerHint(const AnswerKind& a) {
  if (a.isChoice()) {
    std::string s;
    for (const auto& c : a.choices) s += (s.empty() ? "one of " : ", ") + c;
    return s;
  }
  return "a number" + (a.unit.empty() ? std::string() : " in " + a.unit) + ", " + formatMeasure(a.min, "") + " to " +
         formatMeasure(a.max, "");
}

}  // namespace

std::string renderQuestions(const CourseExperiment& e) {
  std::ostringstream o;
  for (const auto& p : e.predictions) o << "  question: " << p.question << " (" << answerHint(p.answer) << ")\n";
  return o.str();
}

std::string renderAnswers(const CourseExperiment& e, const std::vector<RunPoint>& run,
                          const std::vector<Guess>& guesses) {
  std::ostringstream o;
  for (std::size_t i = 0; i < e.predictions.size(); ++i) {
    const Prediction& p = e.predictions[i];
    const MeasureValue v = measure(p.measure, run);
    o << "\n" << p.question << "\n  measured: " << headlineOf(p, v) << "\n";
    if (i < guesses.size()) {
      const Guess& g = guesses[i];
      const std::string said = p.answer.isChoice() ? g.choice : formatMeasure(g.number, p.answer.unit);
      o << "  predicted: " << said << ": " << scoreGuess(p, v, g).text << "\n";
    }
    o << "  why: " << p.explain << "\n";
  }
  return o.str();
}

std::string countersForMeasures(const CourseExperiment& e) {
  std::string ids;
  for (const auto& p : e.predictions)
    if (!p.measure.counter.empty() && ids.find(p.measure.counter) == std::string::npos)
      ids += (ids.empty() ? "" : ",") + p.measure.counter;
  return ids;
}

}  // namespace launchlab::cli
