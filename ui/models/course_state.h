#pragma once
/// The course at the window, as plain data: which experiment is open (none when a workload was picked by hand),
/// where it is among the experiments this build can run, the form it opens with and the view it declares. The
/// window, the browser's Course tab and the stage read it; nothing here knows a widget.
#include <QString>
#include <optional>
#include <string>

#include "launchlab/course/course.h"
#include "launchlab/engine/registry.h"
#include "models/presets.h"

namespace launchlab::ui {

/// Where a course experiment is among those this build can run (0-based index; -1 when not there).
struct CoursePosition {
  int index = -1;
  int count = 0;
};
CoursePosition coursePosition(const Registry& registry, const std::string& id);
/// The experiment `step` places from `id` among those this build can run, wrapping neither end ("" past the
/// ends); from an id not in the course, the first (step > 0) or the last.
std::string courseNeighbour(const Registry& registry, const std::string& id, int step);

class CourseState {
 public:
  explicit CourseState(const Registry& registry) : m_registry(registry) {}

  /// Opens experiment `id` (built-in or an instructor's --course-dir one): its form as a preset named by its title,
  /// or nullopt with the reason (the course has no such id, or this build lacks its workload); the state moves only
  /// when it opens.
  std::optional<Preset> open(const std::string& id, QString* why = nullptr);
  /// A workload picked by hand: no experiment is open.
  void leave() { m_id.clear(); }

  /// The open experiment's id; "" outside the course.
  const std::string& id() const { return m_id; }
  /// The open experiment, else nullptr.
  const CourseExperiment* experiment() const;
  CoursePosition position() const { return coursePosition(m_registry, m_id); }
  /// The experiment `step` places away (courseNeighbour), "" past the ends.
  std::string neighbour(int step) const { return courseNeighbour(m_registry, m_id, step); }
  /// How the open experiment shows workload `workload` (its view, implementation and timing order); empty when
  /// none is open or it is another workload's.
  StageView stageFor(const std::string& workload) const;

 private:
  const Registry& m_registry;
  std::string m_id;
};

}  // namespace launchlab::ui
