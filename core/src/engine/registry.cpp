#include "launchlab/engine/registry.h"

#include <stdexcept>

namespace launchlab {

void Registry::add(std::unique_ptr<Workload> w) {
  if (find(w->info().id)) throw std::logic_error("workload '" + w->info().id + "' registered twice");
  m_workloads.push_back(std::move(w));
}

const Workload* Registry::find(const std::string& id) const {
  for (const auto& w : m_workloads)
    if (w->info().id == id) return w.get();
  return nullptr;
}

std::vector<std::string> Registry::ids() const {
  std::vector<std::string> out;
  for (const auto& w : m_workloads) out.push_back(w->info().id);
  return out;
}

}  // namespace launchlab
