// The measure vocabulary: each named measure computes its value from a run's results (kernel or total times,
// hardware counters, the metrics and one-element outputs an implementation reports, verification), or says why it
// has none. A GPU implementation skipped for want of a device gives "needs a GPU", never a made-up number.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>

#include "launchlab/course/prediction.h"
#include "launchlab/engine/counters.h"
#include "measure_table.h"

namespace launchlab {

namespace {

using V = MeasureValue;
using Run = std::span<const RunPoint>;

/// An implementation's name on the stage: "cuda-strided" → "strided", "cpu-serial" → "CPU serial".
std::string shortName(const std::string& id) {
  std::string s = id;
  if (s.rfind("cuda-", 0) == 0)
    s = s.substr(5);
  else if (s.rfind("cpu-", 0) == 0)
    s = "CPU " + s.substr(4);
  else if (s == "cuda")
    s = "CUDA";
  std::replace(s.begin(), s.end(), '-', ' ');
  return s;
}

/// formatMeasure, and hardware counters with two decimals ("4.00", "32.00") or in k / M when large ("4.1 M").
std::string fmt(double value, std::string_view unit) {
  if (unit != "counter") return formatMeasure(value, unit);
  char buf[32];
  if (std::abs(value) >= 1e6)
    std::snprintf(buf, sizeof buf, "%.1f M", value / 1e6);
  else if (std::abs(value) >= 1e4)
    std::snprintf(buf, sizeof buf, "%.1f k", value / 1e3);
  else
    std::snprintf(buf, sizeof buf, "%.2f", value);
  return buf;
}

std::string spaced(std::string s) {
  std::replace(s.begin(), s.end(), '_', ' ');
  return s;
}

const RunResult* single(Run run, V& v) {
  if (run.empty() || !run.front().result) v.reason = "not run yet";
  return v.ok() ? run.front().result : nullptr;
}

/// The implementation `id` of `r` when it ran, else nullptr with the reason in `v`.
const ImplResult* ran(const RunResult& r, const std::string& id, V& v) {
  const ImplResult* i = r.find(id);
  if (!i) {
    v.reason = id + " is not in the run";
  } else if (i->status == Status::Skipped) {
    v.needsGpu = i->gpu && !r.device.available;
    v.reason = v.needsGpu ? "needs a GPU" : id + " was skipped: " + i->reason;
  } else if (i->status == Status::Failed) {
    v.reason = id + " failed: " + i->reason;
  }
  return v.ok() ? i : nullptr;
}

/// Its median time in `kind` ("kernel": the kernel for a GPU implementation, the loop for a CPU one), or 0 and the
/// reason in `v`.
double timeOf(const ImplResult& i, const std::string& kind, V& v) {
  const double t = kind == "total" ? i.totalMedianMs() : i.computeMedianMs();
  if (!(t > 0)) v.reason = i.implId + " has no " + (kind == "total" ? "total" : "kernel") + " time";
  return t;
}

/// a / b as a ratio headline: "<label>: <b> <over> → <a> <of>: <r>×".
V ratio(std::string label, double a, const std::string& ofName, double b, const std::string& overName,
        std::string_view unit) {
  V v;
  v.label = std::move(label);
  v.unit = "×";
  if (!(b > 0)) {
    v.reason = overName + "'s value is 0: no ratio";
    return v;
  }
  v.number = a / b;
  v.headline =
      v.label + ": " + fmt(b, unit) + " " + overName + " → " + fmt(a, unit) + " " + ofName + ": " + fmt(v.number, "×");
  return v;
}

V timeRatio(const MeasureSpec& m, Run run, const std::string& kind) {
  V v;
  const RunResult* r = single(run, v);
  const ImplResult* of = r ? ran(*r, m.of, v) : nullptr;
  const ImplResult* over = of ? ran(*r, m.over, v) : nullptr;
  const double a = over ? timeOf(*of, kind, v) : 0, b = v.ok() && over ? timeOf(*over, kind, v) : 0;
  if (!v.ok()) return v;
  return ratio(kind == "total" ? "total time" : "kernel time", a, shortName(m.of), b, shortName(m.over), "ms");
}

V speedup(const MeasureSpec& m, Run run) {
  V v;
  const std::string kind = m.time.empty() ? "total" : m.time, over = m.over.empty() ? "cpu-serial" : m.over;
  const RunResult* r = single(run, v);
  const ImplResult* of = r ? ran(*r, m.of, v) : nullptr;
  const ImplResult* base = of ? ran(*r, over, v) : nullptr;
  const double a = base ? timeOf(*of, kind, v) : 0, b = v.ok() && base ? timeOf(*base, kind, v) : 0;
  if (!v.ok()) return v;
  v.label = "speedup of " + shortName(m.of) + " over " + shortName(over) + " (" + kind + " time)";
  v.unit = "×";
  v.number = b / a;
  v.headline = v.label + ": " + fmt(b, "ms") + " → " + fmt(a, "ms") + ": " + fmt(v.number, "×");
  return v;
}

V timeOfImpl(const MeasureSpec& m, Run run) {
  V v;
  const RunResult* r = single(run, v);
  const ImplResult* i = r ? ran(*r, m.of, v) : nullptr;
  const std::string kind = m.time.empty() ? "total" : m.time;
  v.number = i ? timeOf(*i, kind, v) : 0;
  v.label = (kind == "total" ? "total time of " : "kernel time of ") + shortName(m.of);
  v.unit = "ms";
  if (v.ok()) v.headline = v.label + ": " + fmt(v.number, "ms");
  return v;
}

/// Counter `id` of implementation `impl`, or 0 and the reason.
double counterOf(const RunResult& r, const std::string& impl, const std::string& id, V& v) {
  const ImplResult* i = ran(r, impl, v);
  if (!i) return 0;
  if (!i->counters)
    v.reason = "needs hardware counters (run with --counters on a GPU)";
  else if (!i->counters->error.ok())
    v.reason = counterErrorMessage(i->counters->error);
  else if (auto u = i->counters->unavailable.find(id); u != i->counters->unavailable.end())
    v.reason = u->second;
  else if (auto c = i->counters->values.find(id); c != i->counters->values.end())
    return c->second;
  else
    v.reason = impl + " has no " + id;
  return 0;
}

V counter(const MeasureSpec& m, Run run) {
  V v;
  v.label = spaced(m.counter);
  const RunResult* r = single(run, v);
  v.number = r ? counterOf(*r, m.of, m.counter, v) : 0;
  const double vs = v.ok() && !m.vs.empty() ? counterOf(*r, m.vs, m.counter, v) : 0;
  if (!v.ok()) return v;
  const std::string mine = fmt(v.number, "counter") + " " + shortName(m.of);
  v.headline = v.label + ": " + (m.vs.empty() ? mine : fmt(vs, "counter") + " " + shortName(m.vs) + " → " + mine);
  return v;
}

V counterRatio(const MeasureSpec& m, Run run) {
  V v;
  const RunResult* r = single(run, v);
  const double a = r ? counterOf(*r, m.of, m.counter, v) : 0;
  const double b = v.ok() ? counterOf(*r, m.over, m.counter, v) : 0;
  return v.ok() ? ratio(spaced(m.counter), a, shortName(m.of), b, shortName(m.over), "counter") : v;
}

/// Metric `name` that implementation `impl` reports, or 0 and the reason.
double metricOf(const RunResult& r, const std::string& impl, const std::string& name, V& v) {
  const ImplResult* i = ran(r, impl, v);
  if (!i) return 0;
  if (auto it = i->metrics.find(name); it != i->metrics.end()) return it->second;
  v.reason = impl + " reports no " + name;
  return 0;
}

V metric(const MeasureSpec& m, Run run) {
  V v;
  v.label = spaced(m.metric);
  const RunResult* r = single(run, v);
  v.number = r ? metricOf(*r, m.of, m.metric, v) : 0;
  double whole = 0, vs = 0;
  if (v.ok() && !m.outOf.empty()) whole = m.outOf == "n" ? double(r->n) : metricOf(*r, m.of, m.outOf, v);
  if (v.ok() && !m.vs.empty()) vs = metricOf(*r, m.vs, m.metric, v);
  if (!v.ok()) return v;
  v.headline = v.label + ": ";
  if (!m.vs.empty()) v.headline += fmt(vs, "") + " " + shortName(m.vs) + " → ";
  v.headline += fmt(v.number, "") + (m.vs.empty() ? "" : " " + shortName(m.of));
  if (!m.outOf.empty()) v.headline += " of " + fmt(whole, "");
  return v;
}

/// A metric of `of` over the same metric of `over`, or over its own metric `out_of` (two phases of one variant).
V metricRatio(const MeasureSpec& m, Run run) {
  V v;
  const RunResult* r = single(run, v);
  const double a = r ? metricOf(*r, m.of, m.metric, v) : 0;
  if (m.over.empty()) {
    const double b = v.ok() ? metricOf(*r, m.of, m.outOf, v) : 0;
    auto name = [](std::string s) { return spaced(s.ends_with("_ms") ? s.substr(0, s.size() - 3) : s); };
    const char* unit = m.metric.ends_with("_ms") && m.outOf.ends_with("_ms") ? "ms" : "";
    return v.ok() ? ratio(name(m.metric) + " / " + name(m.outOf), a, name(m.metric), b, name(m.outOf), unit) : v;
  }
  const double b = v.ok() ? metricOf(*r, m.over, m.metric, v) : 0;
  return v.ok() ? ratio(spaced(m.metric), a, shortName(m.of), b, shortName(m.over), "") : v;
}

V scalar(const MeasureSpec& m, Run run) {
  V v;
  v.label = m.metric + " from " + shortName(m.of);
  const RunResult* r = single(run, v);
  const ImplResult* i = r ? ran(*r, m.of, v) : nullptr;
  if (!i) return v;
  const auto it = i->scalars.find(m.metric);
  if (it == i->scalars.end())
    v.reason = m.of + " has no one-element output " + m.metric;
  else
    v.number = it->second;
  if (v.ok()) v.headline = v.label + ": " + fmt(v.number, "");
  return v;
}

V fastest(const MeasureSpec& m, Run run) {
  V v;
  const std::string kind = m.time.empty() ? "kernel" : m.time;
  v.label = kind == "total" ? "fastest (total time)" : "fastest (kernel time)";
  const RunResult* r = single(run, v);
  if (!r) return v;
  std::vector<std::string> ids = m.among;
  if (ids.empty())
    for (const auto& i : r->impls) ids.push_back(i.implId);
  double best = 0;
  for (const auto& id : ids) {
    const ImplResult* i = ran(*r, id, v);
    const double t = i ? timeOf(*i, kind, v) : 0;
    if (!v.ok()) return v;
    if (v.choice.empty() || t < best) v.choice = id, best = t;
  }
  if (v.choice.empty())
    v.reason = "nothing ran";
  else
    v.headline = v.label + ": " + shortName(v.choice) + ", " + fmt(best, "ms");
  return v;
}

V overlap(const MeasureSpec& m, Run run) {
  V v;
  const RunResult* r = single(run, v);
  v.number = r ? 100 * metricOf(*r, m.of, "overlap_fraction", v) : 0;
  v.label = "overlap";
  v.unit = "%";
  if (v.ok()) v.headline = "overlap " + fmt(v.number, "%");
  return v;
}

V firstCallRatio(const MeasureSpec& m, Run run) {
  V v;
  const RunResult* r = single(run, v);
  const double first = r ? metricOf(*r, m.of, "first_call_ms", v) : 0;
  const double later = v.ok() ? metricOf(*r, m.of, "later_call_ms", v) : 0;
  if (!v.ok()) return v;
  v = ratio("first call against later calls", first, "", later, "", "ms");
  if (v.ok())
    v.headline = "first call " + fmt(first, "ms") + ", later calls " + fmt(later, "ms") + ": " + fmt(v.number, "×");
  return v;
}

V verified(const MeasureSpec& m, Run run) {
  V v;
  v.label = "result of " + shortName(m.of) + " right";
  const RunResult* r = single(run, v);
  const ImplResult* i = r ? ran(*r, m.of, v) : nullptr;
  if (!i) return v;
  const auto& ver = i->verification;
  if (ver.outcome == Verification::Outcome::NotChecked) v.reason = m.of + "'s result was not checked";
  // A demonstration is marked so whether or not it went wrong this time: its mismatches say which.
  const bool right = ver.outcome == Verification::Outcome::Pass || ver.outcome == Verification::Outcome::Reference ||
                     (ver.outcome == Verification::Outcome::Demonstration && ver.mismatches == 0);
  v.choice = right ? "yes" : "no";
  if (v.ok())
    v.headline =
        shortName(m.of) + ": " +
        (right ? std::string("right")
               : "wrong in " + fmt(double(ver.mismatches), "") + " of " + fmt(double(ver.compared), "") + " elements");
  return v;
}

V mismatches(const MeasureSpec& m, Run run) {
  V v;
  v.label = "elements wrong in " + shortName(m.of);
  const RunResult* r = single(run, v);
  const ImplResult* i = r ? ran(*r, m.of, v) : nullptr;
  if (!i) return v;
  if (i->verification.outcome == Verification::Outcome::NotChecked) v.reason = m.of + "'s result was not checked";
  v.number = double(i->verification.mismatches);
  if (v.ok()) v.headline = v.label + ": " + fmt(v.number, "") + " of " + fmt(double(i->verification.compared), "");
  return v;
}

V relError(const MeasureSpec& m, Run run) {
  V v;
  v.label = "relative error of " + shortName(m.of);
  v.unit = "%";
  const RunResult* r = single(run, v);
  const ImplResult* i = r ? ran(*r, m.of, v) : nullptr;
  if (i && i->verification.outcome == Verification::Outcome::NotChecked) v.reason = m.of + "'s result was not checked";
  v.number = i ? 100 * i->verification.maxRelError : 0;
  if (v.ok()) v.headline = v.label + ": " + fmt(v.number, "%");
  return v;
}

std::string pointName(const std::map<std::string, std::string>& at) {
  std::string s;
  for (const auto& [field, value] : at) s += (s.empty() ? "" : ", ") + value;
  return s;
}

/// The time of `impl` at the one point whose values include `at`, or 0 and the reason.
double timeAt(Run run, const std::map<std::string, std::string>& at, const std::string& impl, const std::string& kind,
              V& v) {
  const RunPoint* found = nullptr;
  for (const auto& p : run) {
    const bool match = p.result && std::all_of(at.begin(), at.end(), [&](const auto& kv) {
                         auto it = p.at.find(kv.first);
                         return it != p.at.end() && it->second == kv.second;
                       });
    if (match && found) v.reason = "more than one sweep point has " + pointName(at);
    if (match) found = &p;
  }
  if (!found && v.ok()) v.reason = "no sweep point has " + pointName(at);
  const ImplResult* i = v.ok() ? ran(*found->result, impl, v) : nullptr;
  return i ? timeOf(*i, kind, v) : 0;
}

V pointRatio(const MeasureSpec& m, Run run) {
  V v;
  const std::string kind = m.time.empty() ? "kernel" : m.time;
  const double a = timeAt(run, m.at, m.of, kind, v);
  const double b = v.ok() ? timeAt(run, m.overAt, m.of, kind, v) : 0;
  if (!v.ok()) return v;
  std::map<std::string, std::string> mine, theirs;  // the fields that differ name the points
  for (const auto& [field, value] : m.at)
    if (auto it = m.overAt.find(field); it == m.overAt.end() || it->second != value) mine[field] = value;
  for (const auto& [field, value] : m.overAt)
    if (auto it = m.at.find(field); it == m.at.end() || it->second != value) theirs[field] = value;
  return ratio((kind == "total" ? "total time of " : "kernel time of ") + shortName(m.of), a, pointName(mine), b,
               pointName(theirs), "ms");
}

V sweepSpread(const MeasureSpec& m, Run run) {
  V v;
  const std::string kind = m.time.empty() ? "kernel" : m.time;
  const RunPoint *lo = nullptr, *hi = nullptr;
  double loT = 0, hiT = 0;
  for (const auto& p : run) {
    const ImplResult* i = p.result ? ran(*p.result, m.of, v) : nullptr;
    const double t = i ? timeOf(*i, kind, v) : 0;
    if (!v.ok()) return v;
    if (!lo || t < loT) lo = &p, loT = t;
    if (!hi || t > hiT) hi = &p, hiT = t;
  }
  if (!lo) v.reason = "not run yet";
  // One run is one point: the spread is the sweep's (the window's first run, before the experiment's sweep).
  if (lo && run.size() < 2) v.reason = "needs the experiment's sweep (one run is one point)";
  if (!v.ok()) return v;
  const std::string what = kind == "total" ? "total time" : "kernel time";
  return ratio(what + " of " + shortName(m.of) + ", slowest over fastest point", hiT, "(" + pointName(hi->at) + ")",
               loT, "(" + pointName(lo->at) + ")", "ms");
}

/// What a measure that found no value is about: "kernel time: needs a GPU".
std::string fallbackLabel(const MeasureSpec& m) {
  const std::string time = m.time == "total" ? "total time" : "kernel time";
  if (m.name == "kernel_ratio") return "kernel time";
  if (m.name == "total_ratio") return "total time";
  if (m.name == "speedup") return "speedup of " + shortName(m.of);
  if (m.name == "point_ratio" || m.name == "sweep_spread") return time + " of " + shortName(m.of);
  if (m.name == "counter_ratio") return spaced(m.counter);
  if (m.name == "metric_ratio") return spaced(m.metric);
  if (m.name == "first_call_ratio") return "first call against later calls";
  return spaced(m.name);
}

constexpr std::string_view kOfOver[] = {"of", "over"};
constexpr std::string_view kOf[] = {"of"};
constexpr std::string_view kTime[] = {"time"};
constexpr std::string_view kOverTime[] = {"over", "time"};
constexpr std::string_view kCounterOf[] = {"counter", "of"};
constexpr std::string_view kCounterOfOver[] = {"counter", "of", "over"};
constexpr std::string_view kVs[] = {"vs"};
constexpr std::string_view kMetricOf[] = {"metric", "of"};
constexpr std::string_view kOverOutOf[] = {"over", "out_of"};
constexpr std::string_view kOutOfVs[] = {"out_of", "vs"};
constexpr std::string_view kOutputOf[] = {"output", "of"};
constexpr std::string_view kAmongTime[] = {"among", "time"};
constexpr std::string_view kPoints[] = {"of", "at", "over_at"};

using Fn = std::function<V(const MeasureSpec&, Run)>;
struct Entry {
  course::MeasureArgs args;
  Fn fn;
};

const std::vector<Entry>& entries() {
  static const std::vector<Entry> all = {
      {{"kernel_ratio", kOfOver, {}}, [](const MeasureSpec& m, Run r) { return timeRatio(m, r, "kernel"); }},
      {{"total_ratio", kOfOver, {}}, [](const MeasureSpec& m, Run r) { return timeRatio(m, r, "total"); }},
      {{"speedup", kOf, kOverTime}, speedup},
      {{"time", kOf, kTime}, timeOfImpl},
      {{"counter", kCounterOf, kVs}, counter},
      {{"counter_ratio", kCounterOfOver, {}}, counterRatio},
      {{"metric", kMetricOf, kOutOfVs}, metric},
      {{"metric_ratio", kMetricOf, kOverOutOf}, metricRatio},
      {{"scalar", kOutputOf, {}}, scalar},
      {{"fastest", {}, kAmongTime, true}, fastest},
      {{"overlap", kOf, {}}, overlap},
      {{"first_call_ratio", kOf, {}}, firstCallRatio},
      {{"verified", kOf, {}, true}, verified},
      {{"mismatches", kOf, {}}, mismatches},
      {{"rel_error", kOf, {}}, relError},
      {{"point_ratio", kPoints, kTime}, pointRatio},
      {{"sweep_spread", kOf, kTime}, sweepSpread},
  };
  return all;
}

const Entry* entry(std::string_view name) {
  for (const auto& e : entries())
    if (e.args.name == name) return &e;
  return nullptr;
}

}  // namespace

namespace course {

std::span<const MeasureArgs> measureTable() {
  static const std::vector<MeasureArgs> table = [] {
    std::vector<MeasureArgs> out;
    for (const auto& e : entries()) out.push_back(e.args);
    return out;
  }();
  return table;
}

const MeasureArgs* measureArgs(std::string_view name) {
  const Entry* e = entry(name);
  return e ? &e->args : nullptr;
}

}  // namespace course

std::vector<std::string> measureNames() {
  std::vector<std::string> out;
  for (const auto& e : entries()) out.emplace_back(e.args.name);
  return out;
}

bool measureIsChoice(std::string_view name) {
  const Entry* e = entry(name);
  return e && e->args.choice;
}

MeasureValue measure(const MeasureSpec& spec, Run run) {
  const Entry* e = entry(spec.name);
  MeasureValue v;
  if (!e) v.reason = "unknown measure '" + spec.name + "'";
  if (!e) return v;
  v = e->fn(spec, run);
  if (v.label.empty()) v.label = fallbackLabel(spec);  // a measure that stopped early still names itself
  if (!v.ok()) v.headline.clear();
  return v;
}

}  // namespace launchlab
