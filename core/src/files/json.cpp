// The public documents: a run and a device are written in the one form of io/json_value.h; the workload list,
// which nothing reads back, is mapped here.
#include "launchlab/files/json.h"

#include <nlohmann/json.hpp>

#include "launchlab/course/course.h"
#include "launchlab/course/lesson.h"
#include "launchlab/files/json_value.h"

namespace launchlab::json {

using nlohmann::ordered_json;

namespace {
ordered_json arraySpec(const ArraySpec& a) {
  ordered_json j;
  j["name"] = a.name;
  j["title"] = a.title;
  j["plot"] = plotKindName(a.plot);
  j["x_label"] = a.xLabel;
  j["y_label"] = a.yLabel;
  if (!a.xFrom.empty()) j["x_from"] = a.xFrom;
  if (!a.xMinParam.empty()) j["x_min_param"] = a.xMinParam;
  if (!a.xMaxParam.empty()) j["x_max_param"] = a.xMaxParam;
  if (a.xMin) j["x_min"] = *a.xMin;
  if (a.xMax) j["x_max"] = *a.xMax;
  if (a.referenceValue) j["reference_value"] = *a.referenceValue;
  if (a.dtype) j["dtype"] = dtypeName(*a.dtype);
  if (a.logY) j["log_y"] = true;
  return j;
}
}  // namespace

std::string runResult(const RunResult& r, int indent) { return dumpJson(ordered_json(r), indent); }

std::string workloads(const Registry& reg, int indent) {
  ordered_json arr = ordered_json::array();
  for (const auto& w : reg.all()) {
    const auto& i = w->info();
    ordered_json j;
    j["id"] = i.id;
    j["title"] = i.title;
    j["chapter"] = i.chapter;
    j["lesson"] = lessonOf(i.id).lookFor;
    j["seed_note"] = lessonOf(i.id).seedNote;
    ordered_json dts = ordered_json::array();
    for (auto t : i.dtypes) dts.push_back(dtypeName(t));
    j["dtypes"] = dts;
    j["default_dtype"] = dtypeName(i.defaultDType);
    j["default_n"] = i.defaultN;
    j["min_n"] = i.minN;
    j["max_n"] = i.maxN;
    j["size_label"] = i.sizeLabel;
    j["launch_dims"] = i.launchDims;
    ordered_json ps = ordered_json::array();
    for (const auto& p : i.params) {
      ordered_json pj;
      pj["name"] = p.name;
      pj["label"] = p.label;
      pj["unit"] = p.unit;
      pj["help"] = p.help;
      pj["kind"] = p.kind == ParamSpec::Kind::Real ? "real" : p.kind == ParamSpec::Kind::Integer ? "integer" : "choice";
      if (p.kind == ParamSpec::Kind::Choice) {
        pj["choices"] = p.choices;
        pj["default"] = p.choices.at(static_cast<std::size_t>(p.defaultValue));
      } else {
        pj["default"] = p.defaultValue;
        pj["min"] = jsonNumber(p.minValue);
        pj["max"] = jsonNumber(p.maxValue);
      }
      ps.push_back(pj);
    }
    j["params"] = ps;
    ordered_json ins = ordered_json::array(), outs = ordered_json::array();
    for (const auto& a : i.inputs) ins.push_back(arraySpec(a));
    for (const auto& a : i.outputs) outs.push_back(arraySpec(a));
    j["inputs"] = ins;
    j["outputs"] = outs;
    ordered_json im = ordered_json::array();
    for (const auto& s : w->impls()) {
      ordered_json sj;
      sj["id"] = s.id;
      sj["title"] = s.title;
      sj["kind"] = implKindName(s.kind);
      sj["description"] = s.description;
      sj["demonstration"] = s.demonstration;
      sj["uses_launch_config"] = s.usesLaunchConfig;
      sj["available"] = static_cast<bool>(s.run);
      if (!s.run) sj["unavailable_reason"] = s.unavailableReason;
      im.push_back(sj);
    }
    j["implementations"] = im;
    arr.push_back(j);
  }
  ordered_json root = jsonDocument("launchlab.workloads");
  root["workloads"] = arr;
  return dumpJson(root, indent);
}

std::string deviceStatus(const DeviceStatus& s, int indent) {
  ordered_json root = jsonDocument("launchlab.device");
  root["device"] = s;
  return dumpJson(root, indent);
}

namespace {
ordered_json seedJson(const SeedRef& s) {
  ordered_json j = {{"file", s.file}, {"notebook", s.notebook}, {"section", s.section}, {"line", s.line}};
  if (s.order != 0) j["order"] = s.order;  // only where it places the item among others at the same line
  return j;
}
}  // namespace

std::string course(int indent) {
  ordered_json arr = ordered_json::array();
  for (const auto& e : courseExperiments()) {
    const RequestText& t = e.request;
    ordered_json j;
    j["id"] = e.id;
    j["chapter"] = e.chapter;
    j["title"] = e.title;
    if (!e.shortTitle.empty()) j["short_title"] = e.shortTitle;
    j["seed"] = seedJson(e.seed);
    j["look_for"] = e.lookFor;
    j["differs"] = e.differs;
    j["request"] = {{"workload", t.workload}, {"n", t.n},           {"dtype", t.dtype},
                    {"block", t.block},       {"grid", t.grid},     {"impls", t.impls},
                    {"reps", t.reps},         {"warmup", t.warmup}, {"params", t.params}};
    if (!e.counters.empty()) j["counters"] = e.counters;
    if (!e.sweep.empty()) j["sweep"] = e.sweep;
    if (e.stage != StageView{})
      j["stage"] = {{"view", e.stage.view}, {"impl", e.stage.impl}, {"timing", e.stage.timing}};
    if (!e.predictions.empty()) j["predict"] = ordered_json::parse(predictionsJson(e.predictions));
    arr.push_back(j);
  }
  ordered_json notes = ordered_json::array();
  for (const auto& n : courseNotes())
    notes.push_back({{"id", n.id},
                     {"chapter", n.chapter},
                     {"title", n.title},
                     {"seed", seedJson(n.seed)},
                     {"text", n.text},
                     {"command", n.command}});
  ordered_json root = jsonDocument("launchlab.course");
  root["experiments"] = arr;
  root["notes"] = notes;
  return dumpJson(root, indent);
}

}  // namespace launchlab::json
