#pragma once
/// The set of known workloads. Built once at start-up (kernels' registerAllWorkloads), then read-only.
#include <memory>
#include <string>
#include <vector>

#include "launchlab/workload.h"

namespace launchlab {

class Registry {
 public:
  void add(std::unique_ptr<Workload> w);  ///< throws std::logic_error on a duplicate id
  const Workload* find(const std::string& id) const;
  const std::vector<std::unique_ptr<Workload>>& all() const { return m_workloads; }
  std::vector<std::string> ids() const;

 private:
  std::vector<std::unique_ptr<Workload>> m_workloads;
};

}  // namespace launchlab
