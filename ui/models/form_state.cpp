#include "models/form_state.h"

#include <algorithm>
#include <cmath>
#include <sstream>

#include "launchlab/files/parse.h"
#include "models/backend.h"

namespace launchlab::ui {

std::string FormCheck::firstError() const {
  if (errors.empty()) return {};
  return errors.begin()->first + ": " + errors.begin()->second;
}

std::string defaultParamText(const ParamSpec& spec) {
  if (spec.kind == ParamSpec::Kind::Choice) {
    const auto i = static_cast<std::size_t>(spec.defaultValue);
    return i < spec.choices.size() ? spec.choices[i] : std::string();
  }
  if (spec.kind == ParamSpec::Kind::Integer) return std::to_string(std::llround(spec.defaultValue));
  std::ostringstream o;
  o.precision(12);
  o << spec.defaultValue;
  return o.str();
}

std::string sizeText(std::uint64_t n) {
  std::string s = formatSize(n);
  if (auto sp = s.find(' '); sp != std::string::npos) s.resize(sp);
  return s;
}

FormState defaultForm(const Workload& w) {
  const auto& info = w.info();
  FormState f;
  f.workload = info.id;
  f.size = sizeText(info.defaultN);
  f.dtype = std::string(dtypeName(info.defaultDType));
  for (const auto& p : info.params) f.params[p.name] = defaultParamText(p);
  f.block = info.launchDims == 2 ? "16x16" : "256";
  f.grid = info.launchDims == 2 ? "64x64" : "1024";
  for (const auto& i : w.impls())
    if (i.runByDefault) f.impls.push_back(i.id);
  return f;
}

namespace {

/// Maps a request problem's field to a form field.
std::string formField(const std::string& field) {
  if (field == "n") return "size";
  if (field == "impl" || field == "kernel") return "impls";  // my-kernel's problems sit with the implementations
  if (field == "dtype" || field == "block" || field == "grid" || field == "reps" || field == "warmup" ||
      field == "params" || field.rfind("param:", 0) == 0)
    return field;
  return "form";
}

void addProblems(const std::vector<RequestProblem>& problems, std::map<std::string, std::string>& into) {
  for (const auto& p : problems) into.emplace(formField(p.field), p.message);  // the first per field stays
}

}  // namespace

RequestText requestTextOf(const FormState& form) {
  RequestText t;
  t.workload = form.workload;
  t.n = form.size.empty() ? " " : form.size;  // an empty field is an error here, not "the default"
  t.dtype = form.dtype.empty() ? " " : form.dtype;
  t.block = form.autoBlock ? "auto" : form.block;
  t.grid = form.autoGrid ? "auto" : form.grid;
  // An empty list means "all" to the engine: a form with nothing ticked runs the reference alone.
  t.impls.clear();
  for (const auto& id : form.impls) t.impls += (t.impls.empty() ? "" : ",") + id;
  if (t.impls.empty()) t.impls = kCpuSerial;
  t.reps = std::to_string(form.reps);
  t.warmup = std::to_string(form.warmup);
  t.seed = std::to_string(form.seed);
  t.params = form.params;
  return t;
}

FormCheck checkForm(const FormState& formIn, const Backend& backend, const UserKernel* kernel) {
  FormCheck out;
  FormState form = formIn;
  const auto mine = std::find(form.impls.begin(), form.impls.end(), kMyKernel);
  const bool runsMine = mine != form.impls.end() && kernel;
  if (mine != form.impls.end() && !kernel) form.impls.erase(mine);  // no exercise loaded: nothing to run
  ParsedRequest parsed = parseRequest(requestTextOf(form));
  if (runsMine) parsed.request.userKernel = *kernel;
  addProblems(parsed.problems, out.errors);
  // The engine's rules, for the fields that parsed: ranges, dtypes, parameters, launch limits, rules across fields.
  RunRequest probe = parsed.request;
  if (!out.errors.count("block")) addProblems(launchAdvice(probe.launch, backend.launchLimits()), out.warnings);
  addProblems(backend.validate(probe), out.errors);
  if (out.errors.empty()) out.request = std::move(parsed.request);
  if (out.request) {
    out.request->traceBlocks = form.traceBlocks;
    out.request->counters = form.counters;
  }
  return out;
}

std::uint64_t chooseQuickSize(const Workload& w, int passes, double budgetSeconds) {
  const auto& info = w.info();
  std::string err;
  auto params = resolveParams(info.params, {}, err);
  if (!params) return info.defaultN;
  RunSetup s;
  s.dtype = info.defaultDType;
  s.params = *params;
  const double perPass = budgetSeconds / std::max(1, passes);
  for (std::uint64_t n = info.defaultN; n >= info.minN && n > 0; n /= 2) {
    s.n = n;
    const double seconds = w.bytesMoved(s) / 1e9 + w.flops(s) / 0.5e9;
    if (seconds <= perPass && w.validate(s).empty()) return n;
    if (n == info.minN) break;
  }
  return std::max<std::uint64_t>(info.minN, 1);
}

double keptBytesEstimate(const Workload& w, std::uint64_t n, DType dtype, const ParamValues& params, int implCount) {
  RunSetup s;
  s.n = n;
  s.dtype = dtype;
  s.params = params;
  // hostBytes is inputs + one set of outputs; each kept implementation holds one more set of outputs.
  return w.hostBytes(s) * double(std::max(1, implCount) + 1);
}

double keptBytesCap(std::size_t availableBytes) {
  const double quarter = availableBytes ? double(availableBytes) / 4.0 : double(2ull << 30);
  return std::clamp(quarter, double(256ull << 20), double(8ull << 30));
}

bool mayKeepArrays(double estimateBytes, double capBytes, std::string& note) {
  if (estimateBytes <= capBytes) return true;
  std::ostringstream o;
  o.precision(3);
  o << "outputs not kept for plotting: they would hold about " << estimateBytes / double(1ull << 30) << " GiB (cap "
    << capBytes / double(1ull << 30) << " GiB); timings and verification are complete";
  note = o.str();
  return false;
}

bool mayKeepArraysOf(const Workload& w, const RunRequest& req, std::string& note) {
  std::string err;
  const auto params = resolveParams(w.info().params, req.params, err);
  if (!params || !req.n || !req.dtype) return true;
  const double est = keptBytesEstimate(w, *req.n, *req.dtype, *params, int(req.impls.size()));
  return mayKeepArrays(est, keptBytesCap(hostAvailableMemory()), note);
}

}  // namespace launchlab::ui
