// An exercises file (kernels/<workload>/exercises.json, docs/EXERCISES.md): each exercise's contract as data, so
// that a workload's folder owns it. Every problem names the file and the field, as the course files' do.
#include <nlohmann/json.hpp>

#include "launchlab/course/exercise.h"

namespace launchlab {

namespace {

using nlohmann::json;
using K = ExerciseArg::Kind;

struct FieldError {
  std::string field;
  std::string what;
};

const json& member(const json& obj, const std::string& key, const std::string& at) {
  if (!obj.contains(key)) throw FieldError{at + key, "missing"};
  return obj.at(key);
}

std::string text(const json& obj, const std::string& key, const std::string& at, bool required = true) {
  if (!required && !obj.contains(key)) return {};
  const json& v = member(obj, key, at);
  if (!v.is_string() || v.get<std::string>().empty()) throw FieldError{at + key, "must be a non-empty string"};
  return v.get<std::string>();
}

bool flag(const json& obj, const std::string& key, const std::string& at) {
  if (!obj.contains(key)) return false;
  if (!obj.at(key).is_boolean()) throw FieldError{at + key, "must be true or false"};
  return obj.at(key).get<bool>();
}

std::vector<std::string> texts(const json& obj, const std::string& key, const std::string& at) {
  std::vector<std::string> out;
  if (!obj.contains(key)) return out;
  const json& list = obj.at(key);
  if (!list.is_array()) throw FieldError{at + key, "must be an array of strings"};
  for (const auto& v : list) {
    if (!v.is_string()) throw FieldError{at + key, "must be an array of strings"};
    out.push_back(v.get<std::string>());
  }
  return out;
}

K kindOf(const std::string& name, const std::string& field) {
  static const std::pair<const char*, K> kinds[] = {{"input", K::Input}, {"output", K::Output}, {"n", K::N},
                                                    {"param", K::Param}, {"seed", K::Seed},     {"hits", K::Hits},
                                                    {"size", K::Size}};
  for (const auto& [n, k] : kinds)
    if (name == n) return k;
  throw FieldError{field, "unknown kind '" + name + "' (input, output, n, param, seed, hits, size)"};
}

ExerciseArg argOf(const json& a, const std::string& at) {
  if (!a.is_object()) throw FieldError{at.substr(0, at.size() - 1), "must be an object"};
  ExerciseArg arg;
  arg.kind = kindOf(text(a, "kind", at), at + "kind");
  arg.type = text(a, "type", at);
  arg.name = text(a, "name", at);
  if (arg.kind == K::Input || arg.kind == K::Output) {
    const json& i = member(a, "index", at);
    if (!i.is_number_unsigned()) throw FieldError{at + "index", "must be a whole number, 0 or more"};
    arg.index = i.get<int>();
  }
  if (arg.kind == K::Size) arg.param = text(a, "param", at, false);
  return arg;
}

std::optional<ExerciseLaunch2D> launch2DOf(const json& e, const std::string& at) {
  if (!e.contains("launch_2d")) return std::nullopt;
  const json& l = member(e, "launch_2d", at);
  const std::string p = at + "launch_2d.";
  if (!l.is_object()) throw FieldError{p.substr(0, p.size() - 1), "must be an object"};
  ExerciseLaunch2D out{text(l, "cols", p), text(l, "rows", p), {}, text(l, "why", p)};
  std::string why;
  const auto block = parseDim3(text(l, "block", p), &why);
  if (!block) throw FieldError{p + "block", why};
  out.autoBlock = *block;
  return out;
}

Exercise exerciseOf(const json& e, const std::string& workload, const std::string& at) {
  if (!e.is_object()) throw FieldError{at.substr(0, at.size() - 1), "must be an object"};
  Exercise ex;
  ex.id = text(e, "id", at);
  // exerciseFile finds the starting file from the id: the workload's, or the workload's and a suffix.
  if (ex.id != workload && ex.id.rfind(workload + "_", 0) != 0)
    throw FieldError{at + "id", "must be '" + workload + "' or start with '" + workload + "_'"};
  ex.workload = workload;
  ex.title = text(e, "title", at);
  ex.kernelName = text(e, "kernel_name", at);
  const auto dtype = parseDType(text(e, "dtype", at));
  if (!dtype) throw FieldError{at + "dtype", unknownDTypeMessage(e.at("dtype").get<std::string>())};
  ex.dtype = *dtype;
  const json& args = member(e, "args", at);
  if (!args.is_array()) throw FieldError{at + "args", "must be an array"};
  for (std::size_t i = 0; i < args.size(); ++i)
    ex.args.push_back(argOf(args[i], at + "args[" + std::to_string(i) + "]."));
  ex.gridStride = flag(e, "grid_stride", at);
  ex.zeroOutputs = flag(e, "zero_outputs", at);
  ex.outputsFromReference = texts(e, "outputs_from_reference", at);
  if (e.contains("required_choices")) {
    const json& c = e.at("required_choices");
    if (!c.is_object()) throw FieldError{at + "required_choices", "must be an object"};
    for (const auto& [k, v] : c.items()) {
      if (!v.is_string()) throw FieldError{at + "required_choices." + k, "must be a string"};
      ex.requiredChoices.emplace_back(k, v.get<std::string>());
    }
  }
  ex.launch2D = launch2DOf(e, at);
  ex.mirrors = text(e, "mirrors", at);
  if (e.contains("check_n")) {
    if (!e.at("check_n").is_number_unsigned() || e.at("check_n").get<std::uint64_t>() == 0)
      throw FieldError{at + "check_n", "must be a whole number, 1 or more"};
    ex.checkN = e.at("check_n").get<std::uint64_t>();
  }
  return ex;
}

}  // namespace

ExerciseFile parseExerciseFile(std::string_view path, std::string_view content, const std::string& workload) {
  const std::string where(path);
  const json doc = json::parse(content, nullptr, false);
  if (doc.is_discarded()) return {{}, where + ": not valid JSON"};
  ExerciseFile out;
  try {
    if (!doc.is_object()) throw FieldError{"(top level)", "must be an object"};
    const json& version = member(doc, "launchlab_exercises", "");
    if (!version.is_number_integer() || version.get<int>() != 1) throw FieldError{"launchlab_exercises", "must be 1"};
    const json& list = member(doc, "exercises", "");
    if (!list.is_array()) throw FieldError{"exercises", "must be an array"};
    for (std::size_t i = 0; i < list.size(); ++i)
      out.exercises.push_back(exerciseOf(list[i], workload, "exercises[" + std::to_string(i) + "]."));
  } catch (const FieldError& e) {
    return {{}, where + ": " + e.field + ": " + e.what};
  } catch (const json::exception& e) {  // e.g. a number too large for an int
    return {{}, where + ": " + e.what()};
  }
  return out;
}

}  // namespace launchlab
