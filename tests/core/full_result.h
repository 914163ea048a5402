#pragma once
// A RunResult with every member of every nested struct set to a distinct, non-default value, for the round-trip
// tests of the JSON form (test_result_json.cpp) and of the worker's wire (test_wire.cpp).
//
// Each fill() names every member of its struct through a structured binding. When a member is added to one of
// these structs, its fill() stops compiling ("N names provided ... decomposes into N+1 elements"): set the new
// member there, and the round-trip tests (which compare with the defaulted operator==) then fail until
// core/src/json_value.cpp maps it.
#include <cstdint>
#include <string>
#include <vector>

#include "launchlab/engine/result.h"

namespace launchlab::sample {

/// Hands out values no other field has, so that two fields swapped by the mapping cannot compare equal.
class Distinct {
 public:
  int integer() { return ++m_k; }
  std::uint64_t big() { return (std::uint64_t(1) << 63) + std::uint64_t(++m_k); }  ///< beyond int64
  double real() { return ++m_k + 0.25; }                                           ///< exact in binary and in JSON text
  std::string text(const std::string& stem) { return stem + " — ünïcødé 日本語 🚀 #" + std::to_string(++m_k); }

 private:
  int m_k = 0;
};

inline void fill(Dim3& d, Distinct& v) {
  auto& [x, y, z] = d;
  x = std::uint32_t(v.integer());
  y = std::uint32_t(v.integer());
  z = 4000000000u + std::uint32_t(v.integer());  // beyond int32
}

inline void fill(LaunchConfig& c, Distinct& v) {
  auto& [grid, block, dynamicSmemBytes] = c;
  fill(grid, v);
  fill(block, v);
  dynamicSmemBytes = std::size_t(v.integer());
}

inline void fill(DeviceLimits& l, Distinct& v, const std::string& deviceName) {
  auto& [name, maxThreadsPerBlock, maxBlockDim, maxGridDim, sharedMemPerBlock, sharedMemPerBlockOptin, warpSize] = l;
  name = deviceName;  // the form's rule: the limits name the device they belong to
  maxThreadsPerBlock = v.integer();
  fill(maxBlockDim, v);
  fill(maxGridDim, v);
  sharedMemPerBlock = std::size_t(v.integer());
  sharedMemPerBlockOptin = std::size_t(v.integer());
  warpSize = v.integer();
}

inline void fill(DeviceInfo& d, Distinct& v) {
  auto& [index, name, ccMajor, ccMinor, multiprocessors, maxThreadsPerMultiprocessor, maxBlocksPerMultiprocessor,
         registersPerBlock, registersPerMultiprocessor, sharedMemPerMultiprocessor, totalGlobalMem, l2CacheBytes,
         memoryBusWidthBits, memoryClockKHz, clockKHz, theoreticalBandwidthGBs, driverVersion, runtimeVersion,
         eccEnabled, limits, pciBusId] = d;
  index = v.integer();
  name = v.text("GPU");
  ccMajor = v.integer();
  ccMinor = v.integer() + 10;  // two digits: "M.10" must not read back as M.1
  multiprocessors = v.integer();
  maxThreadsPerMultiprocessor = v.integer();
  maxBlocksPerMultiprocessor = v.integer();
  registersPerBlock = v.integer();
  registersPerMultiprocessor = v.integer();
  sharedMemPerMultiprocessor = std::size_t(v.integer());
  totalGlobalMem = std::size_t(v.big());
  l2CacheBytes = std::size_t(v.integer());
  memoryBusWidthBits = v.integer();
  memoryClockKHz = v.integer();
  clockKHz = v.integer();
  theoreticalBandwidthGBs = v.real();
  driverVersion = v.integer();
  runtimeVersion = v.integer();
  eccEnabled = true;
  fill(limits, v, name);
  pciBusId = v.text("pci");
}

/// Available: the info is set and the reason empty. The form writes one or the other (device.h: the reason says
/// why CUDA is unavailable, the info is valid when it is available); unavailableDevice() covers the other state.
inline void fill(DeviceStatus& s, Distinct& v) {
  auto& [available, reason, info, devices] = s;
  available = true;
  reason = "";
  fill(info, v);
  devices.resize(2);
  for (auto& d : devices) fill(d, v);
}
inline DeviceStatus unavailableDevice(Distinct& v) {
  DeviceStatus s;
  s.reason = v.text("no CUDA device");
  return s;
}

inline void fill(PhaseStats& s, Distinct& v) {
  auto& [medianMs, minMs, maxMs, samples] = s;
  medianMs = v.real();
  minMs = v.real();
  maxMs = v.real();
  samples = v.integer();
}

inline void fill(Verification& r, Distinct& v, Verification::Outcome outcome) {
  auto& [o, maxAbsError, maxRelError, mismatches, compared, firstMismatches, note] = r;
  o = outcome;
  maxAbsError = v.real();
  maxRelError = v.real();
  mismatches = v.big();
  compared = v.big();
  firstMismatches = {v.big(), std::uint64_t(v.integer()), 0};
  note = v.text("tolerance");
}

inline HostArray array(Distinct& v, DType t, std::vector<std::size_t> shape) {
  HostArray a(v.text("array"), t, std::move(shape));
  for (std::size_t b = 0; b < a.bytes(); ++b)
    static_cast<unsigned char*>(a.data())[b] = static_cast<unsigned char>(v.integer());
  return a;
}

/// Every member set; `launch` present; `reason`, `metrics`, `scalars` and `flops` set (the form writes them only then).
inline ImplResult fullImpl(Distinct& v, Status status, Verification::Outcome outcome) {
  ImplResult r;
  auto& [implId, title, gpu, demonstration, st, reason, cudaFault, launch, launchNote, phases, bytesMoved, flops,
         bandwidthGBs, gflops, speedupTotal, speedupCompute, metrics, scalars, verification, outputs, deviceOutputs,
         kernelOccupancy, blockTrace, counters] = r;
  implId = v.text("impl");
  title = v.text("title");
  gpu = true;
  demonstration = true;
  st = status;
  reason = v.text("reason");
  cudaFault = true;
  launch.emplace();
  fill(*launch, v);
  launchNote = v.text("auto grid");
  for (int p = 0; phaseName(Phase(p)) != "?"; ++p) fill(phases[Phase(p)], v);  // every phase
  bytesMoved = v.real();
  flops = v.real();
  bandwidthGBs = v.real();
  gflops = v.real();
  speedupTotal = v.real();
  speedupCompute = v.real();
  metrics = {{v.text("metric"), v.real()}, {"lost_updates", v.real()}};
  scalars = {{v.text("scalar"), v.real()}, {"pi", v.real()}};
  fill(verification, v, outcome);
  outputs = {array(v, DType::F64, {2, 3}), array(v, DType::U8, {5})};
  deviceOutputs = {{.name = v.text("output"),
                    .dtype = DType::I16,
                    .shape = {3, std::size_t(v.integer())},
                    .bytes = v.big(),
                    .device = int(v.integer()),
                    .ipcHandle = std::string(126, 'a') + "0f",
                    .offset = v.big()}};
  kernelOccupancy = {{.symbol = v.text("_Z6kernelPf"),
                      .resources = {.registersPerThread = int(v.integer()),
                                    .staticSharedBytes = v.big(),
                                    .localBytesPerThread = v.big(),
                                    .maxThreadsPerBlock = int(v.integer())},
                      .threadsPerBlock = int(v.integer()),
                      .dynamicSharedBytes = v.big(),
                      .gridBlocks = v.big(),
                      .blocksPerSm = int(v.integer())}};
  blockTrace = {{std::uint32_t(v.integer()), std::uint32_t(v.integer()), 0, v.big()},
                {4000000000u + std::uint32_t(v.integer()), std::uint32_t(v.integer()), v.big(), v.big()}};
  auto& [requested, values, kernels, unavailable, passes, profileMs, error, source, sourceReason, lines] =
      counters.emplace();
  requested = {"sectors_per_request", "bank_conflicts", v.text("counter")};
  values = {{"sectors_per_request", v.real()}, {"bank_conflicts", v.real()}};
  kernels = {{v.text("copyKernel<float>"), v.integer(), {{"sectors_per_request", v.real()}}},
             {v.text("tileKernel"), v.integer(), {}}};
  unavailable = {{v.text("counter"), v.text("this GPU does not count")}};
  passes = v.integer();
  profileMs = v.real();
  if (status != Status::Ok) error = {CounterErrorKind::NotPermitted, v.text("cuptiRangeProfilerEnable")};
  source = v.text("measured from the kernel's accesses");
  sourceReason = v.text("this driver lets only administrators read hardware counters");
  lines = {{v.text("k.cu"),
            int(v.integer()),
            "load",
            {{"requests", v.real()}, {"sectors_per_request", v.real()}},
            v.text("line 12: each warp's load touches 32.0 sectors")},
           {v.text("k.cu"), int(v.integer()), "store", {}, v.text("line 13: the store never ran")}};
  if (status != Status::Ok) {  // measured nothing, as the engine leaves it (the form writes these as null)
    bandwidthGBs = gflops = speedupTotal = speedupCompute = 0;
    verification.maxAbsError = verification.maxRelError = 0;
    deviceOutputs.clear();  // nothing to read after a failed run: the form leaves them out
  }
  return r;
}

/// The optional parts absent: no launch (and so no launch note), no reason, metrics, scalars, flops, block trace,
/// outputs or device outputs.
inline ImplResult sparseImpl(Distinct& v, Status status, Verification::Outcome outcome) {
  ImplResult r = fullImpl(v, status, outcome);
  r.gpu = r.demonstration = false;
  r.reason.clear();
  r.cudaFault = false;
  r.launch.reset();
  r.launchNote.clear();
  r.phases.erase(Phase::Kernel);
  r.flops = r.gflops = 0;
  r.metrics.clear();
  r.scalars.clear();
  r.kernelOccupancy.clear();
  r.blockTrace.clear();
  r.outputs.clear();
  r.deviceOutputs.clear();
  r.counters.reset();
  return r;
}

/// Every status and every verification outcome appears; every phase; optional parts present and absent.
inline RunResult fullResult() {
  Distinct v;
  RunResult r;
  auto& [status, reason, workload, dtype, n, seed, warmup, reps, params, requestedLaunch, traceBlocks, timestamp,
         device, host, slurm, sharing, inputs, impls] = r;
  status = Status::Skipped;
  reason = v.text("why");
  workload = v.text("workload");
  dtype = "f64";
  n = v.big();
  seed = v.big();
  warmup = v.integer();
  reps = v.integer();
  params = {{v.text("param"), v.text("value")}, {"bins", "256"}, {"empty", ""}};
  requestedLaunch.block.emplace();
  fill(*requestedLaunch.block, v);  // the grid left automatic
  traceBlocks = true;
  timestamp = "2031-02-03T04:05:06Z";
  fill(device, v);
  host = v.text("host");
  slurm = {v.text("job"), v.text("step"), v.text("node"), v.text("gpus")};
  sharing.checked = sharing.shared = true;
  sharing.note = v.text("note");
  sharing.before = {true,        "",          {{unsigned(v.integer()), std::uint64_t(v.big()), v.text("proc")}},
                    v.integer(), v.integer(), v.integer(),
                    v.integer()};
  sharing.after = {false, v.text("problem"), {}, -1, -1, -1, -1};
  inputs = {array(v, DType::F32, {3, 4}), array(v, DType::I32, {7}), array(v, DType::U32, {0})};
  using O = Verification::Outcome;
  impls = {fullImpl(v, Status::Ok, O::Reference), sparseImpl(v, Status::Skipped, O::Pass),
           fullImpl(v, Status::Failed, O::Fail), sparseImpl(v, Status::Ok, O::Demonstration),
           fullImpl(v, Status::Ok, O::NotChecked)};
  return r;
}

/// What the JSON form carries: the result without its arrays (the wire adds those).
inline RunResult withoutArrays(RunResult r) {
  r.inputs.clear();
  for (auto& i : r.impls) i.outputs.clear();
  return r;
}

}  // namespace launchlab::sample
