// The one mapping RunResult (and everything inside it) <-> JSON; its rules are listed in io/json_value.h.
#include "launchlab/files/json_value.h"

#include <climits>
#include <cmath>
#include <cstdint>
#include <limits>
#include <nlohmann/json.hpp>

#include "json_value_parts.h"
#include "launchlab/engine/errors.h"
#include "launchlab/files/json.h"
#include "launchlab/files/json_within.h"
#include "launchlab/files/parse.h"

namespace launchlab {

using nlohmann::ordered_json;
using namespace json_parts;

namespace {

constexpr std::string_view kRunSchema = "launchlab.run";

/// Looks a name up among an enum's values: the name functions (result.h) are the one table, and answer "?" past
/// the last value.
template <class E>
E enumNamed(std::string_view s, std::string_view (*name)(E), const char* what) {
  for (int i = 0; name(E(i)) != "?"; ++i)
    if (name(E(i)) == s) return E(i);
  throw BadInput(std::string("unknown ") + what + " '" + std::string(s) + "'");
}
template <class E>
E enumFrom(const ordered_json& j, std::string_view (*name)(E), const char* what) {
  return enumNamed(j.get_ref<const std::string&>(), name, what);
}

std::string textOr(const ordered_json& j, const char* key) { return j.value(key, std::string()); }

int intFrom(std::string_view text, const std::string& whole) {
  const auto v = parseInteger(text);
  if (!v || *v < INT_MIN || *v > INT_MAX) throw BadInput("compute capability '" + whole + "' is not MAJOR.MINOR");
  return static_cast<int>(*v);
}

std::string capability(const DeviceInfo& d) { return std::to_string(d.ccMajor) + "." + std::to_string(d.ccMinor); }
void capabilityFrom(const std::string& cc, DeviceInfo& d) {
  const auto dot = cc.find('.');
  if (dot == std::string::npos) throw BadInput("compute capability '" + cc + "' is not MAJOR.MINOR");
  d.ccMajor = intFrom(std::string_view(cc).substr(0, dot), cc);
  d.ccMinor = intFrom(std::string_view(cc).substr(dot + 1), cc);
}

void deviceInfoTo(ordered_json& j, const DeviceInfo& d) {
  j["index"] = d.index;
  j["name"] = d.name;
  j["compute_capability"] = capability(d);
  j["multiprocessors"] = d.multiprocessors;
  j["warp_size"] = d.limits.warpSize;
  j["max_threads_per_block"] = d.limits.maxThreadsPerBlock;
  j["max_threads_per_multiprocessor"] = d.maxThreadsPerMultiprocessor;
  j["max_blocks_per_multiprocessor"] = d.maxBlocksPerMultiprocessor;
  j["max_block_dim"] = d.limits.maxBlockDim;
  j["max_grid_dim"] = d.limits.maxGridDim;
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
  j["theoretical_bandwidth_gbs"] = jsonNumber(d.theoreticalBandwidthGBs);
  j["ecc_enabled"] = d.eccEnabled;
  j["driver_version"] = d.driverVersion;
  j["runtime_version"] = d.runtimeVersion;
  if (!d.pciBusId.empty()) j["pci_bus_id"] = d.pciBusId;
}

void limitsFrom(const ordered_json& j, DeviceInfo& d) {
  d.limits.deviceName = d.name;
  wholeNumberAt(j, "warp_size", d.limits.warpSize);
  wholeNumberAt(j, "max_threads_per_block", d.limits.maxThreadsPerBlock);
  j.at("max_block_dim").get_to(d.limits.maxBlockDim);
  j.at("max_grid_dim").get_to(d.limits.maxGridDim);
  wholeNumberAt(j, "shared_mem_per_block", d.limits.sharedMemPerBlock);
  wholeNumberAt(j, "shared_mem_per_block_optin", d.limits.sharedMemPerBlockOptin);
}

void deviceInfoFrom(const ordered_json& j, DeviceInfo& d) {
  wholeNumberAt(j, "index", d.index);
  j.at("name").get_to(d.name);
  capabilityFrom(j.at("compute_capability").get<std::string>(), d);
  wholeNumberAt(j, "multiprocessors", d.multiprocessors);
  wholeNumberAt(j, "max_threads_per_multiprocessor", d.maxThreadsPerMultiprocessor);
  wholeNumberAt(j, "max_blocks_per_multiprocessor", d.maxBlocksPerMultiprocessor);
  wholeNumberAt(j, "shared_mem_per_multiprocessor", d.sharedMemPerMultiprocessor);
  wholeNumberAt(j, "registers_per_block", d.registersPerBlock);
  wholeNumberAt(j, "registers_per_multiprocessor", d.registersPerMultiprocessor);
  wholeNumberAt(j, "global_memory_bytes", d.totalGlobalMem);
  wholeNumberAt(j, "l2_cache_bytes", d.l2CacheBytes);
  wholeNumberAt(j, "memory_bus_width_bits", d.memoryBusWidthBits);
  wholeNumberAt(j, "memory_clock_khz", d.memoryClockKHz);
  wholeNumberAt(j, "sm_clock_khz", d.clockKHz);
  d.theoreticalBandwidthGBs = numberFrom(j.at("theoretical_bandwidth_gbs"));
  j.at("ecc_enabled").get_to(d.eccEnabled);
  wholeNumberAt(j, "driver_version", d.driverVersion);
  wholeNumberAt(j, "runtime_version", d.runtimeVersion);
  d.pciBusId = j.value("pci_bus_id", std::string());  // absent in files of older versions
  limitsFrom(j, d);
}

ordered_json phasesJson(const std::map<Phase, PhaseStats>& phases) {
  ordered_json j = ordered_json::object();
  for (const auto& [p, s] : phases) j[std::string(phaseName(p))] = s;
  return j;
}
std::map<Phase, PhaseStats> phasesFrom(const ordered_json& j) {
  std::map<Phase, PhaseStats> phases;
  for (const auto& [name, s] : j.items()) phases[enumNamed(name, phaseName, "phase")] = s.get<PhaseStats>();
  return phases;
}

void launchTo(ordered_json& j, const ImplResult& r) {
  if (!r.launch) return;
  j["launch"] = *r.launch;
  j["launch"]["note"] = r.launchNote;
}
void launchFrom(const ordered_json& j, ImplResult& r) {
  const auto it = j.find("launch");
  if (it == j.end()) return;
  r.launch = it->get<LaunchConfig>();
  it->at("note").get_to(r.launchNote);
}

void figuresTo(ordered_json& j, const ImplResult& r) {
  j["bytes_moved"] = jsonNumber(r.bytesMoved);
  j["bandwidth_gbs"] = jsonNumber(r.bandwidthGBs);
  if (r.flops > 0) {
    j["flops"] = jsonNumber(r.flops);
    j["gflops"] = jsonNumber(r.gflops);
  }
  j["speedup_total_vs_cpu_serial"] = jsonNumber(r.speedupTotal);
  j["speedup_compute_vs_cpu_serial"] = jsonNumber(r.speedupCompute);
}
void figuresFrom(const ordered_json& j, ImplResult& r) {
  r.bytesMoved = numberFrom(j.at("bytes_moved"));
  r.bandwidthGBs = numberFrom(j.at("bandwidth_gbs"));
  if (j.contains("flops")) {
    r.flops = numberFrom(j.at("flops"));
    r.gflops = numberFrom(j.at("gflops"));
  }
  r.speedupTotal = numberFrom(j.at("speedup_total_vs_cpu_serial"));
  r.speedupCompute = numberFrom(j.at("speedup_compute_vs_cpu_serial"));
}

/// An implementation that did not complete measured nothing: its figures and errors are null, not 0, and read
/// back as the defaults (0).
void unmeasuredToNull(ordered_json& j) {
  for (const char* k : {"bandwidth_gbs", "speedup_total_vs_cpu_serial", "speedup_compute_vs_cpu_serial"})
    j[k] = nullptr;
  if (j.contains("gflops")) j["gflops"] = nullptr;
  j["verification"]["max_abs_error"] = j["verification"]["max_rel_error"] = nullptr;
}
void unmeasuredFromNull(ImplResult& r) {
  r.bandwidthGBs = r.speedupTotal = r.speedupCompute = 0;
  if (r.flops > 0) r.gflops = 0;
  r.verification.maxAbsError = r.verification.maxRelError = 0;
}

/// `v` as an Int, or BadInput naming `what` when it is not a JSON integer within Int's range.
template <class Int>
Int wholeNumber(const ordered_json& v, std::string_view what) {
  using Limits = std::numeric_limits<Int>;
  if (v.is_number_unsigned() && v.get<std::uint64_t>() <= std::uint64_t(Limits::max()))
    return Int(v.get<std::uint64_t>());
  if (v.is_number_integer() && !v.is_number_unsigned()) {
    const std::int64_t x = v.get<std::int64_t>();
    if (x >= 0 ? std::uint64_t(x) <= std::uint64_t(Limits::max())
               : Limits::is_signed && x >= std::int64_t(Limits::min()))
      return Int(x);
  }
  throw BadInput("'" + std::string(what) + "' must be a whole number from " + std::to_string(Limits::min()) + " to " +
                 std::to_string(Limits::max()) + " (got " + (v.is_number() ? dumpJson(v) : std::string(v.type_name())) +
                 ")");
}
}  // namespace

template <class Int>
void wholeNumberAt(const ordered_json& j, const char* key, Int& out) {
  out = wholeNumber<Int>(j.at(key), key);
}
template <class Int>
void wholeNumberAt(const ordered_json& j, const char* key, std::vector<Int>& out) {
  const ordered_json& list = j.at(key);
  if (!list.is_array()) throw BadInput(std::string("'") + key + "' must be a list of whole numbers");
  out.clear();
  for (const auto& v : list) out.push_back(wholeNumber<Int>(v, key));
}
template void wholeNumberAt(const ordered_json&, const char*, int&);
template void wholeNumberAt(const ordered_json&, const char*, std::uint32_t&);
template void wholeNumberAt(const ordered_json&, const char*, std::uint64_t&);
template void wholeNumberAt(const ordered_json&, const char*, std::vector<std::uint64_t>&);
template void wholeNumberAt(const ordered_json&, const char*, std::vector<std::uint32_t>&);

void to_json(ordered_json& j, const Dim3& d) { j = ordered_json::array({d.x, d.y, d.z}); }
void from_json(const ordered_json& j, Dim3& d) {
  if (!j.is_array() || j.size() != 3) throw BadInput("a launch dimension is not [x, y, z]");
  d.x = wholeNumber<std::uint32_t>(j[0], "launch dimension");
  d.y = wholeNumber<std::uint32_t>(j[1], "launch dimension");
  d.z = wholeNumber<std::uint32_t>(j[2], "launch dimension");
}

void to_json(ordered_json& j, const LaunchConfig& c) {
  j = {{"grid", c.grid},
       {"block", c.block},
       {"dynamic_smem_bytes", c.dynamicSmemBytes},
       {"total_threads", c.totalThreads()}};
}
void from_json(const ordered_json& j, LaunchConfig& c) {
  j.at("grid").get_to(c.grid);
  j.at("block").get_to(c.block);
  wholeNumberAt(j, "dynamic_smem_bytes", c.dynamicSmemBytes);
}

void to_json(ordered_json& j, const DeviceStatus& s) {
  j = {{"available", s.available}};
  if (s.available)
    deviceInfoTo(j, s.info);
  else
    j["reason"] = s.reason;
  if (s.devices.empty()) return;
  auto& list = j["devices"] = ordered_json::array();
  for (const auto& d : s.devices) deviceInfoTo(list.emplace_back(ordered_json::object()), d);
}
void from_json(const ordered_json& j, DeviceStatus& s) {
  j.at("available").get_to(s.available);
  if (s.available)
    deviceInfoFrom(j, s.info);
  else
    s.reason = textOr(j, "reason");
  s.devices.clear();
  if (!j.contains("devices")) return;
  for (const auto& d : j.at("devices")) deviceInfoFrom(d, s.devices.emplace_back());
}

void to_json(ordered_json& j, const PhaseStats& s) {
  j = {{"median_ms", jsonNumber(s.medianMs)},
       {"min_ms", jsonNumber(s.minMs)},
       {"max_ms", jsonNumber(s.maxMs)},
       {"samples", s.samples}};
}
void from_json(const ordered_json& j, PhaseStats& s) {
  s.medianMs = numberFrom(j.at("median_ms"));
  s.minMs = numberFrom(j.at("min_ms"));
  s.maxMs = numberFrom(j.at("max_ms"));
  wholeNumberAt(j, "samples", s.samples);
}

void to_json(ordered_json& j, const Verification& v) {
  j = {{"outcome", outcomeName(v.outcome)},
       {"max_abs_error", jsonNumber(v.maxAbsError)},
       {"max_rel_error", jsonNumber(v.maxRelError)},
       {"mismatches", v.mismatches},
       {"compared", v.compared},
       {"first_mismatches", v.firstMismatches},
       {"note", v.note}};
}
void from_json(const ordered_json& j, Verification& v) {
  v.outcome = enumFrom(j.at("outcome"), outcomeName, "verification outcome");
  v.maxAbsError = numberFrom(j.at("max_abs_error"), INFINITY);
  v.maxRelError = numberFrom(j.at("max_rel_error"), INFINITY);
  wholeNumberAt(j, "mismatches", v.mismatches);
  wholeNumberAt(j, "compared", v.compared);
  if (const auto m = j.find("first_mismatches"); m != j.end() && m->is_array() && m->size() > kMaxFirstMismatches)
    throw BadInput("'first_mismatches': " + std::to_string(m->size()) + " indices, more than the " +
                   std::to_string(kMaxFirstMismatches) + " a verification records");
  wholeNumberAt(j, "first_mismatches", v.firstMismatches);
  j.at("note").get_to(v.note);
}

void to_json(ordered_json& j, const ImplResult& r) {
  j = {{"id", r.implId},
       {"title", r.title},
       {"gpu", r.gpu},
       {"demonstration", r.demonstration},
       {"status", statusName(r.status)}};
  if (!r.reason.empty()) j["reason"] = r.reason;
  if (r.cudaFault) j["cuda_fault"] = true;
  launchTo(j, r);
  j["phases"] = phasesJson(r.phases);
  figuresTo(j, r);
  if (!r.metrics.empty()) j["metrics"] = numbersJson(r.metrics);
  if (!r.scalars.empty()) j["scalars"] = numbersJson(r.scalars);
  j["verification"] = r.verification;
  kernelOccupancyTo(j, r);
  blockTraceTo(j, r);
  deviceOutputsTo(j, r);
  countersTo(j, r);
  if (r.status != Status::Ok) unmeasuredToNull(j);
}
void from_json(const ordered_json& j, ImplResult& r) {
  j.at("id").get_to(r.implId);
  j.at("title").get_to(r.title);
  j.at("gpu").get_to(r.gpu);
  j.at("demonstration").get_to(r.demonstration);
  r.status = enumFrom(j.at("status"), statusName, "status");
  r.reason = textOr(j, "reason");
  if (j.contains("cuda_fault")) j.at("cuda_fault").get_to(r.cudaFault);
  launchFrom(j, r);
  r.phases = phasesFrom(j.at("phases"));
  figuresFrom(j, r);
  if (j.contains("metrics")) r.metrics = numbersFrom(j.at("metrics"));
  if (j.contains("scalars")) r.scalars = numbersFrom(j.at("scalars"));
  j.at("verification").get_to(r.verification);
  kernelOccupancyFrom(j, r);
  blockTraceFrom(j, r);
  deviceOutputsFrom(j, r);
  countersFrom(j, r);
  if (r.status != Status::Ok) unmeasuredFromNull(r);
}

namespace {
/// The launch a run asked for, when it was not the automatic one or traced blocks (files without it: auto).
void requestedLaunchTo(ordered_json& j, const RunResult& r) {
  const LaunchRequest& l = r.requestedLaunch;
  if (l.autoBlock() && l.autoGrid() && !r.traceBlocks) return;
  auto text = [](const std::optional<Dim3>& d) { return d ? formatDim3(*d) : std::string("auto"); };
  j["requested_launch"] = {{"block", text(l.block)}, {"grid", text(l.grid)}, {"trace_blocks", r.traceBlocks}};
}
void requestedLaunchFrom(const ordered_json& j, RunResult& r) {
  const auto it = j.find("requested_launch");
  if (it == j.end()) return;
  auto dim = [&](const char* key, LaunchPart part) -> std::optional<Dim3> {
    const std::string text = it->at(key).get<std::string>();
    if (text == "auto") return std::nullopt;
    std::string err;
    const auto d = parseLaunchDim3(text, part, &err);
    if (!d) throw BadInput(std::string("'requested_launch': ") + key + ": " + err);
    return d;
  };
  r.requestedLaunch.block = dim("block", LaunchPart::Block);
  r.requestedLaunch.grid = dim("grid", LaunchPart::Grid);
  it->at("trace_blocks").get_to(r.traceBlocks);
}
}  // namespace

namespace {
ordered_json sampleJson(const GpuSample& s) {
  ordered_json j = {{"ok", s.ok}};
  if (!s.ok) j["problem"] = s.problem;
  ordered_json procs = ordered_json::array();
  for (const auto& p : s.processes)
    procs.push_back({{"pid", p.pid}, {"name", p.name}, {"used_memory_bytes", p.usedMemoryBytes}});
  j["processes"] = procs;
  j["gpu_util_percent"] = s.gpuUtilPercent;
  j["mem_util_percent"] = s.memUtilPercent;
  j["sm_clock_mhz"] = s.smClockMHz;
  j["mem_clock_mhz"] = s.memClockMHz;
  return j;
}
GpuSample sampleFrom(const ordered_json& j) {
  GpuSample s;
  j.at("ok").get_to(s.ok);
  s.problem = j.value("problem", std::string());
  for (const auto& p : j.at("processes")) {
    GpuProcess g;
    wholeNumberAt(p, "pid", g.pid);
    p.at("name").get_to(g.name);
    wholeNumberAt(p, "used_memory_bytes", g.usedMemoryBytes);
    s.processes.push_back(g);
  }
  j.at("gpu_util_percent").get_to(s.gpuUtilPercent);
  j.at("mem_util_percent").get_to(s.memUtilPercent);
  j.at("sm_clock_mhz").get_to(s.smClockMHz);
  j.at("mem_clock_mhz").get_to(s.memClockMHz);
  return s;
}
}  // namespace

void to_json(ordered_json& j, const RunResult& r) {
  j = jsonDocument(kRunSchema);
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
  requestedLaunchTo(j, r);
  j["host"] = r.host;
  if (r.slurm.inJob())
    j["slurm"] = {
        {"job_id", r.slurm.jobId}, {"step_id", r.slurm.stepId}, {"node", r.slurm.node}, {"gpus", r.slurm.gpus}};
  j["device"] = r.device;
  if (r.sharing.checked)
    j["gpu_sharing"] = {{"shared", r.sharing.shared},
                        {"note", r.sharing.note},
                        {"before", sampleJson(r.sharing.before)},
                        {"after", sampleJson(r.sharing.after)}};
  j["implementations"] = r.impls;
  j["all_passed"] = r.allPassed();
}
void from_json(const ordered_json& j, RunResult& r) {
  if (j.at("schema").get<std::string>() != kRunSchema) throw BadInput("not a " + std::string(kRunSchema) + " document");
  j.at("timestamp").get_to(r.timestamp);
  r.status = enumFrom(j.at("status"), statusName, "status");
  r.reason = textOr(j, "reason");
  j.at("workload").get_to(r.workload);
  wholeNumberAt(j, "n", r.n);
  j.at("dtype").get_to(r.dtype);
  wholeNumberAt(j, "seed", r.seed);
  wholeNumberAt(j, "warmup", r.warmup);
  wholeNumberAt(j, "reps", r.reps);
  j.at("params").get_to(r.params);
  requestedLaunchFrom(j, r);
  j.at("host").get_to(r.host);
  if (const auto it = j.find("slurm"); it != j.end()) {  // absent outside a job, and in files of older versions
    it->at("job_id").get_to(r.slurm.jobId);
    it->at("step_id").get_to(r.slurm.stepId);
    it->at("node").get_to(r.slurm.node);
    it->at("gpus").get_to(r.slurm.gpus);
  }
  j.at("device").get_to(r.device);
  if (const auto it = j.find("gpu_sharing"); it != j.end()) {  // runs that used the GPU, from this version on
    r.sharing.checked = true;
    it->at("shared").get_to(r.sharing.shared);
    it->at("note").get_to(r.sharing.note);
    r.sharing.before = sampleFrom(it->at("before"));
    r.sharing.after = sampleFrom(it->at("after"));
  }
  j.at("implementations").get_to(r.impls);
}

ordered_json jsonNumber(double v) { return std::isfinite(v) ? ordered_json(v) : ordered_json(nullptr); }

ordered_json jsonDocument(std::string_view schema) {
  return {{"schema", schema}, {"schema_version", json::kSchemaVersion}};
}

std::string dumpJson(const ordered_json& j, int indent) {
  return j.dump(indent, ' ', false, ordered_json::error_handler_t::replace);
}

namespace {
/// Counts a document's values without building it, and stops at the first one past the cap (or a syntax error).
class ValueCounter final : public nlohmann::json_sax<ordered_json> {
 public:
  explicit ValueCounter(std::size_t cap) : m_cap(cap) {}
  bool null() override { return count(); }
  bool boolean(bool) override { return count(); }
  bool number_integer(number_integer_t) override { return count(); }
  bool number_unsigned(number_unsigned_t) override { return count(); }
  bool number_float(number_float_t, const string_t&) override { return count(); }
  bool string(string_t&) override { return count(); }
  bool binary(binary_t&) override { return count(); }
  bool start_object(std::size_t) override { return count(); }
  bool key(string_t&) override { return true; }
  bool end_object() override { return true; }
  bool start_array(std::size_t) override { return count(); }
  bool end_array() override { return true; }
  bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception&) override { return false; }
  bool over() const { return m_count > m_cap; }

 private:
  bool count() { return ++m_count <= m_cap; }
  std::size_t m_cap, m_count = 0;
};
}  // namespace

ordered_json parseJsonWithin(std::string_view text, std::size_t maxValues) {
  ValueCounter counter(maxValues);
  if (!ordered_json::sax_parse(text, &counter) && counter.over())
    throw BadInput("more than " + std::to_string(maxValues) + " JSON values");
  return ordered_json::parse(text);  // a syntax error is thrown from here, as parse says it
}

}  // namespace launchlab
