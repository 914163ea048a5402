// The JSON form of a sweep (schema "launchlab.sweep", docs/JSON_SCHEMA.md).
#include <nlohmann/json.hpp>

#include "launchlab/crossover.h"
#include "launchlab/io/json_value.h"
#include "launchlab/sweep.h"

namespace launchlab {

namespace {
using nlohmann::ordered_json;

ordered_json pointJson(const SweepPlan& plan, const SweepPoint& p) {
  ordered_json at = ordered_json::object();
  for (std::size_t a = 0; a < plan.axes.size() && a < p.values.size(); ++a) at[plan.axes[a].field] = p.values[a];
  ordered_json j = {{"at", at},        {"impl", p.implId},
                    {"gpu", p.gpu},     {"threads", p.threads},
                    {"status", statusName(p.status)}};
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

ordered_json crossoverJson(const Crossover& c) {
  ordered_json rows = ordered_json::array();
  for (const auto& r : c.rows)
    rows.push_back({{"n", r.n}, {"best_cpu", r.bestCpu}, {"best_cpu_ms", jsonNumber(r.bestCpuMs)},
                    {"gpu_kernel_ms", jsonNumber(r.gpuKernelMs)}, {"gpu_total_ms", jsonNumber(r.gpuTotalMs)}});
  auto from = [](const std::optional<std::uint64_t>& n) { return n ? ordered_json(*n) : ordered_json(nullptr); };
  return {{"gpu_impl", c.gpuImpl},          {"group", c.group},
          {"kernel_only_from_n", from(c.kernelOnlyFrom)}, {"with_copies_from_n", from(c.withCopiesFrom)},
          {"rows", rows}};
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
  std::vector<std::string> fields;
  for (const auto& a : plan.axes) fields.push_back(a.field);
  if (const auto cs = crossovers(fields, points); !cs.empty()) {
    ordered_json cj = ordered_json::array();
    for (const auto& c : cs) cj.push_back(crossoverJson(c));
    root["crossover"] = cj;
  }
  return dumpJson(root, 2);
}

}  // namespace launchlab
