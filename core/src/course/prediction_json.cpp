// The course file's "predict": one object or a list, each a question, the kind of answer, the measure that answers
// it (a name of the vocabulary and its arguments, flat beside the question) and the explanation. Every mistake names
// its field, so that an instructor finds it without reading the loader.
#include "prediction_json.h"

#include <algorithm>

#include "launchlab/engine/counters.h"
#include "measure_table.h"

namespace launchlab::course {

namespace {

using nlohmann::json;
using Error = PredictionFieldError;

constexpr std::size_t kMaxQuestion = 140;  // one line on the stage
constexpr std::string_view kCommonKeys[] = {"question", "answer", "label", "explain", "measure"};

std::string joined(std::span<const std::string_view> names) {
  std::string s;
  for (auto n : names) s += (s.empty() ? "" : ", ") + std::string(n);
  return s.empty() ? "nothing" : s;
}

std::string str(const json& obj, const std::string& key, const std::string& path, bool required) {
  if (!obj.contains(key)) {
    if (required) throw Error{path + key, "missing"};
    return {};
  }
  const json& v = obj.at(key);
  if (!v.is_string() || v.get<std::string>().empty()) throw Error{path + key, "must be a non-empty string"};
  return v.get<std::string>();
}

std::map<std::string, std::string> point(const json& obj, const std::string& key, const std::string& path) {
  if (!obj.contains(key)) return {};
  const json& v = obj.at(key);
  if (!v.is_object() || v.empty()) throw Error{path + key, "must be an object of sweep fields and values"};
  std::map<std::string, std::string> out;
  for (const auto& [field, value] : v.items()) {
    if (!value.is_string()) throw Error{path + key + "." + field, "must be a string"};
    out[field] = value.get<std::string>();
  }
  return out;
}

/// Checks an implementation id against the ids the request runs (when it names them).
void checkImpl(const std::string& id, const std::string& field, const RequestText& request) {
  if (request.impls == "all" || id.empty()) return;
  const auto ids = splitList(request.impls);
  if (std::find(ids.begin(), ids.end(), id) == ids.end())
    throw Error{field, "unknown implementation '" + id + "': the request runs " + request.impls};
}

std::vector<std::string> strings(const json& obj, const std::string& key, const std::string& path) {
  if (!obj.contains(key)) return {};
  const json& v = obj.at(key);
  if (!v.is_array() || v.size() < 2) throw Error{path + key, "must be a list of at least two strings"};
  std::vector<std::string> out;
  for (std::size_t i = 0; i < v.size(); ++i) {
    if (!v[i].is_string() || v[i].get<std::string>().empty())
      throw Error{path + key + "[" + std::to_string(i) + "]", "must be a non-empty string"};
    out.push_back(v[i].get<std::string>());
  }
  return out;
}

MeasureSpec measureOf(const json& p, const std::string& at, const RequestText& request, const MeasureArgs& args) {
  for (const auto& item : p.items()) {
    // A plain reference, not a structured binding: clang 14 (the fuzzers' compiler) cannot capture one in a lambda.
    const std::string& key = item.key();
    auto in = [&](std::span<const std::string_view> keys) {
      return std::find(keys.begin(), keys.end(), key) != keys.end();
    };
    if (!in(kCommonKeys) && !in(args.required) && !in(args.optional))
      throw Error{at + key, "not an argument of " + std::string(args.name) + " (it takes " + joined(args.required) +
                                "; optionally " + joined(args.optional) + ")"};
  }
  for (auto key : args.required)
    if (!p.contains(key)) throw Error{at + std::string(key), "missing (" + std::string(args.name) + " needs it)"};
  MeasureSpec m;
  m.name = args.name;
  for (auto [key, dest] : {std::pair{"of", &m.of}, {"over", &m.over}, {"vs", &m.vs}}) {
    *dest = str(p, key, at, false);
    checkImpl(*dest, at + key, request);
  }
  m.among = strings(p, "among", at);
  for (std::size_t i = 0; i < m.among.size(); ++i)
    checkImpl(m.among[i], at + "among[" + std::to_string(i) + "]", request);
  m.time = str(p, "time", at, false);
  if (!m.time.empty() && m.time != "kernel" && m.time != "total")
    throw Error{at + "time", "must be \"kernel\" or \"total\""};
  m.counter = str(p, "counter", at, false);
  if (!m.counter.empty() && !findCounter(m.counter))
    throw Error{at + "counter", "unknown counter '" + m.counter + "' (see 'launchlab-cli profile --help')"};
  m.metric = str(p, p.contains("output") ? "output" : "metric", at, false);
  m.outOf = str(p, "out_of", at, false);
  if (m.name == "metric_ratio" && m.over.empty() == m.outOf.empty())
    throw Error{at + "over", "metric_ratio needs one of over (another implementation) or out_of (another metric)"};
  m.at = point(p, "at", at);
  m.overAt = point(p, "over_at", at);
  return m;
}

double number(const json& a, const std::string& key, const std::string& path) {
  if (!a.contains(key)) throw Error{path + key, "missing"};
  if (!a.at(key).is_number()) throw Error{path + key, "must be a number"};
  return a.at(key).get<double>();
}

AnswerKind answerOf(const json& p, const std::string& at, const MeasureSpec& m, const RequestText& request) {
  const std::string path = at + "answer.";
  AnswerKind k;
  const bool choice = measureArgs(m.name)->choice;
  const json none = json::object();
  const json& a = p.contains("answer") ? p.at("answer") : none;
  if (!a.is_object()) throw Error{at + "answer", "must be an object"};
  if (!choice) {
    for (const auto& [key, v] : a.items())
      if (key != "unit" && key != "scale" && key != "min" && key != "max")
        throw Error{path + key, "not a field of a number answer (unit, scale, min, max)"};
    if (!a.contains("unit") || !a.at("unit").is_string()) throw Error{path + "unit", "must be a string (\"\": none)"};
    k.unit = a.at("unit").get<std::string>();
    const std::string scale = str(a, "scale", path, true);
    if (scale != "log" && scale != "linear") throw Error{path + "scale", "must be \"log\" or \"linear\""};
    k.logScale = scale == "log";
    k.min = number(a, "min", path);
    k.max = number(a, "max", path);
    if (!(k.min < k.max)) throw Error{path + "max", "must be more than min"};
    if (k.logScale && !(k.min > 0)) throw Error{path + "min", "must be more than 0 on a log scale"};
    return k;
  }
  for (const auto& [key, v] : a.items())
    if (key != "choices") throw Error{path + key, "not a field of a choice answer (choices)"};
  k.choices = a.contains("choices") ? strings(a, "choices", path) : m.among;
  if (m.name == "verified" && k.choices.empty()) k.choices = {"yes", "no"};
  if (k.choices.empty()) throw Error{path + "choices", "missing (or give among)"};
  for (std::size_t i = 0; i < k.choices.size(); ++i) {
    const std::string field = path + "choices[" + std::to_string(i) + "]";
    const std::string& c = k.choices[i];
    if (m.name == "verified" && c != "yes" && c != "no") throw Error{field, "must be \"yes\" or \"no\""};
    if (m.name == "fastest") checkImpl(c, field, request);
    if (!m.among.empty() && std::find(m.among.begin(), m.among.end(), c) == m.among.end())
      throw Error{field, "'" + c + "' is not among the candidates"};
  }
  return k;
}

Prediction predictionOf(const json& p, const std::string& at, const RequestText& request) {
  if (!p.is_object()) throw Error{at.substr(0, at.size() - 1), "must be an object"};
  Prediction out;
  out.question = str(p, "question", at, true);
  if (out.question.find('\n') != std::string::npos || out.question.size() > kMaxQuestion)
    throw Error{at + "question", "must be one line of at most " + std::to_string(kMaxQuestion) + " characters"};
  const std::string name = str(p, "measure", at, true);
  const MeasureArgs* args = measureArgs(name);
  if (!args) {
    std::vector<std::string_view> names;
    for (const auto& m : measureTable()) names.push_back(m.name);
    throw Error{at + "measure", "unknown measure '" + name + "' (one of: " + joined(names) + ")"};
  }
  out.measure = measureOf(p, at, request, *args);
  out.answer = answerOf(p, at, out.measure, request);
  out.label = str(p, "label", at, false);
  out.explain = str(p, "explain", at, true);
  return out;
}

}  // namespace

std::vector<Prediction> predictionsOf(const json& e, const std::string& at, const RequestText& request) {
  if (!e.contains("predict")) return {};
  const json& p = e.at("predict");
  if (p.is_object()) return {predictionOf(p, at + "predict.", request)};
  if (!p.is_array() || p.empty()) throw Error{at + "predict", "must be an object or a non-empty list of them"};
  std::vector<Prediction> out;
  for (std::size_t i = 0; i < p.size(); ++i)
    out.push_back(predictionOf(p[i], at + "predict[" + std::to_string(i) + "].", request));
  return out;
}

}  // namespace launchlab::course

namespace launchlab {

std::string predictionsJson(const std::vector<Prediction>& predictions) {
  using ordered = nlohmann::ordered_json;
  ordered list = ordered::array();
  for (const auto& p : predictions) {
    const MeasureSpec& m = p.measure;
    ordered j = {{"question", p.question}, {"measure", m.name}};
    for (auto [key, value] : {std::pair{"of", &m.of},
                              {"over", &m.over},
                              {"vs", &m.vs},
                              {"time", &m.time},
                              {"counter", &m.counter},
                              {"out_of", &m.outOf}})
      if (!value->empty()) j[key] = *value;
    if (!m.metric.empty()) j[m.name == "scalar" ? "output" : "metric"] = m.metric;
    if (!m.among.empty()) j["among"] = m.among;
    if (!m.at.empty()) j["at"] = m.at;
    if (!m.overAt.empty()) j["over_at"] = m.overAt;
    const AnswerKind& a = p.answer;
    j["answer"] =
        a.isChoice()
            ? ordered{{"choices", a.choices}}
            : ordered{{"unit", a.unit}, {"scale", a.logScale ? "log" : "linear"}, {"min", a.min}, {"max", a.max}};
    if (!p.label.empty()) j["label"] = p.label;
    j["explain"] = p.explain;
    list.push_back(std::move(j));
  }
  return (list.size() == 1 ? list.front() : list).dump();
}

}  // namespace launchlab
