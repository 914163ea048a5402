// The course catalogue, loaded from data: every workload folder's experiments.json (compiled in, see
// embedded_course.h), then optionally an instructor's folder. The order is the seeds' (file, line, order), so a
// folder's files can be read in any order.
#include "launchlab/course.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <tuple>

#include "embedded_course.h"

namespace launchlab {

namespace {

struct Builtin {
  std::vector<CourseExperiment> experiments;
  std::vector<std::string> problems;
};

const Builtin& builtin() {
  static const Builtin b = [] {
    Builtin out;
    for (const auto& named : embedded::filesNamed("experiments.json")) {
      CourseFile file = parseCourseFile("kernels/" + std::string(named.second->path), named.second->text());
      if (!file.problem.empty()) out.problems.push_back(file.problem);
      for (auto& e : file.experiments) out.experiments.push_back(std::move(e));
    }
    sortByPlace(out.experiments);
    return out;
  }();
  return b;
}

std::vector<CourseExperiment>& active() {
  static std::vector<CourseExperiment> all = builtin().experiments;
  return all;
}

std::string readFile(const std::filesystem::path& p, bool& ok) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  ok = bool(in);
  return s.str();
}

/// The first experiment of `file` whose id is in `ids` (or repeats within the file), as a problem line; "" if none.
std::string duplicateId(const CourseFile& file, const std::string& path, std::set<std::string>& ids) {
  std::set<std::string> mine;
  for (std::size_t i = 0; i < file.experiments.size(); ++i) {
    const std::string& id = file.experiments[i].id;
    if (ids.count(id) || !mine.insert(id).second)
      return path + ": experiments[" + std::to_string(i) + "].id: '" + id + "' is already in the course";
  }
  ids.insert(mine.begin(), mine.end());
  return {};
}

}  // namespace

void sortByPlace(std::vector<CourseExperiment>& experiments) {
  std::stable_sort(experiments.begin(), experiments.end(), [](const CourseExperiment& a, const CourseExperiment& b) {
    return std::tie(a.seed.file, a.seed.line, a.seed.order) < std::tie(b.seed.file, b.seed.line, b.seed.order);
  });
}

const std::vector<std::string>& builtinCourseProblems() { return builtin().problems; }

const std::vector<CourseExperiment>& courseExperiments() { return active(); }

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
  if (!only)
    for (const auto& e : builtin().experiments) ids.insert(e.id);
  std::vector<CourseExperiment> added;
  for (const auto& p : files) {
    bool ok = false;
    const std::string content = readFile(p, ok);
    CourseFile file = ok ? parseCourseFile(p.string(), content) : CourseFile{{}, p.string() + ": cannot be read"};
    if (file.problem.empty()) file.problem = duplicateId(file, p.string(), ids);
    if (!file.problem.empty()) {
      problems.push_back(file.problem);
      continue;
    }
    for (auto& e : file.experiments) added.push_back(std::move(e));
  }
  sortByPlace(added);
  std::vector<CourseExperiment> all = only ? std::vector<CourseExperiment>{} : builtin().experiments;
  all.insert(all.end(), std::make_move_iterator(added.begin()), std::make_move_iterator(added.end()));
  active() = std::move(all);
  return problems;
}

const CourseExperiment* findCourseExperiment(std::string_view id) {
  const auto& all = courseExperiments();
  auto it = std::find_if(all.begin(), all.end(), [&](const CourseExperiment& e) { return e.id == id; });
  return it == all.end() ? nullptr : &*it;
}

std::string unknownCourseMessage(std::string_view id) {
  return "unknown course experiment '" + std::string(id) + "' (see 'launchlab-cli course')";
}

}  // namespace launchlab
