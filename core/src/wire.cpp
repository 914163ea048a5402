#include "launchlab/io/wire.h"

#include "launchlab/io/json.h"

#include <cmath>
#include <cstring>
#include <nlohmann/json.hpp>
#include <stdexcept>

namespace launchlab::wire {

using nlohmann::json;

namespace {

json dim(const Dim3& d) { return json::array({d.x, d.y, d.z}); }
Dim3 dimFrom(const json& j) { return Dim3{j.at(0).get<std::uint32_t>(), j.at(1).get<std::uint32_t>(), j.at(2).get<std::uint32_t>()}; }

// Arrays travel as {name, dtype, shape, offset, bytes} in the JSON and raw bytes after it.
struct Blob {
  std::string data;
  json describe(const HostArray& a) {
    json j = {{"name", a.name()}, {"dtype", std::string(dtypeName(a.dtype()))}, {"shape", a.shape()},
              {"offset", data.size()}, {"bytes", a.bytes()}};
    data.append(static_cast<const char*>(a.data()), a.bytes());
    return j;
  }
};
HostArray arrayFrom(const json& j, std::string_view blob) {
  auto t = parseDType(j.at("dtype").get<std::string>());
  if (!t) throw std::runtime_error("wire: bad dtype");
  HostArray a(j.at("name").get<std::string>(), *t, j.at("shape").get<std::vector<std::size_t>>());
  const auto off = j.at("offset").get<std::size_t>();
  const auto bytes = j.at("bytes").get<std::size_t>();
  if (bytes != a.bytes() || off + bytes > blob.size()) throw std::runtime_error("wire: truncated array");
  if (bytes) std::memcpy(a.data(), blob.data() + off, bytes);
  return a;
}

// Frame a JSON document and a blob: [8-byte JSON length][JSON][blob].
std::string pack(const json& j, const std::string& blob) {
  const std::string text = j.dump();
  std::string out(8, '\0');
  std::uint64_t n = text.size();
  std::memcpy(out.data(), &n, 8);
  out += text;
  out += blob;
  return out;
}
std::pair<json, std::string_view> unpack(std::string_view bytes) {
  if (bytes.size() < 8) throw std::runtime_error("wire: short message");
  std::uint64_t n = 0;
  std::memcpy(&n, bytes.data(), 8);
  if (8 + n > bytes.size()) throw std::runtime_error("wire: truncated message");
  return {json::parse(bytes.substr(8, n)), bytes.substr(8 + n)};
}

// The device travels in its public JSON form (json::deviceStatus, documented in docs/JSON_SCHEMA.md).
json deviceJson(const DeviceStatus& s) { return json::parse(launchlab::json::deviceStatus(s, -1)).at("device"); }
DeviceStatus deviceFrom(const json& j) {
  DeviceStatus s;
  s.available = j.at("available");
  if (!s.available) {
    s.reason = j.value("reason", std::string());
    return s;
  }
  auto& d = s.info;
  d.index = j.at("index");
  d.name = j.at("name");
  const std::string cc = j.at("compute_capability");
  d.ccMajor = std::stoi(cc.substr(0, cc.find('.')));
  d.ccMinor = std::stoi(cc.substr(cc.find('.') + 1));
  d.multiprocessors = j.at("multiprocessors");
  d.maxThreadsPerMultiprocessor = j.at("max_threads_per_multiprocessor");
  d.maxBlocksPerMultiprocessor = j.at("max_blocks_per_multiprocessor");
  d.registersPerBlock = j.at("registers_per_block");
  d.registersPerMultiprocessor = j.at("registers_per_multiprocessor");
  d.sharedMemPerMultiprocessor = j.at("shared_mem_per_multiprocessor");
  d.totalGlobalMem = j.at("global_memory_bytes");
  d.l2CacheBytes = j.at("l2_cache_bytes");
  d.memoryBusWidthBits = j.at("memory_bus_width_bits");
  d.memoryClockKHz = j.at("memory_clock_khz");
  d.clockKHz = j.at("sm_clock_khz");
  d.theoreticalBandwidthGBs = j.at("theoretical_bandwidth_gbs").is_null() ? 0.0 : j.at("theoretical_bandwidth_gbs").get<double>();
  d.eccEnabled = j.at("ecc_enabled");
  d.driverVersion = j.at("driver_version");
  d.runtimeVersion = j.at("runtime_version");
  d.limits.deviceName = d.name;
  d.limits.warpSize = j.at("warp_size");
  d.limits.maxThreadsPerBlock = j.at("max_threads_per_block");
  d.limits.maxBlockDim = dimFrom(j.at("max_block_dim"));
  d.limits.maxGridDim = dimFrom(j.at("max_grid_dim"));
  d.limits.sharedMemPerBlock = j.at("shared_mem_per_block");
  d.limits.sharedMemPerBlockOptin = j.at("shared_mem_per_block_optin");
  return s;
}

json statsJson(const PhaseStats& s) { return {s.medianMs, s.minMs, s.maxMs, s.samples}; }
PhaseStats statsFrom(const json& j) { return {j.at(0), j.at(1), j.at(2), j.at(3)}; }

}  // namespace

std::string encodeRequest(const RunRequest& r) {
  json j;
  j["workload"] = r.workload;
  if (r.n) j["n"] = *r.n;
  if (r.dtype) j["dtype"] = std::string(dtypeName(*r.dtype));
  if (r.launch.block) j["block"] = dim(*r.launch.block);
  if (r.launch.grid) j["grid"] = dim(*r.launch.grid);
  j["impls"] = r.impls;
  j["warmup"] = r.warmup;
  j["reps"] = r.reps;
  j["seed"] = r.seed;
  j["params"] = r.params;
  j["inputs"] = r.inputFiles;
  j["keep_inputs"] = r.keepInputs;
  j["keep_outputs"] = r.keepOutputs;
  return pack(j, {});
}

RunRequest decodeRequest(std::string_view bytes) {
  auto [j, blob] = unpack(bytes);
  RunRequest r;
  r.workload = j.at("workload");
  if (j.contains("n")) r.n = j["n"].get<std::uint64_t>();
  if (j.contains("dtype")) r.dtype = parseDType(j["dtype"].get<std::string>());
  if (j.contains("block")) r.launch.block = dimFrom(j["block"]);
  if (j.contains("grid")) r.launch.grid = dimFrom(j["grid"]);
  r.impls = j.at("impls").get<std::vector<std::string>>();
  r.warmup = j.at("warmup");
  r.reps = j.at("reps");
  r.seed = j.at("seed");
  r.params = j.at("params").get<std::map<std::string, std::string>>();
  r.inputFiles = j.at("inputs").get<std::map<std::string, std::string>>();
  r.keepInputs = j.at("keep_inputs");
  r.keepOutputs = j.at("keep_outputs");
  return r;
}

std::string encodeResult(const RunResult& r) {
  Blob blob;
  json j;
  j["status"] = int(r.status);
  j["reason"] = r.reason;
  j["workload"] = r.workload;
  j["dtype"] = r.dtype;
  j["n"] = r.n;
  j["seed"] = r.seed;
  j["warmup"] = r.warmup;
  j["reps"] = r.reps;
  j["params"] = r.params;
  j["timestamp"] = r.timestamp;
  j["device"] = deviceJson(r.device);
  j["host"] = r.host;
  j["inputs"] = json::array();
  for (const auto& a : r.inputs) j["inputs"].push_back(blob.describe(a));
  j["impls"] = json::array();
  for (const auto& i : r.impls) {
    json ij;
    ij["id"] = i.implId;
    ij["title"] = i.title;
    ij["gpu"] = i.gpu;
    ij["demo"] = i.demonstration;
    ij["status"] = int(i.status);
    ij["reason"] = i.reason;
    if (i.launch)
      ij["launch"] = {{"grid", dim(i.launch->grid)}, {"block", dim(i.launch->block)}, {"smem", i.launch->dynamicSmemBytes}};
    ij["launch_note"] = i.launchNote;
    ij["phases"] = json::object();
    for (const auto& [p, s] : i.phases) ij["phases"][std::to_string(int(p))] = statsJson(s);
    ij["bytes"] = i.bytesMoved;
    ij["flops"] = i.flops;
    ij["bw"] = i.bandwidthGBs;
    ij["gflops"] = i.gflops;
    ij["speedup_total"] = i.speedupTotal;
    ij["speedup_compute"] = i.speedupCompute;
    ij["metrics"] = i.metrics;
    const auto& v = i.verification;
    ij["verification"] = {{"outcome", int(v.outcome)}, {"abs", v.maxAbsError}, {"rel", v.maxRelError},
                          {"mismatches", v.mismatches}, {"compared", v.compared}, {"first", v.firstMismatches},
                          {"note", v.note}};
    ij["outputs"] = json::array();
    for (const auto& a : i.outputs) ij["outputs"].push_back(blob.describe(a));
    j["impls"].push_back(ij);
  }
  return pack(j, blob.data);
}

RunResult decodeResult(std::string_view bytes) {
  auto [j, blob] = unpack(bytes);
  RunResult r;
  r.status = Status(j.at("status").get<int>());
  r.reason = j.at("reason");
  r.workload = j.at("workload");
  r.dtype = j.at("dtype");
  r.n = j.at("n");
  r.seed = j.at("seed");
  r.warmup = j.at("warmup");
  r.reps = j.at("reps");
  r.params = j.at("params").get<std::map<std::string, std::string>>();
  r.timestamp = j.at("timestamp");
  r.device = deviceFrom(j.at("device"));
  r.host = j.at("host");
  for (const auto& a : j.at("inputs")) r.inputs.push_back(arrayFrom(a, blob));
  for (const auto& ij : j.at("impls")) {
    ImplResult i;
    i.implId = ij.at("id");
    i.title = ij.at("title");
    i.gpu = ij.at("gpu");
    i.demonstration = ij.at("demo");
    i.status = Status(ij.at("status").get<int>());
    i.reason = ij.at("reason");
    if (ij.contains("launch")) {
      LaunchConfig c;
      c.grid = dimFrom(ij["launch"].at("grid"));
      c.block = dimFrom(ij["launch"].at("block"));
      c.dynamicSmemBytes = ij["launch"].at("smem");
      i.launch = c;
    }
    i.launchNote = ij.at("launch_note");
    for (const auto& [k, s] : ij.at("phases").items()) i.phases[Phase(std::stoi(k))] = statsFrom(s);
    i.bytesMoved = ij.at("bytes");
    i.flops = ij.at("flops");
    i.bandwidthGBs = ij.at("bw");
    i.gflops = ij.at("gflops");
    i.speedupTotal = ij.at("speedup_total");
    i.speedupCompute = ij.at("speedup_compute");
    for (const auto& [k, v] : ij.at("metrics").items()) i.metrics[k] = v.is_null() ? NAN : v.get<double>();
    const auto& v = ij.at("verification");
    i.verification.outcome = Verification::Outcome(v.at("outcome").get<int>());
    i.verification.maxAbsError = v.at("abs").is_null() ? INFINITY : v.at("abs").get<double>();
    i.verification.maxRelError = v.at("rel").is_null() ? INFINITY : v.at("rel").get<double>();
    i.verification.mismatches = v.at("mismatches");
    i.verification.compared = v.at("compared");
    i.verification.firstMismatches = v.at("first").get<std::vector<std::uint64_t>>();
    i.verification.note = v.at("note");
    for (const auto& a : ij.at("outputs")) i.outputs.push_back(arrayFrom(a, blob));
    r.impls.push_back(std::move(i));
  }
  return r;
}

std::string encodeDevice(const DeviceStatus& s) { return pack(deviceJson(s), {}); }
DeviceStatus decodeDevice(std::string_view bytes) { return deviceFrom(unpack(bytes).first); }

std::string encodeProgress(const Progress& p) {
  return pack({{"impl", p.implId}, {"i", p.implIndex}, {"n", p.implCount}, {"rep", p.rep}, {"reps", p.reps}}, {});
}
Progress decodeProgress(std::string_view bytes) {
  auto j = unpack(bytes).first;
  Progress p;
  p.implId = j.at("impl");
  p.implIndex = j.at("i");
  p.implCount = j.at("n");
  p.rep = j.at("rep");
  p.reps = j.at("reps");
  return p;
}

}  // namespace launchlab::wire
