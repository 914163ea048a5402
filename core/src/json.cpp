#include "launchlab/io/json.h"

#include <cmath>
#include <nlohmann/json.hpp>

namespace launchlab::json {

using nlohmann::ordered_json;

namespace {
ordered_json num(double v) { return std::isfinite(v) ? ordered_json(v) : ordered_json(nullptr); }

ordered_json dim(const Dim3& d) { return ordered_json::array({d.x, d.y, d.z}); }

ordered_json device(const DeviceStatus& s) {
  ordered_json j;
  j["available"] = s.available;
  if (!s.available) {
    j["reason"] = s.reason;
    return j;
  }
  const auto& d = s.info;
  j["index"] = d.index;
  j["name"] = d.name;
  j["compute_capability"] = std::to_string(d.ccMajor) + "." + std::to_string(d.ccMinor);
  j["multiprocessors"] = d.multiprocessors;
  j["warp_size"] = d.limits.warpSize;
  j["max_threads_per_block"] = d.limits.maxThreadsPerBlock;
  j["max_threads_per_multiprocessor"] = d.maxThreadsPerMultiprocessor;
  j["max_blocks_per_multiprocessor"] = d.maxBlocksPerMultiprocessor;
  j["max_block_dim"] = dim(d.limits.maxBlockDim);
  j["max_grid_dim"] = dim(d.limits.maxGridDim);
  j["shared_mem_per_block"] = d.limits.sharedMemPerBlock;
  j["shared_mem_per_block_optin"] = d.limits.sharedMemPerBlockOptin;
  j["shared_mem_per_multiprocessor"] = d.sharedMemPerMultiprocessor;
  j["registers_per_block"] = d.registersPerBlock;
  j["registers_per_multiprocessor"] = d.registersPerMultiprocessor;
  j["global_memory_bytes"] = d.totalGlobalMem;
  j["l2_cache_bytes"] = d.l2CacheBytes;
  j["memory_bus_width_bits"] = d.memoryBusWidthBits;
  j["memory_clock_khz"] = d.memoryClockKHz;
  j["sm_clock_khz"] = d.clockKHz;
  j["theoretical_bandwidth_gbs"] = num(d.theoreticalBandwidthGBs);
  j["ecc_enabled"] = d.eccEnabled;
  j["driver_version"] = d.driverVersion;
  j["runtime_version"] = d.runtimeVersion;
  return j;
}

ordered_json verification(const Verification& v) {
  ordered_json j;
  j["outcome"] = outcomeName(v.outcome);
  j["max_abs_error"] = num(v.maxAbsError);
  j["max_rel_error"] = num(v.maxRelError);
  j["mismatches"] = v.mismatches;
  j["compared"] = v.compared;
  j["first_mismatches"] = v.firstMismatches;
  j["note"] = v.note;
  return j;
}

ordered_json impl(const ImplResult& r) {
  ordered_json j;
  j["id"] = r.implId;
  j["title"] = r.title;
  j["gpu"] = r.gpu;
  j["demonstration"] = r.demonstration;
  j["status"] = statusName(r.status);
  if (!r.reason.empty()) j["reason"] = r.reason;
  if (r.launch) {
    j["launch"] = {{"grid", dim(r.launch->grid)},
                   {"block", dim(r.launch->block)},
                   {"dynamic_smem_bytes", r.launch->dynamicSmemBytes},
                   {"total_threads", r.launch->totalThreads()},
                   {"note", r.launchNote}};
  }
  ordered_json phases = ordered_json::object();
  for (const auto& [p, s] : r.phases)
    phases[std::string(phaseName(p))] = {{"median_ms", num(s.medianMs)}, {"min_ms", num(s.minMs)},
                                         {"max_ms", num(s.maxMs)}, {"samples", s.samples}};
  j["phases"] = phases;
  j["bytes_moved"] = num(r.bytesMoved);
  j["bandwidth_gbs"] = num(r.bandwidthGBs);
  if (r.flops > 0) {
    j["flops"] = num(r.flops);
    j["gflops"] = num(r.gflops);
  }
  j["speedup_total_vs_cpu_serial"] = num(r.speedupTotal);
  j["speedup_compute_vs_cpu_serial"] = num(r.speedupCompute);
  if (!r.metrics.empty()) {
    ordered_json m = ordered_json::object();
    for (const auto& [k, v] : r.metrics) m[k] = num(v);
    j["metrics"] = m;
  }
  j["verification"] = verification(r.verification);
  return j;
}

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
  if (a.referenceValue) j["reference_value"] = *a.referenceValue;
  return j;
}
}  // namespace

std::string runResult(const RunResult& r, int indent) {
  ordered_json j;
  j["schema"] = "launchlab.run";
  j["schema_version"] = kSchemaVersion;
  j["timestamp"] = r.timestamp;
  j["status"] = statusName(r.status);
  if (!r.reason.empty()) j["reason"] = r.reason;
  j["workload"] = r.workload;
  j["n"] = r.n;
  j["dtype"] = r.dtype;
  j["seed"] = r.seed;
  j["warmup"] = r.warmup;
  j["reps"] = r.reps;
  j["params"] = r.params;
  j["host"] = r.host;
  j["device"] = device(r.device);
  ordered_json impls = ordered_json::array();
  for (const auto& i : r.impls) impls.push_back(impl(i));
  j["implementations"] = impls;
  j["all_passed"] = r.allPassed();
  return j.dump(indent);
}

std::string workloads(const Registry& reg, int indent) {
  ordered_json arr = ordered_json::array();
  for (const auto& w : reg.all()) {
    const auto& i = w->info();
    ordered_json j;
    j["id"] = i.id;
    j["title"] = i.title;
    j["chapter"] = i.chapter;
    j["lesson"] = i.lesson;
    j["seed_note"] = i.seedNote;
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
        pj["min"] = num(p.minValue);
        pj["max"] = num(p.maxValue);
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
  ordered_json root;
  root["schema"] = "launchlab.workloads";
  root["schema_version"] = kSchemaVersion;
  root["workloads"] = arr;
  return root.dump(indent);
}

std::string deviceStatus(const DeviceStatus& s, int indent) {
  ordered_json root;
  root["schema"] = "launchlab.device";
  root["schema_version"] = kSchemaVersion;
  root["device"] = device(s);
  return root.dump(indent);
}

}  // namespace launchlab::json
