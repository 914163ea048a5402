#include "launchlab/course/lesson.h"

#include <map>

#include "embedded_course.h"

namespace launchlab {

namespace {

constexpr std::string_view kLookFor = "## What to look for";
constexpr std::string_view kInTheCourse = "## In the course";

/// The text of section `heading` (up to the next "## "), paragraphs joined by a blank line and the lines of each
/// by a space: markdown's own reading of a wrapped paragraph.
std::string section(std::string_view md, std::string_view heading) {
  std::string out;
  bool in = false, gap = false;
  while (!md.empty()) {
    const auto nl = md.find('\n');
    std::string_view line = md.substr(0, nl);
    md.remove_prefix(nl == std::string_view::npos ? md.size() : nl + 1);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (line.starts_with("## ")) {
      if (in) break;
      in = line == heading;
      continue;
    }
    if (!in) continue;
    if (line.find_first_not_of(" \t") == std::string_view::npos) {
      gap = !out.empty();
      continue;
    }
    if (!out.empty()) out += gap ? "\n\n" : " ";
    out += line;
    gap = false;
  }
  return out;
}

struct Lessons {
  std::map<std::string, Lesson, std::less<>> byWorkload;
  std::vector<std::string> problems;
};

const Lessons& lessons() {
  static const Lessons all = [] {
    Lessons out;
    for (const auto& [workload, f] : embedded::filesNamed("lesson.md")) {
      ParsedLesson p = parseLesson("kernels/" + std::string(f->path), f->text());
      if (!p.problem.empty())
        out.problems.push_back(p.problem);
      else
        out.byWorkload.emplace(std::string(workload), std::move(p.lesson));
    }
    return out;
  }();
  return all;
}

}  // namespace

ParsedLesson parseLesson(std::string_view path, std::string_view markdown) {
  ParsedLesson p;
  p.lesson = {section(markdown, kLookFor), section(markdown, kInTheCourse), std::string(markdown)};
  if (p.lesson.lookFor.empty())
    p.problem = std::string(path) + ": section '" + std::string(kLookFor) + "': missing or empty";
  else if (p.lesson.seedNote.empty())
    p.problem = std::string(path) + ": section '" + std::string(kInTheCourse) + "': missing or empty";
  return p;
}

const Lesson& lessonOf(std::string_view workloadId) {
  static const Lesson none;
  const auto& m = lessons().byWorkload;
  const auto it = m.find(workloadId);
  return it == m.end() ? none : it->second;
}

std::vector<std::string> lessonWorkloads() {
  std::vector<std::string> ids;
  for (const auto& [id, lesson] : lessons().byWorkload) ids.push_back(id);
  return ids;
}

const std::vector<std::string>& lessonProblems() { return lessons().problems; }

}  // namespace launchlab
