#pragma once
/// Internal to core: the rules a parsed request must meet (the engine is their one owner). resolve() turns a
/// RunRequest into what a run is made of, or into problems that each name their field.
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "launchlab/engine/registry.h"
#include "launchlab/engine/request.h"
#include "launchlab/engine/workload.h"
#include "launchlab/files/npy.h"

namespace launchlab::detail {

struct Resolved {
  const Workload* workload = nullptr;
  RunSetup setup;
  std::vector<const ImplSpec*> impls;  ///< the reference first, then the selection in registry order
  std::map<std::string, npy::Header> inputHeaders;
  std::shared_ptr<const ImplSpec> userImpl;  ///< "my-kernel" when the request carries a kernel (in `impls`)
};

/// Validates and resolves `req` against the registry and the launch limits; problems are appended.
Resolved resolve(const Registry& registry, const DeviceLimits& limits, const RunRequest& req,
                 std::vector<RequestProblem>& problems);

/// The request's student kernel: checks it against its exercise (field "kernel"; the dtype and choices the
/// exercise is written for) and, when it is selected, appends the implementation "my-kernel" to r.impls.
void resolveUserKernel(const Registry& registry, const RunRequest& req, Resolved& r,
                       std::vector<RequestProblem>& problems);

/// True when `req` asks for implementation `id` (an empty list and "all" ask for every one).
bool selects(const RunRequest& req, std::string_view id);

}  // namespace launchlab::detail
