#pragma once
/// The course catalogue: every experiment of the seed notebooks that a workload can run, in the notebooks' order,
/// each a preset (a RequestText with the seed's size, dtype, inputs and launch), where it is in the seed, what to
/// look for and what differs from the seed. It is the one source of the course presets: the CLI (`launchlab-cli
/// course`), the window's course list and the tests read it. Plain data, no Qt, no CUDA; thread-safe (immutable).
#include <string>
#include <string_view>
#include <vector>

#include "launchlab/request.h"

namespace launchlab {

/// Where an experiment is in the course's seed notebooks.
struct SeedRef {
  std::string file;      ///< file name in the seed folder, e.g. "000_945c5bbc964fcfb4.txt"
  std::string notebook;  ///< which notebook that is, e.g. "TP 3.1 + TP 3.2 (French)"
  std::string section;   ///< the notebook's section and cell, as the seed names them
  int line = 0;          ///< line of the data or launch cell in the seed file (1-based)
};

struct CourseExperiment {
  std::string id;          ///< stable id for the command line and settings: "tp32-hypot-128x64"
  std::string_view chapter;  ///< one of chapters.h: the chapter the seed teaches it in
  std::string title;       ///< one line: "hypot_stride[128, 64]: the parallel launch"
  SeedRef seed;
  std::string lookFor;     ///< one line: what the run shows
  std::string differs;     ///< what differs from the seed and why; empty when the run is the seed's
  RequestText request;     ///< the preset as text; parseRequest turns it into the run
};

/// Every course experiment, in the order of the seed files and, within one, of their lines.
const std::vector<CourseExperiment>& courseExperiments();

/// The experiment with this id, or nullptr.
const CourseExperiment* findCourseExperiment(std::string_view id);

/// The one message for an id that is not in the catalogue: "unknown course experiment 'x' (see 'launchlab-cli
/// course')".
std::string unknownCourseMessage(std::string_view id);

}  // namespace launchlab
