#include "cli_course.h"

#include <sstream>
#include <utility>

#include "launchlab/course/course.h"
#include "launchlab/engine/request.h"

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

/// "000:1434, TP 3.2 — 2. Premier Kernel CUDA": the seed file's number, the line, and `what` (a section or a title).
std::string shortPlace(const SeedRef& s, const std::string& what) {
  return s.file.substr(0, 3) + ":" + std::to_string(s.line) + ", " + what;
}

/// One table per run of experiments of one chapter: id, seed place, what differs (and the sweep), notes at their
/// places.
void markdownTables(std::ostringstream& o) {
  std::string_view chapter;
  for (const auto& entry : courseInOrder()) {
    if (entry.chapter() != chapter) {
      if (!chapter.empty()) o << "\n";
      o << "### " << (chapter = entry.chapter()) << "\n\n| id | seed place | what differs |\n|---|---|---|\n";
    }
    if (const CourseNote* n = entry.note) {
      o << "| `" << n->id << "` | " << shortPlace(n->seed, n->seed.section) << " | "
        << (n->command == "info" ? "*note*: `course run` prints the device query (`info`)"
                                 : "*note, nothing to run* (below)")
        << " |\n";
      continue;
    }
    const CourseExperiment& e = *entry.experiment;
    o << "| `" << e.id << "` | " << shortPlace(e.seed, e.seed.section) << " | "
      << (e.differs.empty() ? "nothing" : e.differs);
    if (!e.sweep.empty()) {
      o << " *Sweep:* ";
      const char* sep = "";
      for (const auto& [field, values] : e.sweep) o << std::exchange(sep, ", ") << "`" << field << "` = " << values;
      o << ".";
    }
    o << " |\n";
  }
}

}  // namespace

std::string renderCourseMarkdown() {
  std::ostringstream o;
  o << "## Every experiment and note\n\n";
  markdownTables(o);
  o << "\n## Cannot run in a compiled program\n\n";
  for (const auto& n : courseNotes())
    if (n.command.empty()) o << "- `" << n.id << "` (" << shortPlace(n.seed, n.title) << "): " << n.text << "\n";
  return o.str();
}

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

}  // namespace launchlab::cli
