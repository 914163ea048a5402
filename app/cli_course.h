#pragma once
// The course catalogue on the command line: the listing `launchlab-cli course` prints, and its Markdown.
#include <string>

namespace launchlab::cli {

/// One block per experiment, in course order: id, title, the seed reference, the request as options (and the sweep
/// `course run` makes, if any), what to look for and what differs; the notes (seed experiments without a run) at
/// their places, with their text.
std::string renderCourse();

/// The course as Markdown (docs/workloads/course.md points to it instead of keeping a copy): a table per chapter
/// (id, seed place, what differs, a sweep's fields; the notes at their places), then the notes that run nothing,
/// with their text.
std::string renderCourseMarkdown();

}  // namespace launchlab::cli
