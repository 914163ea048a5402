#include "resolve.h"

#include <algorithm>

#include "launchlab/files/parse.h"

namespace launchlab::detail {

namespace {

template <typename T, typename F>
std::string joined(const std::vector<T>& items, F&& name) {
  std::string s;
  for (const auto& i : items) s += (s.empty() ? "" : ", ") + std::string(name(i));
  return s;
}

std::string shapeText(const std::vector<std::size_t>& s) {
  std::string t = "(";
  for (std::size_t k = 0; k < s.size(); ++k) t += (k ? ", " : "") + std::to_string(s[k]);
  return t + (s.size() == 1 ? ",)" : ")");
}

/// Input files: their headers are read now so that bad files are reported before anything runs.
void readInputHeaders(const WorkloadInfo& info, const RunRequest& req, Resolved& r,
                      std::vector<RequestProblem>& problems) {
  for (const auto& [name, path] : req.inputFiles) {
    const bool known = std::any_of(info.inputs.begin(), info.inputs.end(), [&name = name](const ArraySpec& s) {
      return s.name == name;
    });  // clang 14: no capture of a binding
    if (!known) {
      problems.push_back({"input:" + name, "workload " + info.id + " has no input '" + name + "' (inputs: " +
                                               joined(info.inputs, [](const ArraySpec& s) { return s.name; }) + ")"});
      continue;
    }
    try {
      r.inputHeaders[name] = npy::loadHeader(path);
      r.setup.inputFileShapes[name] = r.inputHeaders[name].shape;
    } catch (const std::exception& e) {
      problems.push_back({"input:" + name, e.what()});
    }
  }
}

/// The first input (in the workload's order) given as a file, optionally only among those without a dtype of
/// their own; nullptr when none.
const ArraySpec* firstFileInput(const WorkloadInfo& info, const Resolved& r, bool runDTypeOnly) {
  for (const auto& spec : info.inputs)
    if (r.inputHeaders.count(spec.name) && !(runDTypeOnly && spec.dtype)) return &spec;
  return nullptr;
}

/// dtype: given, else from an input file holding the run's dtype (not one with its own, e.g. int64 offsets), else
/// the workload's default.
void resolveDType(const WorkloadInfo& info, const RunRequest& req, Resolved& r, std::vector<RequestProblem>& problems) {
  DType dtype = info.defaultDType;
  std::string field = "dtype";  // the message names what the user gave: the option, or the file it came from
  if (req.dtype) {
    dtype = *req.dtype;
  } else if (const ArraySpec* in = firstFileInput(info, r, true)) {
    dtype = r.inputHeaders.at(in->name).dtype;
    field = "input:" + in->name;
  }
  if (std::find(info.dtypes.begin(), info.dtypes.end(), dtype) == info.dtypes.end())
    problems.push_back({field, info.id + " does not support dtype " + std::string(dtypeName(dtype)) +
                                   (field == "dtype" ? "" : " (the file's dtype)") +
                                   " (supported: " + joined(info.dtypes, dtypeName) + ")"});
  r.setup.dtype = dtype;
}

void resolveParamValues(const WorkloadInfo& info, const RunRequest& req, Resolved& r,
                        std::vector<RequestProblem>& problems) {
  const auto bad = paramProblems(info.params, req.params);
  for (const auto& [name, message] : bad) problems.push_back({"param:" + name, message});
  std::string err;
  if (bad.empty())
    if (auto pv = resolveParams(info.params, req.params, err)) r.setup.params = std::move(*pv);
}

/// n inferred from the first input file (in the workload's order of inputs): its element count, its rows for matrix
/// inputs, or its element count less one for the offsets of a jagged array (the n whose expected shape matches the
/// file). `name` becomes that file's input.
std::uint64_t nFromInputFile(const Workload& w, const Resolved& r, std::string& name) {
  const auto& inputs = w.info().inputs;
  const ArraySpec* first = firstFileInput(w.info(), r, false);
  name = first ? first->name : r.inputHeaders.begin()->first;
  const npy::Header& h = r.inputHeaders.at(name);
  std::size_t index = 0;
  while (index < inputs.size() && inputs[index].name != name) ++index;
  const std::uint64_t rows = h.shape.empty() ? std::uint64_t(1) : std::uint64_t(h.shape[0]);
  for (std::uint64_t candidate : {h.elements(), rows, h.elements() ? h.elements() - 1 : 0}) {
    RunSetup probe = r.setup;
    probe.n = candidate;
    auto shapes = w.inputShapes(probe);
    if (index < shapes.size() && shapes[index] == h.shape) return candidate;
  }
  return h.elements();
}

void resolveN(const Workload& w, const RunRequest& req, Resolved& r, std::vector<RequestProblem>& problems) {
  const auto& info = w.info();
  std::uint64_t n = info.defaultN;
  std::string field = "n", input;
  if (req.n) {
    n = *req.n;
  } else if (!r.inputHeaders.empty() && problems.empty()) {
    n = nFromInputFile(w, r, input);
    field = "input:" + input;
  }
  if (n < info.minN || n > info.maxN)
    problems.push_back({field, "n = " + formatSize(n) + (input.empty() ? "" : " (from the file's shape)") +
                                   " is outside " + info.id + "'s range [" + formatSize(info.minN) + ", " +
                                   formatSize(info.maxN) + "] " + info.sizeLabel});
  r.setup.n = n;
}

void checkRepetitions(const RunRequest& req, std::vector<RequestProblem>& problems) {
  const std::string most = std::to_string(kMaxRepetitions);
  if (req.reps < 1 || req.reps > kMaxRepetitions) problems.push_back({"reps", "reps must be between 1 and " + most});
  if (req.warmup < 0 || req.warmup > kMaxRepetitions)
    problems.push_back({"warmup", "warmup must be between 0 and " + most});
}

/// One launch field: its shape against the workload's dimensionality, then the device's limits.
void checkLaunchField(const char* field, const std::optional<Dim3>& d, const WorkloadInfo& info,
                      const DeviceLimits& limits, std::vector<RequestProblem>& problems) {
  if (!d) return;
  if (d->z > 1 || (info.launchDims < 2 && d->y > 1)) {
    problems.push_back({field, info.launchDims < 2 ? info.id + " uses a 1D launch: give one number (e.g. 256)"
                                                   : info.id + " uses a 2D launch: give X or XxY (e.g. 16x16)"});
    return;
  }
  LaunchRequest one;
  (std::string_view(field) == "block" ? one.block : one.grid) = d;
  if (auto e = validateLaunchRequest(one, limits); !e.empty()) problems.push_back({field, e});
}

void selectImpls(const Workload& w, const RunRequest& req, Resolved& r, std::vector<RequestProblem>& problems) {
  const ImplSpec* ref = w.findImpl(kCpuSerial);
  if (ref) r.impls.push_back(ref);
  for (const auto& id : req.impls) {
    if (id != "all" && !w.findImpl(id) && !(req.userKernel && id == kMyKernel))
      problems.push_back({"impl", "unknown implementation '" + id + "' for " + w.info().id +
                                      " (known: " + joined(w.impls(), [](const ImplSpec& s) { return s.id; }) + ")"});
  }
  for (const auto& spec : w.impls())
    if (&spec != ref && selects(req, spec.id)) r.impls.push_back(&spec);
}

/// Loaded files must hold the run's dtype and the shapes the workload expects.
void checkInputShapes(const Workload& w, const RunRequest& req, const Resolved& r,
                      std::vector<RequestProblem>& problems) {
  const auto& inputs = w.info().inputs;
  const auto shapes = w.inputShapes(r.setup);
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    auto it = r.inputHeaders.find(inputs[i].name);
    if (it == r.inputHeaders.end()) continue;
    const auto& h = it->second;
    const std::string& path = req.inputFiles.at(it->first);
    const DType expected = inputs[i].dtypeFor(r.setup.dtype);
    if (h.dtype != expected)
      problems.push_back({"input:" + it->first, path + " holds " + std::string(dtypeName(h.dtype)) + " but " +
                                                    (inputs[i].dtype ? it->first : "the run") + " is " +
                                                    std::string(dtypeName(expected))});
    else if (h.shape != shapes[i])
      problems.push_back(
          {"input:" + it->first, path + " has shape " + shapeText(h.shape) + ", expected " + shapeText(shapes[i])});
  }
}

}  // namespace

bool selects(const RunRequest& req, std::string_view id) {
  return req.impls.empty() || std::find(req.impls.begin(), req.impls.end(), "all") != req.impls.end() ||
         std::find(req.impls.begin(), req.impls.end(), id) != req.impls.end();
}

Resolved resolve(const Registry& reg, const DeviceLimits& limits, const RunRequest& req,
                 std::vector<RequestProblem>& problems) {
  Resolved r;
  r.workload = reg.find(req.workload);
  if (!r.workload) {
    problems.push_back({"workload", "unknown workload '" + req.workload + "' (known: " +
                                        joined(reg.ids(), [](const std::string& s) { return s; }) + ")"});
    return r;
  }
  const Workload& w = *r.workload;
  const auto& info = w.info();
  readInputHeaders(info, req, r, problems);
  resolveDType(info, req, r, problems);
  resolveParamValues(info, req, r, problems);
  r.setup.seed = req.seed;
  resolveN(w, req, r, problems);
  checkRepetitions(req, problems);
  checkLaunchField("block", req.launch.block, info, limits, problems);
  checkLaunchField("grid", req.launch.grid, info, limits, problems);
  selectImpls(w, req, r, problems);
  if (req.userKernel) resolveUserKernel(reg, req, r, problems);
  if (!problems.empty()) return r;
  if (auto e = w.validate(r.setup); !e.empty()) problems.push_back({"params", e});
  if (problems.empty()) checkInputShapes(w, req, r, problems);
  return r;
}

}  // namespace launchlab::detail
