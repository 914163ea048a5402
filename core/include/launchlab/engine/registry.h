#pragma once
/// The set of known workloads. Built once at start-up (kernels' registerAllWorkloads), then read-only.
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "launchlab/course/exercise.h"
#include "launchlab/engine/workload.h"

namespace launchlab {

class Registry {
 public:
  void add(std::unique_ptr<Workload> w);  ///< throws std::logic_error on a duplicate id
  const Workload* find(const std::string& id) const;
  const std::vector<std::unique_ptr<Workload>>& all() const { return m_workloads; }
  std::vector<std::string> ids() const;

  /// Runs a student's kernel as an implementation (set by the kernels library in CUDA builds; empty otherwise).
  using UserKernelRunner = std::function<void(ImplContext&, const UserKernel&, const Exercise&)>;
  void setUserKernelRunner(UserKernelRunner run) { m_userKernelRunner = std::move(run); }
  const UserKernelRunner& userKernelRunner() const { return m_userKernelRunner; }

 private:
  std::vector<std::unique_ptr<Workload>> m_workloads;
  UserKernelRunner m_userKernelRunner;
};

}  // namespace launchlab
