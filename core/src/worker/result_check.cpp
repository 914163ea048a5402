#include "launchlab/worker/result_check.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <set>
#include <vector>

#include "../engine/resolve.h"
#include "launchlab/explorer/block_trace.h"
#include "launchlab/worker/worker.h"

namespace launchlab {

bool safeFileName(std::string_view s) {
  if (s.empty() || s.size() > 128 || s.front() == '.' || s.front() == '-') return false;
  for (char c : s)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == '.')) return false;
  return true;
}

namespace {

std::string shapeText(const HostArray& a) {
  std::string t = std::string(dtypeName(a.dtype())) + " (";
  for (std::size_t k = 0; k < a.shape().size(); ++k) t += (k ? ", " : "") + std::to_string(a.shape()[k]);
  return t + ")";
}

/// "" or what is wrong with the names of one list of arrays (`where` says whose).
std::string checkNames(const std::vector<HostArray>& arrays, const std::string& where) {
  std::set<std::string> seen;
  for (const auto& a : arrays) {
    if (!safeFileName(a.name())) return where + ": an array name that is not a plain file name";
    if (!seen.insert(a.name()).second) return where + ": array '" + a.name() + "' twice";
  }
  return {};
}

}  // namespace

std::string checkResultArrays(const RunResult& r) {
  if (std::string why = checkNames(r.inputs, "inputs"); !why.empty()) return why;
  std::set<std::string> ids;
  std::map<std::string, std::pair<const HostArray*, std::string>> first;  // output name -> its first array, owner
  for (const auto& impl : r.impls) {
    if (!safeFileName(impl.implId)) return "an implementation id that is not a plain file name";
    if (!ids.insert(impl.implId).second) return "implementation '" + impl.implId + "' twice";
    if (std::string why = checkNames(impl.outputs, impl.implId); !why.empty()) return why;
    for (const auto& a : impl.outputs) {
      const auto [it, added] = first.try_emplace(a.name(), &a, impl.implId);
      const HostArray& other = *it->second.first;
      if (!added && (other.dtype() != a.dtype() || other.shape() != a.shape()))
        return "output '" + a.name() + "' is " + shapeText(other) + " in " + it->second.second + " but " +
               shapeText(a) + " in " + impl.implId;
    }
  }
  return {};
}

std::uint64_t resultBytesBound(const Registry& registry, const RunRequest& req) {
  // What a result holds besides its arrays (timings, metrics, a verification's first mismatches, counters) is
  // small: a generous margin, and as much again per implementation.
  constexpr double kMarginBytes = double(std::uint64_t(64) << 20), kPerImplBytes = double(std::uint64_t(1) << 20);
  constexpr double kPerTracedBlockBytes = 128;  // a block record in the result's JSON
  std::vector<RequestProblem> problems;
  detail::Resolved r;
  try {
    r = detail::resolve(registry, DeviceLimits::genericCuda(), req, problems);
  } catch (const std::exception&) {
    return 0;
  }
  if (!r.workload || !problems.empty()) return 0;  // refused here or resolved only there: the worker's answer
  const double impls = double(std::max<std::size_t>(r.impls.size(), 1));
  // hostBytes: the inputs and one set of outputs; each implementation brings its own outputs.
  const double arrays = req.keepInputs || req.keepOutputs ? r.workload->hostBytes(r.setup) * (impls + 1) : 0;
  const double traces = req.traceBlocks ? impls * double(kMaxTracedBlocks) * kPerTracedBlockBytes : 0;
  const double bound = arrays + traces + kMarginBytes + impls * kPerImplBytes;
  return bound >= 1.8e19 ? std::uint64_t(-1) : std::uint64_t(bound);
}

}  // namespace launchlab
