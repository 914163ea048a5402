#pragma once
/// A workload's lesson: kernels/<workload>/lesson.md, compiled in (the window's browser, `launchlab-cli list` and
/// the workloads JSON show it). Its sections "## What to look for" and "## In the course" are the two short texts
/// a workload's entry shows; the rest of the file (notes, differences from the seed) is for readers of the folder.
/// Plain data, no Qt; immutable.
#include <string>
#include <string_view>
#include <vector>

namespace launchlab {

struct Lesson {
  std::string lookFor;   ///< what the runs show (two or three sentences)
  std::string seedNote;  ///< what in the course this reproduces (the seed's sizes and launches)
  std::string markdown;  ///< the whole file
};

/// The lesson of workload `workloadId`: empty texts when its folder has no lesson.md (or a malformed one, see
/// lessonProblems), e.g. a test's own workload.
const Lesson& lessonOf(std::string_view workloadId);

/// Reads one lesson.md: its sections' paragraphs, with each paragraph's lines joined by one space. On a missing or
/// empty section, `problem` names the file and the section and the lesson is not usable.
struct ParsedLesson {
  Lesson lesson;
  std::string problem;
};
ParsedLesson parseLesson(std::string_view path, std::string_view markdown);

/// The workloads that have a lesson.md, by id, and the problems of the malformed ones (a test keeps both sound).
std::vector<std::string> lessonWorkloads();
const std::vector<std::string>& lessonProblems();

}  // namespace launchlab
