// The course catalogue, loaded from data: every workload folder's experiments.json (compiled in, see
// embedded_course.h), then optionally an instructor's folder. The order is the seeds' (file, line, order), so a
// folder's files can be read in any order.
#include "launchlab/course/course.h"

#include <algorithm>
#include <filesystem>
#include <set>
#include <tuple>

#include "embedded_course.h"
#include "launchlab/files/bounded_file.h"

namespace launchlab {

namespace {

struct Builtin {
  std::vector<CourseExperiment> experiments;
  std::vector<CourseNote> notes;
  std::vector<std::string> problems;
};

const Builtin& builtin() {
  static const Builtin b = [] {
    Builtin out;
    for (const auto& named : embedded::filesNamed("experiments.json")) {
      CourseFile file = parseCourseFile("kernels/" + std::string(named.second->path), named.second->text());
      if (!file.problem.empty()) out.problems.push_back(file.problem);
      for (auto& e : file.experiments) out.experiments.push_back(std::move(e));
      for (auto& n : file.notes) out.notes.push_back(std::move(n));
    }
    sortByPlace(out.experiments);
    sortByPlace(out.notes);
    return out;
  }();
  return b;
}

std::vector<CourseExperiment>& active() {
  static std::vector<CourseExperiment> all = builtin().experiments;
  return all;
}

std::vector<CourseNote>& activeNotes() {
  static std::vector<CourseNote> all = builtin().notes;
  return all;
}

/// The first experiment or note of `file` whose id is in `ids` (or repeats within the file), as a problem line; ""
/// if none. Experiments and notes share one set of ids.
std::string duplicateId(const CourseFile& file, const std::string& path, std::set<std::string>& ids) {
  std::set<std::string> mine;
  auto check = [&](const auto& list, const char* key) -> std::string {
    for (std::size_t i = 0; i < list.size(); ++i) {
      const std::string& id = list[i].id;
      if (ids.count(id) || !mine.insert(id).second)
        return path + ": " + key + "[" + std::to_string(i) + "].id: '" + id + "' is already in the course";
    }
    return {};
  };
  std::string problem = check(file.experiments, "experiments");
  if (problem.empty()) problem = check(file.notes, "notes");
  if (problem.empty()) ids.insert(mine.begin(), mine.end());
  return problem;
}

template <typename T>
void sortItems(std::vector<T>& items) {
  std::stable_sort(items.begin(), items.end(), [](const T& a, const T& b) { return beforeInCourse(a.seed, b.seed); });
}

}  // namespace

bool beforeInCourse(const SeedRef& a, const SeedRef& b) {
  return std::tie(a.file, a.line, a.order) < std::tie(b.file, b.line, b.order);
}

void sortByPlace(std::vector<CourseExperiment>& experiments) { sortItems(experiments); }
void sortByPlace(std::vector<CourseNote>& notes) { sortItems(notes); }

RequestText sweepRequestText(const CourseExperiment& e) {
  RequestText t = e.request;
  for (const auto& [field, values] : e.sweep) {
    if (field == "n") t.n = values;
    if (field == "dtype") t.dtype = values;
    if (field == "block") t.block = values;
    if (field == "grid") t.grid = values;
    if (field.rfind("param:", 0) == 0) t.params[field.substr(6)] = values;
  }
  return t;
}

const std::vector<std::string>& builtinCourseProblems() { return builtin().problems; }

const std::vector<CourseExperiment>& courseExperiments() { return active(); }

const std::vector<CourseNote>& courseNotes() { return activeNotes(); }

std::vector<std::string> useCourseDir(const std::string& dir, bool only) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) return {dir + ": not a folder"};
  std::vector<fs::path> files;
  for (const auto& entry : fs::directory_iterator(dir, ec))
    if (entry.path().extension() == ".json") files.push_back(entry.path());
  std::sort(files.begin(), files.end());
  std::vector<std::string> problems;
  std::set<std::string> ids;
  if (!only) {
    for (const auto& e : builtin().experiments) ids.insert(e.id);
    for (const auto& n : builtin().notes) ids.insert(n.id);
  }
  std::vector<CourseExperiment> added;
  std::vector<CourseNote> addedNotes;
  for (const auto& p : files) {
    const files::FileBytes read = files::readBoundedFile(p.string(), files::kMaxCourseFileBytes);
    CourseFile file = read.ok() ? parseCourseFile(p.string(), read.bytes) : CourseFile{{}, {}, read.error};
    if (file.problem.empty()) file.problem = duplicateId(file, p.string(), ids);
    if (!file.problem.empty()) {
      problems.push_back(file.problem);
      continue;
    }
    for (auto& e : file.experiments) added.push_back(std::move(e));
    for (auto& n : file.notes) addedNotes.push_back(std::move(n));
  }
  sortByPlace(added);
  sortByPlace(addedNotes);
  std::vector<CourseExperiment> all = only ? std::vector<CourseExperiment>{} : builtin().experiments;
  all.insert(all.end(), std::make_move_iterator(added.begin()), std::make_move_iterator(added.end()));
  active() = std::move(all);
  std::vector<CourseNote> notes = only ? std::vector<CourseNote>{} : builtin().notes;
  notes.insert(notes.end(), std::make_move_iterator(addedNotes.begin()), std::make_move_iterator(addedNotes.end()));
  activeNotes() = std::move(notes);
  return problems;
}

const CourseExperiment* findCourseExperiment(std::string_view id) {
  const auto& all = courseExperiments();
  auto it = std::find_if(all.begin(), all.end(), [&](const CourseExperiment& e) { return e.id == id; });
  return it == all.end() ? nullptr : &*it;
}

std::vector<CourseEntry> courseInOrder() {
  const auto& experiments = courseExperiments();
  const auto& notes = courseNotes();
  std::vector<CourseEntry> out;
  out.reserve(experiments.size() + notes.size());
  std::size_t n = 0;
  for (const auto& e : experiments) {
    for (; n < notes.size() && beforeInCourse(notes[n].seed, e.seed); ++n) out.push_back({nullptr, &notes[n]});
    out.push_back({&e, nullptr});
  }
  for (; n < notes.size(); ++n) out.push_back({nullptr, &notes[n]});
  return out;
}

const CourseNote* findCourseNote(std::string_view id) {
  const auto& all = courseNotes();
  auto it = std::find_if(all.begin(), all.end(), [&](const CourseNote& n) { return n.id == id; });
  return it == all.end() ? nullptr : &*it;
}

std::string unknownCourseMessage(std::string_view id) {
  return "unknown course experiment '" + std::string(id) + "' (see 'launchlab-cli course')";
}

}  // namespace launchlab
