// A course file (docs/COURSE_FORMAT.md): {"launchlab_course": 1, "experiments": [...]}, each experiment with the
// keys `launchlab-cli course --json` writes. Every problem names the file and the field, so that an instructor
// finds the mistake without reading the loader.
#include <nlohmann/json.hpp>

#include "launchlab/course.h"

namespace launchlab {

namespace {

using nlohmann::json;

/// A field that is missing or of the wrong type: the message and the field's path.
struct FieldError {
  std::string field;
  std::string what;
};

const json& member(const json& obj, const std::string& key, const std::string& path) {
  if (!obj.contains(key)) throw FieldError{path + key, "missing"};
  return obj.at(key);
}

std::string text(const json& obj, const std::string& key, const std::string& path, bool required = true,
                 std::string fallback = {}) {
  if (!required && !obj.contains(key)) return fallback;
  const json& v = member(obj, key, path);
  if (!v.is_string()) throw FieldError{path + key, "must be a string"};
  std::string s = v.get<std::string>();
  if (required && s.empty()) throw FieldError{path + key, "must not be empty"};
  return s;
}

int integer(const json& obj, const std::string& key, const std::string& path, bool required) {
  if (!required && !obj.contains(key)) return 0;
  const json& v = member(obj, key, path);
  if (!v.is_number_integer()) throw FieldError{path + key, "must be a whole number"};
  return v.get<int>();
}

const json& object(const json& obj, const std::string& key, const std::string& path) {
  const json& v = member(obj, key, path);
  if (!v.is_object()) throw FieldError{path + key, "must be an object"};
  return v;
}

SeedRef seedOf(const json& e, const std::string& at) {
  const json& s = object(e, "seed", at);
  const std::string p = at + "seed.";
  SeedRef r{text(s, "file", p), text(s, "notebook", p, false), text(s, "section", p), integer(s, "line", p, true),
            integer(s, "order", p, false)};
  if (r.line < 1) throw FieldError{p + "line", "must be 1 or more"};
  return r;
}

RequestText requestOf(const json& e, const std::string& at) {
  const json& r = object(e, "request", at);
  const std::string p = at + "request.";
  RequestText t;
  t.workload = text(r, "workload", p);
  t.n = text(r, "n", p);
  t.dtype = text(r, "dtype", p);
  t.block = text(r, "block", p, false, t.block);
  t.grid = text(r, "grid", p, false, t.grid);
  t.impls = text(r, "impls", p, false, t.impls);
  t.reps = text(r, "reps", p, false, t.reps);
  t.warmup = text(r, "warmup", p, false, t.warmup);
  t.seed = text(r, "seed", p, false, t.seed);
  if (r.contains("params")) {
    const json& ps = object(r, "params", p);
    for (const auto& [k, v] : ps.items()) {
      if (!v.is_string()) throw FieldError{p + "params." + k, "must be a string"};
      t.params[k] = v.get<std::string>();
    }
  }
  return t;
}

StageView stageOf(const json& e, const std::string& at) {
  if (!e.contains("stage")) return {};
  const json& st = object(e, "stage", at);
  const std::string p = at + "stage.";
  StageView v{text(st, "view", p, false), text(st, "impl", p, false), text(st, "timing", p, false)};
  if (!v.timing.empty() && v.timing != "kernel" && v.timing != "total")
    throw FieldError{p + "timing", "must be \"kernel\" or \"total\""};
  return v;
}

CourseExperiment experimentOf(const json& e, const std::string& at) {
  if (!e.is_object()) throw FieldError{at.substr(0, at.size() - 1), "must be an object"};
  CourseExperiment x;
  x.id = text(e, "id", at);
  x.chapter = text(e, "chapter", at);
  x.title = text(e, "title", at);
  x.seed = seedOf(e, at);
  x.lookFor = text(e, "look_for", at);
  x.differs = text(e, "differs", at, false);
  x.request = requestOf(e, at);
  x.stage = stageOf(e, at);
  return x;
}

}  // namespace

CourseFile parseCourseFile(std::string_view path, std::string_view content) {
  const std::string where(path);
  const json doc = json::parse(content, nullptr, false);
  if (doc.is_discarded()) return {{}, where + ": not valid JSON"};
  CourseFile out;
  try {
    if (!doc.is_object()) throw FieldError{"(top level)", "must be an object"};
    if (integer(doc, "launchlab_course", "", true) != 1) throw FieldError{"launchlab_course", "must be 1"};
    const json& list = member(doc, "experiments", "");
    if (!list.is_array()) throw FieldError{"experiments", "must be an array"};
    for (std::size_t i = 0; i < list.size(); ++i)
      out.experiments.push_back(experimentOf(list[i], "experiments[" + std::to_string(i) + "]."));
  } catch (const FieldError& e) {
    return {{}, where + ": " + e.field + ": " + e.what};
  } catch (const json::exception& e) {  // e.g. a number too large for an int
    return {{}, where + ": " + e.what()};
  }
  return out;
}

}  // namespace launchlab
