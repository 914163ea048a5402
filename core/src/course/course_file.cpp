// A course file (docs/COURSE_FORMAT.md): {"launchlab_course": 1, "experiments": [...]}, each experiment with the
// keys `launchlab-cli course --json` writes, and optionally notes: seed experiments listed without a run. Every problem
// names the file and the field, so that an instructor finds the mistake without reading the loader.
#include <algorithm>
#include <climits>
#include <cstdint>
#include <nlohmann/json.hpp>

#include "launchlab/course/course.h"
#include "launchlab/engine/counters.h"
#include "launchlab/worker/frames.h"
#include "launchlab/worker/result_check.h"
#include "prediction_json.h"

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
  // get<int>() would wrap a larger number (4294967297 → 1) instead of refusing it.
  const bool fits = v.is_number_unsigned() ? v.get<std::uint64_t>() <= std::uint64_t(INT_MAX)
                                           : v.get<std::int64_t>() >= INT_MIN && v.get<std::int64_t>() <= INT_MAX;
  if (!fits) throw FieldError{path + key, "is too large (at most " + std::to_string(INT_MAX) + ")"};
  return v.get<int>();
}

const json& object(const json& obj, const std::string& key, const std::string& path) {
  const json& v = member(obj, key, path);
  if (!v.is_object()) throw FieldError{path + key, "must be an object"};
  return v;
}

/// An id: it names files (`course presets`) and goes on command lines, so it is a plain file name.
std::string idOf(const json& obj, const std::string& path) {
  std::string id = text(obj, "id", path);
  if (!safeFileName(id))
    throw FieldError{path + "id", frames::quoted(id, 40) + " is not a plain name (1 to 128 of A-Z a-z 0-9 _ . -, " +
                                      "not starting with '.' or '-')"};
  return id;
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

/// "counters": ids of the counter catalogue, the lesson's own first.
std::vector<std::string> countersOf(const json& e, const std::string& at) {
  std::vector<std::string> ids;
  if (!e.contains("counters")) return ids;
  const json& list = e.at("counters");
  if (!list.is_array()) throw FieldError{at + "counters", "must be an array of counter ids"};
  for (std::size_t i = 0; i < list.size(); ++i) {
    const std::string field = at + "counters[" + std::to_string(i) + "]";
    if (!list[i].is_string()) throw FieldError{field, "must be a string"};
    ids.push_back(list[i].get<std::string>());
    if (!findCounter(ids.back()))
      throw FieldError{field, "unknown counter '" + ids.back() + "' (see 'launchlab-cli profile --help')"};
  }
  return ids;
}

/// "sweep": {"dtype": "f32,f64", "block": "32:1024:32", "param:bins": "10,100"}: fields a request has, values as
/// text (their expansion is checked when the sweep is planned, like `launchlab-cli sweep`'s options).
std::map<std::string, std::string> sweepOf(const json& e, const std::string& at) {
  if (!e.contains("sweep")) return {};
  const json& sw = object(e, "sweep", at);
  std::map<std::string, std::string> out;
  for (const auto& [field, v] : sw.items()) {
    const std::string where = at + "sweep." + field;
    const bool known = field == "n" || field == "dtype" || field == "block" || field == "grid" ||
                       (field.rfind("param:", 0) == 0 && field.size() > 6);
    if (!known) throw FieldError{where, "not a request field (n, dtype, block, grid, param:<name>)"};
    if (!v.is_string() || v.get<std::string>().empty()) throw FieldError{where, "must be a non-empty string"};
    out[field] = v.get<std::string>();
  }
  if (out.empty()) throw FieldError{at + "sweep", "must name at least one field"};
  return out;
}

CourseNote noteOf(const json& n, const std::string& at) {
  if (!n.is_object()) throw FieldError{at.substr(0, at.size() - 1), "must be an object"};
  CourseNote note{idOf(n, at),   text(n, "chapter", at), text(n, "title", at),
                  seedOf(n, at), text(n, "text", at),    text(n, "command", at, false)};
  if (!note.command.empty() && note.command != "info") throw FieldError{at + "command", "must be \"info\" or absent"};
  return note;
}

StageView stageOf(const json& e, const std::string& at) {
  if (!e.contains("stage")) return {};
  const json& st = object(e, "stage", at);
  const std::string p = at + "stage.";
  StageView v{text(st, "view", p, false), text(st, "impl", p, false), text(st, "timing", p, false)};
  if (!v.timing.empty() && v.timing != "kernel" && v.timing != "total" && v.timing != "gpu")
    throw FieldError{p + "timing", "must be \"kernel\", \"gpu\" or \"total\""};
  return v;
}

/// "short_title": the stage's header line where the title is longer than one (kMaxHeaderTitle characters).
std::string shortTitleOf(const json& e, const std::string& at) {
  const std::string s = text(e, "short_title", at, false);
  const auto chars =
      std::count_if(s.begin(), s.end(), [](char c) { return (static_cast<unsigned char>(c) & 0xC0) != 0x80; });
  if (e.contains("short_title") && (s.empty() || std::size_t(chars) > kMaxHeaderTitle))
    throw FieldError{at + "short_title", "must be 1 to " + std::to_string(kMaxHeaderTitle) + " characters"};
  return s;
}

CourseExperiment experimentOf(const json& e, const std::string& at) {
  if (!e.is_object()) throw FieldError{at.substr(0, at.size() - 1), "must be an object"};
  CourseExperiment x;
  x.id = idOf(e, at);
  x.chapter = text(e, "chapter", at);
  x.title = text(e, "title", at);
  x.seed = seedOf(e, at);
  x.lookFor = text(e, "look_for", at);
  x.differs = text(e, "differs", at, false);
  x.request = requestOf(e, at);
  x.counters = countersOf(e, at);
  x.sweep = sweepOf(e, at);
  x.stage = stageOf(e, at);
  x.shortTitle = shortTitleOf(e, at);
  try {
    x.predictions = course::predictionsOf(e, at, x.request);
  } catch (const course::PredictionFieldError& p) {
    throw FieldError{p.field, p.what};
  }
  return x;
}

}  // namespace

CourseFile parseCourseFile(std::string_view path, std::string_view content) {
  const std::string where(path);
  const json doc = json::parse(content, nullptr, false);
  if (doc.is_discarded()) return {{}, {}, where + ": not valid JSON"};
  CourseFile out;
  try {
    if (!doc.is_object()) throw FieldError{"(top level)", "must be an object"};
    if (integer(doc, "launchlab_course", "", true) != 1) throw FieldError{"launchlab_course", "must be 1"};
    const json& list = member(doc, "experiments", "");
    if (!list.is_array()) throw FieldError{"experiments", "must be an array"};
    for (std::size_t i = 0; i < list.size(); ++i)
      out.experiments.push_back(experimentOf(list[i], "experiments[" + std::to_string(i) + "]."));
    if (doc.contains("notes")) {
      const json& notes = doc.at("notes");
      if (!notes.is_array()) throw FieldError{"notes", "must be an array"};
      for (std::size_t i = 0; i < notes.size(); ++i)
        out.notes.push_back(noteOf(notes[i], "notes[" + std::to_string(i) + "]."));
    }
  } catch (const FieldError& e) {
    return {{}, {}, where + ": " + e.field + ": " + e.what};
  } catch (const json::exception& e) {  // e.g. a number too large for an int
    return {{}, {}, where + ": " + e.what()};
  }
  return out;
}

}  // namespace launchlab
