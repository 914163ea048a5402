#pragma once
/// The course catalogue: every experiment of the seed notebooks that a workload can run, in the notebooks' order,
/// each a preset (a RequestText with the seed's size, dtype, inputs and launch), where it is in the seed, what to
/// look for and what differs from the seed. The experiments are data: each workload folder's experiments.json
/// (kernels/<workload>/, compiled in; format: docs/COURSE_FORMAT.md), and optionally an instructor's folder of files
/// in the same format (useCourseDir). It is the one source of the course: the CLI (`launchlab-cli course`), the
/// window's course list and the forms it opens (ui/models/presets.h, coursePreset), and the tests read it. Plain
/// data, no Qt, no CUDA; immutable once the program has started (useCourseDir runs before anything reads it).
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "launchlab/course/prediction.h"
#include "launchlab/engine/request.h"

namespace launchlab {

/// Where an experiment is in the course's seed notebooks.
struct SeedRef {
  std::string file;      ///< file name in the seed folder, e.g. "000_945c5bbc964fcfb4.txt"
  std::string notebook;  ///< which notebook that is, e.g. "TP 3.1 + TP 3.2 (French)"
  std::string section;   ///< the notebook's section and cell, as the seed names them
  int line = 0;          ///< line of the data or launch cell in the seed file (1-based)
  int order = 0;         ///< among experiments at the same file and line: the smaller first
};

/// How the window opens an experiment (the course file's optional "stage"): the view that teaches it, the
/// implementation that view shows, and the time the timing chart leads with. Empty fields: the workload's defaults.
struct StageView {
  std::string view;    ///< an output's name ("timeline"), or "timing" for the timing chart
  std::string impl;    ///< the implementation shown ("cuda-streams"), when not the first GPU one
  std::string timing;  ///< "kernel": the chart leads with kernel time (the lesson is the kernel); "" the total
  bool operator==(const StageView&) const = default;
};

struct CourseExperiment {
  std::string id;       ///< stable id for the command line and settings: "tp32-hypot-128x64"
  std::string chapter;  ///< the chapter the seed teaches it in (the built-in course: one of chapters.h)
  std::string title;    ///< one line: "hypot_stride[128, 64]: the parallel launch"
  SeedRef seed;
  std::string lookFor;  ///< one line: what the run shows
  std::string differs;  ///< what differs from the seed and why; empty when the run is the seed's
  RequestText request;  ///< the preset as text; parseRequest turns it into the run
  /// Hardware counters (launchlab/engine/counters.h ids) the experiment turns on in the window, the first the one its
  /// lesson is about (highlighted, and on the stage); empty: counters off.
  std::vector<std::string> counters;
  /// A comparison the seed makes across values of request fields, run as a sweep by `course run` (`launchlab-cli
  /// sweep`'s axes): field ("n", "dtype", "block", "grid", "param:<name>") -> values as the sweep options write
  /// them ("f32,f64", "32:1024:32", "sm*1,sm*2"). Empty for a single run. `request` stays one runnable point (the
  /// window loads it).
  std::map<std::string, std::string> sweep;
  StageView stage;  ///< how the window opens it
  /// The stage's header line where the title is too long for one line (kMaxHeaderTitle); "": the title.
  std::string shortTitle;
  /// What the experiment asks before its run (the course file's "predict"), the first the stage's headline.
  std::vector<Prediction> predictions;
  const std::string& headerTitle() const { return shortTitle.empty() ? title : shortTitle; }
};

/// The most characters of a stage header line (headerTitle): one line at the stage's size, never cut.
inline constexpr std::size_t kMaxHeaderTitle = 56;

/// A seed experiment that a compiled program cannot run (an interpreter timing, a Python library's behaviour):
/// listed in the course at its place, with the seed's figures quoted instead of a run.
struct CourseNote {
  std::string id;
  std::string chapter;
  std::string title;
  SeedRef seed;
  std::string text;  ///< what the seed shows, its figures quoted, and why nothing runs here
  /// A command that shows what the seed shows without a workload run: "info" (the device query), or empty.
  std::string command;
};

/// The experiment's request with its sweep's values in place of the fields they vary (the request `launchlab-cli
/// sweep` takes); the request itself when it has no sweep.
RequestText sweepRequestText(const CourseExperiment& e);

/// Every course experiment, in the order of the seed files and, within one, of their lines (then `order`); an
/// instructor's experiments (useCourseDir) follow the built-in ones, in the same order among themselves.
const std::vector<CourseExperiment>& courseExperiments();

/// One course file's experiments, or `problem`: one line naming the file and the field that is wrong, e.g.
/// "my/extra.json: experiments[2].look_for: missing". A file with a problem gives no experiments.
struct CourseFile {
  std::vector<CourseExperiment> experiments;
  std::vector<CourseNote> notes;
  std::string problem;
};
CourseFile parseCourseFile(std::string_view path, std::string_view text);

/// Sorts experiments (or notes) into course order: seed file, then line, then order.
void sortByPlace(std::vector<CourseExperiment>& experiments);
void sortByPlace(std::vector<CourseNote>& notes);
/// Whether `a` comes before `b` in course order (seed file, line, order).
bool beforeInCourse(const SeedRef& a, const SeedRef& b);

/// Every course note (the seed experiments without a run), in course order; an instructor's follow the built-in.
const std::vector<CourseNote>& courseNotes();
/// One line of the course as it is listed: an experiment or a note (exactly one is set).
struct CourseEntry {
  const CourseExperiment* experiment = nullptr;
  const CourseNote* note = nullptr;
  const std::string& chapter() const { return experiment ? experiment->chapter : note->chapter; }
};
/// The experiments and the notes merged in course order (a note before the experiments at its place or later); the
/// pointers stay valid until useCourseDir.
std::vector<CourseEntry> courseInOrder();

/// The note with this id, or nullptr.
const CourseNote* findCourseNote(std::string_view id);

/// The problems of the built-in course files (empty for a sound tree; a test keeps it so). Their experiments are
/// left out of courseExperiments().
const std::vector<std::string>& builtinCourseProblems();

/// Loads every *.json file of folder `dir` (by name) as a course file: the course becomes the built-in experiments
/// followed by these, or these alone when `only`. Returns one line per file refused (not JSON, a field missing or
/// wrong, an id already in the course), with its path and field; the other files still load. A `dir` that is not a
/// folder is one problem and leaves the course as it was. Call it at start-up, before anything reads the course.
std::vector<std::string> useCourseDir(const std::string& dir, bool only);

/// The experiment with this id, or nullptr.
const CourseExperiment* findCourseExperiment(std::string_view id);

/// The one message for an id that is not in the catalogue: "unknown course experiment 'x' (see 'launchlab-cli
/// course')".
std::string unknownCourseMessage(std::string_view id);

}  // namespace launchlab
