#include "models/course_state.h"

#include <vector>

namespace launchlab::ui {

namespace {
std::vector<const CourseExperiment*> runnable(const Registry& registry) {
  std::vector<const CourseExperiment*> out;
  for (const auto& e : courseExperiments())
    if (registry.find(e.request.workload)) out.push_back(&e);
  return out;
}
}  // namespace

CoursePosition coursePosition(const Registry& registry, const std::string& id) {
  const auto list = runnable(registry);
  CoursePosition p;
  p.count = int(list.size());
  for (int i = 0; i < p.count; ++i)
    if (list[std::size_t(i)]->id == id) p.index = i;
  return p;
}

std::string courseNeighbour(const Registry& registry, const std::string& id, int step) {
  const auto list = runnable(registry);
  if (list.empty() || step == 0) return {};
  const CoursePosition p = coursePosition(registry, id);
  const int next = p.index < 0 ? (step > 0 ? 0 : int(list.size()) - 1) : p.index + step;
  if (next < 0 || next >= int(list.size())) return {};
  return list[std::size_t(next)]->id;
}

std::optional<Preset> CourseState::open(const std::string& id, QString* why) {
  auto p = coursePreset(id, m_registry, why);
  if (p) m_id = id;
  return p;
}

const CourseExperiment* CourseState::experiment() const { return m_id.empty() ? nullptr : findCourseExperiment(m_id); }

StageView CourseState::stageFor(const std::string& workload) const {
  const CourseExperiment* e = experiment();
  return e && e->request.workload == workload ? e->stage : StageView{};
}

}  // namespace launchlab::ui
