#pragma once
// The course catalogue on the command line: the listing, and the window's built-in presets derived from it.
#include <string>

#include "launchlab/registry.h"

namespace launchlab::cli {

/// One block per experiment, in course order: id, title, the seed reference, the request as options (and the sweep
/// `course run` makes, if any), what to look for and what differs; the notes (seed experiments without a run) at
/// their places, with their text.
std::string renderCourse();

/// Writes every course experiment as a window preset file (`{"launchlab_preset": 1, "name", "course_id", "form"}`,
/// the format of ui/presets.h) named `NN_<id>.json` under `folder` (which must exist), so the files sort in course
/// order. "all" implementations are listed by id from `reg`. Returns the number of files written.
int writeCoursePresets(const std::string& folder, const Registry& reg);

/// The preset file of one experiment, as writeCoursePresets writes it (2-space indented JSON and a newline).
std::string coursePresetJson(std::size_t index, const Registry& reg);

}  // namespace launchlab::cli
