#include "cli_course.h"

#include <cstdio>
#include <nlohmann/json.hpp>
#include <sstream>

#include "launchlab/course.h"
#include "launchlab/io/atomic_file.h"
#include "launchlab/request.h"

namespace launchlab::cli {

namespace {

/// The request as the options that reproduce it with `launchlab-cli run`.
std::string asOptions(const RequestText& t) {
  std::string s = t.workload;
  if (!t.n.empty()) s += " --n " + t.n;
  if (!t.dtype.empty()) s += " --dtype " + t.dtype;
  if (t.block != "auto") s += " --block " + t.block;
  if (t.grid != "auto") s += " --grid " + t.grid;
  for (const auto& [k, v] : t.params) s += " --param " + k + "=" + v;
  if (t.impls != "all") s += " --impl " + t.impls;
  const RequestText defaults;
  if (t.reps != defaults.reps) s += " --reps " + t.reps;
  if (t.warmup != defaults.warmup) s += " --warmup " + t.warmup;
  return s;
}

std::vector<std::string> implIds(const RequestText& t, const Registry& reg) {
  if (t.impls != "all") return splitList(t.impls);
  std::vector<std::string> ids;
  if (const Workload* w = reg.find(t.workload))
    for (const auto& s : w->impls()) ids.push_back(s.id);
  return ids;
}

std::string fileName(std::size_t index, const std::string& id) {
  char prefix[8];
  std::snprintf(prefix, sizeof prefix, "%02zu_", index + 1);
  return prefix + id + ".json";
}

}  // namespace

std::string renderCourse() {
  std::ostringstream o;
  std::string_view chapter;
  auto place = [](const SeedRef& s) {
    return (s.notebook.empty() ? "" : s.notebook + ", ") + s.section + " (" + s.file + ":" + std::to_string(s.line) +
           ")";
  };
  for (const auto& entry : courseInOrder()) {
    if (entry.chapter() != chapter) o << "\n" << (chapter = entry.chapter()) << "\n";
    if (const CourseNote* n = entry.note) {
      o << "  " << n->id << "  " << n->title
        << (n->command == "info" ? "  (note: course run prints the device query)\n" : "  (note: nothing to run)\n")
        << "      seed: " << place(n->seed) << "\n"
        << "      note: " << n->text << "\n";
      continue;
    }
    const CourseExperiment& e = *entry.experiment;
    o << "  " << e.id << "  " << e.title << "\n"
      << "      seed: " << place(e.seed) << "\n"
      << "      run:  " << asOptions(e.request) << "\n";
    if (!e.sweep.empty()) o << "      sweep: " << asOptions(sweepRequestText(e)) << "\n";
    o << "      look: " << e.lookFor << "\n";
    for (const auto& p : e.predictions) o << "      ask:  " << p.question << "\n";
    if (!e.differs.empty()) o << "      differs: " << e.differs << "\n";
  }
  return o.str();
}

std::string coursePresetJson(std::size_t index, const Registry& reg) {
  const CourseExperiment& e = courseExperiments().at(index);
  const RequestText& t = e.request;
  nlohmann::ordered_json form = {{"workload", t.workload},
                                 {"size", t.n},
                                 {"dtype", t.dtype},
                                 {"params", t.params},
                                 {"auto_block", t.block == "auto"},
                                 {"block", t.block == "auto" ? "256" : t.block},
                                 {"auto_grid", t.grid == "auto"},
                                 {"grid", t.grid == "auto" ? "1024" : t.grid},
                                 {"impls", implIds(t, reg)},
                                 {"reps", std::stoi(t.reps)},
                                 {"warmup", std::stoi(t.warmup)},
                                 {"seed", t.seed}};
  if (!e.counters.empty()) form["counters"] = e.counters;
  nlohmann::ordered_json doc = {{"launchlab_preset", 1}, {"name", e.title}, {"course_id", e.id}, {"form", form}};
  return doc.dump(2) + "\n";
}

int writeCoursePresets(const std::string& folder, const Registry& reg) {
  const auto& all = courseExperiments();
  for (std::size_t i = 0; i < all.size(); ++i)
    files::writeAtomic(folder + "/" + fileName(i, all[i].id), coursePresetJson(i, reg));
  return static_cast<int>(all.size());
}

}  // namespace launchlab::cli
