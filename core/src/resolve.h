#pragma once
/// Internal to core: the rules a parsed request must meet (the engine is their one owner). resolve() turns a
/// RunRequest into what a run is made of, or into problems that each name their field.
#include <map>
#include <string>
#include <vector>

#include "launchlab/io/npy.h"
#include "launchlab/registry.h"
#include "launchlab/request.h"
#include "launchlab/workload.h"

namespace launchlab::detail {

struct Resolved {
  const Workload* workload = nullptr;
  RunSetup setup;
  std::vector<const ImplSpec*> impls;  ///< the reference first, then the selection in registry order
  std::map<std::string, npy::Header> inputHeaders;
};

/// Validates and resolves `req` against the registry and the launch limits; problems are appended.
Resolved resolve(const Registry& registry, const DeviceLimits& limits, const RunRequest& req,
                 std::vector<RequestProblem>& problems);

/// True when `req` asks for implementation `id` (an empty list and "all" ask for every one).
bool selects(const RunRequest& req, std::string_view id);

}  // namespace launchlab::detail
