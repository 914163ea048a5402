// The worker's messages. A result travels in its public JSON form (io/json_value.h) with its arrays added:
// "inputs" on the run and "outputs" on each implementation describe them, and their bytes follow the JSON.
#include "launchlab/worker/wire.h"

#include <climits>
#include <cstring>
#include <limits>
#include <nlohmann/json.hpp>

#include "launchlab/engine/errors.h"
#include "launchlab/files/json_value.h"
#include "launchlab/worker/result_check.h"

namespace launchlab::wire {

using nlohmann::ordered_json;

namespace {

// Arrays travel as {name, dtype, shape, offset, bytes} in the JSON and raw bytes after it.
struct Blob {
  std::string data;
  ordered_json describe(const std::vector<HostArray>& arrays) {
    ordered_json list = ordered_json::array();
    for (const auto& a : arrays) {
      list.push_back({{"name", a.name()},
                      {"dtype", dtypeName(a.dtype())},
                      {"shape", a.shape()},
                      {"offset", data.size()},
                      {"bytes", a.bytes()}});
      if (a.bytes()) data.append(static_cast<const char*>(a.data()), a.bytes());
    }
    return list;
  }
};

/// The bytes `shape` of `t` needs, or nullopt when that does not fit in a size_t.
std::optional<std::size_t> bytesFor(const std::vector<std::size_t>& shape, DType t) {
  constexpr auto kMax = std::numeric_limits<std::size_t>::max();
  std::size_t n = dtypeSize(t);
  for (auto d : shape) {
    if (d && n > kMax / d) return std::nullopt;
    n *= d;
  }
  return n;
}

// Checked before anything is allocated: the array lies inside the message and its shape matches its size.
HostArray arrayFrom(const ordered_json& j, std::string_view blob) {
  const auto name = j.at("name").get<std::string>();
  const auto t = parseDType(j.at("dtype").get<std::string>());
  if (!t) throw BadInput("array '" + name + "' has an unknown dtype");
  std::vector<std::size_t> shape;
  std::size_t off = 0, bytes = 0;
  wholeNumberAt(j, "shape", shape);
  wholeNumberAt(j, "offset", off);
  wholeNumberAt(j, "bytes", bytes);
  if (off > blob.size() || bytes > blob.size() - off) throw BadInput("array '" + name + "' lies outside the message");
  if (bytesFor(shape, *t) != bytes) throw BadInput("array '" + name + "': its shape does not match its size");
  HostArray a(name, *t, shape);
  if (bytes) std::memcpy(a.data(), blob.data() + off, bytes);
  return a;
}
std::vector<HostArray> arraysFrom(const ordered_json& list, std::string_view blob) {
  std::vector<HostArray> arrays;
  for (const auto& a : list) arrays.push_back(arrayFrom(a, blob));
  return arrays;
}

// Frame a JSON document and a blob: [8-byte JSON length][JSON][blob].
std::string pack(const ordered_json& j, const std::string& blob) {
  const std::string text = dumpJson(j);
  std::string out(8, '\0');
  std::uint64_t n = text.size();
  std::memcpy(out.data(), &n, 8);
  out += text;
  out += blob;
  return out;
}
std::pair<ordered_json, std::string_view> unpack(std::string_view bytes) {
  if (bytes.size() < 8) throw BadInput("short message");
  std::uint64_t n = 0;
  std::memcpy(&n, bytes.data(), 8);
  if (n > bytes.size() - 8) throw BadInput("truncated message");
  return {ordered_json::parse(bytes.substr(8, n)), bytes.substr(8 + n)};
}

}  // namespace

std::string encodeRequest(const RunRequest& r) {
  ordered_json j;
  j["workload"] = r.workload;
  if (r.n) j["n"] = *r.n;
  if (r.dtype) j["dtype"] = dtypeName(*r.dtype);
  if (r.launch.block) j["block"] = *r.launch.block;
  if (r.launch.grid) j["grid"] = *r.launch.grid;
  j["impls"] = r.impls;
  j["warmup"] = r.warmup;
  j["reps"] = r.reps;
  j["seed"] = r.seed;
  j["params"] = r.params;
  j["inputs"] = r.inputFiles;
  j["keep_inputs"] = r.keepInputs;
  j["keep_outputs"] = r.keepOutputs;
  if (r.traceBlocks) j["trace_blocks"] = true;
  if (r.compareOnDevice) j["compare_on_device"] = true;
  if (r.exportDeviceOutputs) j["export_device_outputs"] = true;
  if (!r.verify) j["verify"] = false;
  if (r.device) j["device"] = *r.device;
  if (!r.counters.empty()) j["counters"] = r.counters;
  if (r.userKernel)
    j["user_kernel"] = {{"exercise", r.userKernel->exercise},
                        {"file", r.userKernel->fileName},
                        {"source", r.userKernel->source},
                        {"kernel_name", r.userKernel->kernelName},
                        {"time_limit_s", r.userKernel->timeLimitS}};
  return pack(j, {});
}

RunRequest decodeRequest(std::string_view bytes) {
  return rethrowAsBadInput("wire: request", [&] {
    const ordered_json j = unpack(bytes).first;
    RunRequest r;
    j.at("workload").get_to(r.workload);
    if (j.contains("n")) wholeNumberAt(j, "n", r.n.emplace());
    if (j.contains("dtype")) {
      r.dtype = parseDType(j["dtype"].get<std::string>());
      if (!r.dtype) throw BadInput("unknown dtype");
    }
    if (j.contains("block")) r.launch.block = j["block"].get<Dim3>();
    if (j.contains("grid")) r.launch.grid = j["grid"].get<Dim3>();
    j.at("impls").get_to(r.impls);
    wholeNumberAt(j, "warmup", r.warmup);
    wholeNumberAt(j, "reps", r.reps);
    wholeNumberAt(j, "seed", r.seed);
    j.at("params").get_to(r.params);
    j.at("inputs").get_to(r.inputFiles);
    j.at("keep_inputs").get_to(r.keepInputs);
    j.at("keep_outputs").get_to(r.keepOutputs);
    if (j.contains("trace_blocks")) j["trace_blocks"].get_to(r.traceBlocks);
    if (j.contains("compare_on_device")) j["compare_on_device"].get_to(r.compareOnDevice);
    if (j.contains("export_device_outputs")) j["export_device_outputs"].get_to(r.exportDeviceOutputs);
    if (j.contains("verify")) j["verify"].get_to(r.verify);
    if (j.contains("counters")) j["counters"].get_to(r.counters);
    if (j.contains("device")) {
      if (!j["device"].is_number_integer() || j["device"].get<long long>() < 0 ||
          j["device"].get<long long>() > INT_MAX)
        throw BadInput("device: not a device index");
      r.device = j["device"].get<int>();
    }
    if (j.contains("user_kernel")) {
      const auto& k = j["user_kernel"];
      UserKernel& u = r.userKernel.emplace();
      k.at("exercise").get_to(u.exercise);
      k.at("file").get_to(u.fileName);
      k.at("source").get_to(u.source);
      k.at("kernel_name").get_to(u.kernelName);
      k.at("time_limit_s").get_to(u.timeLimitS);
    }
    return r;
  });
}

std::string encodeResult(const RunResult& r) {
  Blob blob;
  ordered_json j = r;
  j["inputs"] = blob.describe(r.inputs);
  auto& impls = j.at("implementations");
  for (std::size_t k = 0; k < r.impls.size(); ++k) impls[k]["outputs"] = blob.describe(r.impls[k].outputs);
  return pack(j, blob.data);
}

RunResult decodeResult(std::string_view bytes) {
  return rethrowAsBadInput("wire: result", [&] {
    const auto [j, blob] = unpack(bytes);
    RunResult r = j.get<RunResult>();
    r.inputs = arraysFrom(j.at("inputs"), blob);
    const auto& impls = j.at("implementations");
    for (std::size_t k = 0; k < r.impls.size(); ++k) r.impls[k].outputs = arraysFrom(impls.at(k).at("outputs"), blob);
    // Its names become export paths and the views index its arrays with each other's indices.
    if (const std::string why = checkResultArrays(r); !why.empty()) throw BadInput(why);
    return r;
  });
}

std::string encodeDevice(const DeviceStatus& s) { return pack(s, {}); }
DeviceStatus decodeDevice(std::string_view bytes) {
  return rethrowAsBadInput("wire: device", [&] { return unpack(bytes).first.get<DeviceStatus>(); });
}

std::string encodeProgress(const Progress& p) {
  return pack({{"impl", p.implId}, {"i", p.implIndex}, {"n", p.implCount}, {"rep", p.rep}, {"reps", p.reps}}, {});
}
Progress decodeProgress(std::string_view bytes) {
  return rethrowAsBadInput("wire: progress", [&] {
    const ordered_json j = unpack(bytes).first;
    Progress p;
    j.at("impl").get_to(p.implId);
    wholeNumberAt(j, "i", p.implIndex);
    wholeNumberAt(j, "n", p.implCount);
    wholeNumberAt(j, "rep", p.rep);
    wholeNumberAt(j, "reps", p.reps);
    return p;
  });
}

std::string encodeCeilings(const Ceilings& c) { return pack(ordered_json::parse(ceilingsJson(c)), {}); }
Ceilings decodeCeilings(std::string_view bytes) {
  return rethrowAsBadInput("wire: ceilings", [&] {
    std::string why;
    auto c = parseCeilingsJson(dumpJson(unpack(bytes).first), &why);
    if (!c) throw BadInput(why);
    return *c;
  });
}

}  // namespace launchlab::wire
