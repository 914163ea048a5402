// The JSON form of a sweep (schema "launchlab.sweep", docs/JSON_SCHEMA.md).
#include <nlohmann/json.hpp>

#include "launchlab/io/json_value.h"
#include "launchlab/sweep.h"

namespace launchlab {

namespace {
using nlohmann::ordered_json;

ordered_json pointJson(const SweepPlan& plan, const SweepPoint& p) {
  ordered_json at = ordered_json::object();
  for (std::size_t a = 0; a < plan.axes.size() && a < p.values.size(); ++a) at[plan.axes[a].field] = p.values[a];
  ordered_json j = {{"at", at}, {"impl", p.implId}, {"threads", p.threads}, {"status", statusName(p.status)}};
  if (!p.reason.empty()) j["reason"] = p.reason;
  if (p.status != Status::Ok) return j;
  j["compute_ms"] = {{"median", jsonNumber(p.kernelMs)}, {"min", jsonNumber(p.minMs)}, {"max", jsonNumber(p.maxMs)}};
  j["total_median_ms"] = jsonNumber(p.totalMs);
  j["bandwidth_gbs"] = jsonNumber(p.bandwidthGBs);
  if (p.launched)
    j["launched"] = {{"grid", formatDim3(p.launched->grid)}, {"block", formatDim3(p.launched->block)}};
  j["verification"] = outcomeName(p.outcome);
  return j;
}
}  // namespace

std::string sweepJson(const SweepPlan& plan, const std::vector<SweepPoint>& points, const DeviceStatus& device) {
  ordered_json root = jsonDocument("launchlab.sweep");
  root["workload"] = plan.base.workload;
  ordered_json axes = ordered_json::array();
  for (const auto& a : plan.axes) axes.push_back({{"field", a.field}, {"values", a.values}});
  root["axes"] = axes;
  root["device"] = device;
  ordered_json pts = ordered_json::array();
  for (const auto& p : points) pts.push_back(pointJson(plan, p));
  root["points"] = pts;
  return dumpJson(root, 2);
}

}  // namespace launchlab
