// Predictions: reading one as typed, scoring it against the measured value, and the stage's header and headline.
#include "launchlab/course/prediction.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "launchlab/course/course_headline.h"

namespace launchlab {

namespace {

std::string_view trimmed(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

bool sameText(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
         });
}

/// What may follow a number: nothing, its unit, or the unit's usual spellings ("x" for "×").
bool unitSuffix(std::string_view rest, const std::string& unit) {
  rest = trimmed(rest);
  if (rest.empty() || sameText(rest, unit)) return true;
  return unit == "×" && sameText(rest, "x");
}

std::string printf1(const char* format, double v) {
  char buf[48];
  std::snprintf(buf, sizeof buf, format, v);
  return buf;
}

}  // namespace

std::string formatMeasure(double v, std::string_view unit) {
  const double a = std::abs(v);
  if (unit == "×") return printf1(a >= 10 ? "%.0f×" : a >= 2 ? "%.1f×" : "%.2f×", v);
  if (unit == "%") return printf1(a >= 10 ? "%.0f %%" : "%.1f %%", v);
  if (unit == "ms") return printf1(a >= 10 ? "%.0f ms" : a >= 1 ? "%.2f ms" : "%.2g ms", v);
  std::string s = v == std::floor(v) && a < 1e15 ? printf1("%.0f", v) : printf1(a >= 1000 ? "%.0f" : "%.6g", v);
  return unit.empty() ? s : s + " " + std::string(unit);
}

std::optional<Guess> parseGuess(const Prediction& p, std::string_view text, std::string* error) {
  auto fail = [&](const std::string& why) -> std::optional<Guess> {
    if (error) *error = why;
    return std::nullopt;
  };
  const std::string_view t = trimmed(text);
  const AnswerKind& k = p.answer;
  if (k.isChoice()) {
    for (const auto& c : k.choices)
      if (sameText(t, c)) return Guess{0, c};
    std::string list;
    for (const auto& c : k.choices) list += (list.empty() ? "" : ", ") + c;
    return fail("'" + std::string(t) + "' is not one of the choices: " + list);
  }
  const std::string s(t);
  char* end = nullptr;
  const double v = s.empty() ? 0 : std::strtod(s.c_str(), &end);
  if (s.empty() || end == s.c_str() || !std::isfinite(v) || !unitSuffix(std::string_view(end), k.unit))
    return fail("'" + s + "' is not a number" + (k.unit.empty() ? "" : " (in " + k.unit + ")"));
  if (v < k.min || v > k.max)
    return fail("'" + s + "' is out of range: give " + formatMeasure(k.min, "") + " to " + formatMeasure(k.max, "") +
                (k.unit.empty() ? "" : " " + k.unit));
  return Guess{v, {}};
}

GuessScore scoreGuess(const Prediction& p, const MeasureValue& m, const Guess& g) {
  GuessScore s;
  if (!m.ok()) {
    s.text = "no answer to compare with: " + m.reason;
    return s;
  }
  s.comparable = true;
  if (p.answer.isChoice()) {
    s.close = g.choice == m.choice;
    s.text = s.close ? "right" : "wrong: it is " + m.choice;
    return s;
  }
  const double measured = m.number, guess = g.number;
  s.factor = guess > 0 && measured > 0 ? measured / guess : 1;
  const double off = std::max(s.factor, 1 / s.factor);
  const char* way = measured > guess ? " too low" : " too high";
  if (p.answer.logScale && guess > 0 && measured > 0) {
    s.close = off <= 2;
    s.text = off < 1.01 ? "exact" : formatMeasure(off, "×") + way + (s.close ? " (within 2×)" : "");
    return s;
  }
  const double diff = std::abs(measured - guess);
  s.close = diff <= (p.answer.max - p.answer.min) / 10;  // a tenth of the answer's range
  s.text = diff == 0 ? "exact" : "off by " + formatMeasure(diff, p.answer.unit) + way + (s.close ? " (close)" : "");
  return s;
}

std::string unknownImplementation(const std::vector<Prediction>& predictions, const std::vector<std::string>& implIds) {
  auto known = [&](const std::string& id) {
    return id.empty() || std::find(implIds.begin(), implIds.end(), id) != implIds.end();
  };
  std::string all;
  for (const auto& id : implIds) all += (all.empty() ? "" : ", ") + id;
  for (std::size_t i = 0; i < predictions.size(); ++i) {
    const std::string at = predictions.size() == 1 ? "predict." : "predict[" + std::to_string(i) + "].";
    const MeasureSpec& m = predictions[i].measure;
    std::vector<std::pair<std::string, std::string>> named = {{"of", m.of}, {"over", m.over}, {"vs", m.vs}};
    for (std::size_t k = 0; k < m.among.size(); ++k) named.emplace_back("among[" + std::to_string(k) + "]", m.among[k]);
    const auto& choices = predictions[i].answer.choices;
    for (std::size_t k = 0; m.name == "fastest" && k < choices.size(); ++k)
      named.emplace_back("answer.choices[" + std::to_string(k) + "]", choices[k]);
    for (const auto& [field, id] : named)
      if (!known(id)) return at + field + ": unknown implementation '" + id + "' (the workload has " + all + ")";
  }
  return {};
}

std::string headlineOf(const Prediction& p, const MeasureValue& v) {
  const std::string label = p.label.empty() ? v.label : p.label;
  if (!v.ok()) return label + ": " + v.reason;
  if (p.label.empty() || !v.headline.starts_with(v.label)) return v.headline;
  return p.label + v.headline.substr(v.label.size());
}

StageText stageText(const CourseExperiment& e, std::span<const RunPoint> run) {
  StageText h{e.headerTitle(), {}, {}};
  if (e.predictions.empty()) return h;
  const Prediction& p = e.predictions.front();
  h.question = p.question;
  if (!run.empty()) h.headline = headlineOf(p, measure(p.measure, run));
  return h;
}

}  // namespace launchlab
