#include "form_state.h"

#include <algorithm>
#include <cmath>
#include <sstream>

#include "backend.h"
#include "launchlab/parse.h"

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
  for (const auto& i : w.impls()) f.impls.push_back(i.id);
  return f;
}

namespace {

/// Maps an engine problem field to a form field.
std::string formField(const std::string& engineField) {
  if (engineField == "n") return "size";
  if (engineField == "param") return "params";
  if (engineField == "impl") return "impls";
  if (engineField == "dtype" || engineField == "block" || engineField == "grid" || engineField == "reps" ||
      engineField == "warmup")
    return engineField;
  if (engineField.rfind("param:", 0) == 0) return engineField;
  return "form";
}

void checkLaunchField(const std::string& field, const std::string& text, int launchDims, bool isBlock,
                      const DeviceLimits& limits, FormCheck& out, std::optional<Dim3>& parsed) {
  std::string err;
  auto d = parseDim3(text, &err);
  if (!d) {
    out.errors[field] = err;
    return;
  }
  if (d->z > 1 || (launchDims < 2 && d->y > 1)) {
    out.errors[field] = launchDims < 2 ? "this workload uses a 1D launch: give one number (e.g. 256)"
                                       : "this workload uses a 2D launch: give X or XxY (e.g. 16x16)";
    return;
  }
  LaunchRequest lr;
  (isBlock ? lr.block : lr.grid) = *d;
  if (auto e = validateLaunchRequest(lr, limits); !e.empty()) {
    out.errors[field] = e;
    return;
  }
  parsed = *d;
  if (isBlock && d->count() % std::uint64_t(std::max(1, limits.warpSize)) != 0)
    out.warnings[field] = std::to_string(d->count()) + " threads is not a multiple of the warp size (" +
                          std::to_string(limits.warpSize) + "): the last warp of every block runs partly empty";
}

}  // namespace

FormCheck checkForm(const FormState& form, const Backend& backend) {
  FormCheck out;
  const Workload* w = backend.registry().find(form.workload);
  if (!w) {
    out.errors["form"] = "unknown workload '" + form.workload + "'";
    return out;
  }
  const auto& info = w->info();
  RunRequest req;
  req.workload = info.id;

  std::string err;
  if (auto n = parseSize(form.size, &err)) {
    if (*n < info.minN || *n > info.maxN)
      out.errors["size"] = "n = " + form.size + " is outside [" + sizeText(info.minN) + ", " + sizeText(info.maxN) +
                           "] " + info.sizeLabel + " for " + info.id;
    else req.n = *n;
  } else {
    out.errors["size"] = err;
  }

  if (auto t = parseDType(form.dtype);
      t && std::find(info.dtypes.begin(), info.dtypes.end(), *t) != info.dtypes.end()) {
    req.dtype = *t;
  } else {
    out.errors["dtype"] = info.id + " does not support dtype '" + form.dtype + "'";
  }

  for (const auto& spec : info.params) {
    auto it = form.params.find(spec.name);
    const std::string text = it != form.params.end() ? it->second : defaultParamText(spec);
    if (auto e = checkParamValue(spec, text); !e.empty()) out.errors["param:" + spec.name] = e;
    else req.params[spec.name] = text;
  }

  const DeviceLimits limits = backend.launchLimits();
  std::optional<Dim3> block, grid;
  if (!form.autoBlock) checkLaunchField("block", form.block, info.launchDims, true, limits, out, block);
  if (!form.autoGrid) checkLaunchField("grid", form.grid, info.launchDims, false, limits, out, grid);
  req.launch.block = block;
  req.launch.grid = grid;

  for (const auto& id : form.impls) {
    if (!w->findImpl(id)) out.errors["impls"] = "unknown implementation '" + id + "'";
    else req.impls.push_back(id);
  }
  // An empty list means "all" to the engine: a form with nothing ticked runs the reference alone.
  if (req.impls.empty()) req.impls.emplace_back(kCpuSerial);

  if (form.reps < 1 || form.reps > 100000) out.errors["reps"] = "repetitions must be between 1 and 100000";
  if (form.warmup < 0 || form.warmup > 100000) out.errors["warmup"] = "warm-up runs must be between 0 and 100000";
  req.reps = form.reps;
  req.warmup = form.warmup;
  req.seed = form.seed;

  if (!out.errors.empty()) return out;
  // Rules across fields (e.g. xmin < xmax) and anything else the engine checks.
  for (const auto& p : backend.validate(req)) {
    const std::string f = formField(p.field);
    if (!out.errors.count(f)) out.errors[f] = p.message;
  }
  if (out.errors.empty()) out.request = std::move(req);
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
  // bytesMoved bounds inputs + outputs; each kept implementation holds one set of outputs.
  return w.bytesMoved(s) * double(std::max(1, implCount) + 1);
}

double keptBytesCap(std::size_t availableBytes) {
  const double quarter = availableBytes ? double(availableBytes) / 4.0 : double(2ull << 30);
  return std::clamp(quarter, double(256ull << 20), double(8ull << 30));
}

bool mayKeepArrays(double estimateBytes, double capBytes, std::string& note) {
  if (estimateBytes <= capBytes) return true;
  std::ostringstream o;
  o.precision(3);
  o << "outputs not kept for plotting: they would hold about " << estimateBytes / double(1ull << 30)
    << " GiB (cap " << capBytes / double(1ull << 30) << " GiB); timings and verification are complete";
  note = o.str();
  return false;
}

}  // namespace launchlab::ui
