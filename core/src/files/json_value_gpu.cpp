// The GPU parts of an implementation's JSON: kernel occupancies, blocks on SMs, device outputs, hardware counters
// (json_value_parts.h). The rest of the mapping, and its rules, are json_value.cpp's.
#include <string>

#include "json_value_parts.h"
#include "launchlab/engine/errors.h"
#include "launchlab/files/json_value.h"

namespace launchlab::json_parts {

void kernelOccupancyTo(ordered_json& j, const ImplResult& r) {
  if (r.kernelOccupancy.empty()) return;
  ordered_json list = ordered_json::array();
  for (const auto& a : r.kernelOccupancy)
    list.push_back({{"symbol", a.symbol},
                    {"registers", a.resources.registersPerThread},
                    {"static_shared_bytes", a.resources.staticSharedBytes},
                    {"local_bytes", a.resources.localBytesPerThread},
                    {"max_threads_per_block", a.resources.maxThreadsPerBlock},
                    {"threads", a.threadsPerBlock},
                    {"dynamic_shared_bytes", a.dynamicSharedBytes},
                    {"grid_blocks", a.gridBlocks},
                    {"blocks_per_sm", a.blocksPerSm}});
  j["kernel_occupancy"] = std::move(list);
}
void kernelOccupancyFrom(const ordered_json& j, ImplResult& r) {
  if (!j.contains("kernel_occupancy")) return;
  for (const auto& k : j.at("kernel_occupancy")) {
    ApiOccupancy a;
    k.at("symbol").get_to(a.symbol);
    k.at("registers").get_to(a.resources.registersPerThread);
    k.at("static_shared_bytes").get_to(a.resources.staticSharedBytes);
    k.at("local_bytes").get_to(a.resources.localBytesPerThread);
    k.at("max_threads_per_block").get_to(a.resources.maxThreadsPerBlock);
    k.at("threads").get_to(a.threadsPerBlock);
    k.at("dynamic_shared_bytes").get_to(a.dynamicSharedBytes);
    k.at("grid_blocks").get_to(a.gridBlocks);
    k.at("blocks_per_sm").get_to(a.blocksPerSm);
    r.kernelOccupancy.push_back(std::move(a));
  }
}

void blockTraceTo(ordered_json& j, const ImplResult& r) {
  if (r.blockTrace.empty()) return;
  ordered_json block = ordered_json::array(), sm = ordered_json::array(), start = ordered_json::array(),
               end = ordered_json::array();
  for (const auto& b : r.blockTrace) {
    block.push_back(b.block);
    sm.push_back(b.sm);
    start.push_back(b.startNs);
    end.push_back(b.endNs);
  }
  j["block_trace"] = {
      {"block", std::move(block)}, {"sm", std::move(sm)}, {"start_ns", std::move(start)}, {"end_ns", std::move(end)}};
}
void blockTraceFrom(const ordered_json& j, ImplResult& r) {
  const auto it = j.find("block_trace");
  if (it == j.end()) return;
  std::vector<std::uint32_t> block, sm;
  std::vector<std::uint64_t> start, end;
  wholeNumberAt(*it, "block", block);
  wholeNumberAt(*it, "sm", sm);
  wholeNumberAt(*it, "start_ns", start);
  wholeNumberAt(*it, "end_ns", end);
  if (sm.size() != block.size() || start.size() != block.size() || end.size() != block.size())
    throw BadInput("'block_trace': its lists are not all of the same length");
  for (const std::uint32_t s : sm)
    if (s >= kMaxTracedSms)
      throw BadInput("'block_trace': SM index " + std::to_string(s) + " (at most " + std::to_string(kMaxTracedSms - 1) +
                     ")");
  r.blockTrace.resize(block.size());
  for (std::size_t k = 0; k < block.size(); ++k) r.blockTrace[k] = {block[k], sm[k], start[k], end[k]};
}

void deviceOutputsTo(ordered_json& j, const ImplResult& r) {
  if (r.deviceOutputs.empty() || r.status != Status::Ok) return;  // a failed run's buffers hold nothing to read
  ordered_json list = ordered_json::array();
  for (const auto& d : r.deviceOutputs)
    list.push_back({{"name", d.name},
                    {"dtype", dtypeName(d.dtype)},
                    {"shape", d.shape},
                    {"bytes", d.bytes},
                    {"device", d.device},
                    {"ipc_handle", d.ipcHandle},
                    {"offset", d.offset}});
  j["device_outputs"] = std::move(list);
}
void deviceOutputsFrom(const ordered_json& j, ImplResult& r) {
  const auto it = j.find("device_outputs");
  if (it == j.end()) return;
  for (const auto& o : *it) {
    DeviceOutput d;
    o.at("name").get_to(d.name);
    const auto dt = parseDType(o.at("dtype").get<std::string>());
    if (!dt) throw BadInput("'device_outputs': " + unknownDTypeMessage(o.at("dtype").get<std::string>()));
    d.dtype = *dt;
    o.at("shape").get_to(d.shape);
    o.at("bytes").get_to(d.bytes);
    o.at("device").get_to(d.device);
    o.at("ipc_handle").get_to(d.ipcHandle);
    if (o.contains("offset")) o.at("offset").get_to(d.offset);
    const bool hex =
        d.ipcHandle.size() == 128 && d.ipcHandle.find_first_not_of("0123456789abcdef") == std::string::npos;
    if (!hex) throw BadInput("'device_outputs': an IPC handle is 128 lower-case hex digits");
    r.deviceOutputs.push_back(std::move(d));
  }
}

void countersTo(ordered_json& j, const ImplResult& r) {
  if (!r.counters) return;
  const ImplCounters& c = *r.counters;
  ordered_json o = {{"requested", c.requested}, {"passes", c.passes}, {"profile_ms", jsonNumber(c.profileMs)}};
  if (!c.source.empty()) o["source"] = c.source;
  if (!c.sourceReason.empty()) o["source_reason"] = c.sourceReason;
  if (!c.error.ok())
    o["error"] = {{"kind", counterErrorKindName(c.error.kind)},
                  {"detail", c.error.detail},
                  {"message", counterErrorMessage(c.error)}};
  o["values"] = numbersJson(c.values);
  if (!c.unavailable.empty()) o["unavailable"] = c.unavailable;
  ordered_json kernels = ordered_json::array();
  for (const auto& k : c.kernels)
    kernels.push_back({{"kernel", k.kernel}, {"launches", k.launches}, {"values", numbersJson(k.values)}});
  o["kernels"] = std::move(kernels);
  if (!c.lines.empty()) {
    ordered_json lines = ordered_json::array();
    for (const auto& l : c.lines)
      lines.push_back(
          {{"file", l.file}, {"line", l.line}, {"kind", l.kind}, {"values", numbersJson(l.values)}, {"text", l.text}});
    o["lines"] = std::move(lines);
  }
  j["counters"] = std::move(o);
}
void countersFrom(const ordered_json& j, ImplResult& r) {
  const auto it = j.find("counters");
  if (it == j.end()) return;
  const ordered_json& o = *it;
  ImplCounters& c = r.counters.emplace();
  o.at("requested").get_to(c.requested);
  wholeNumberAt(o, "passes", c.passes);
  c.profileMs = numberFrom(o.at("profile_ms"), 0);
  c.source = o.value("source", std::string());
  c.sourceReason = o.value("source_reason", std::string());
  if (o.contains("error")) {
    const auto kind = parseCounterErrorKind(o["error"].at("kind").get<std::string>());
    if (!kind) throw BadInput("counters: unknown error kind");
    c.error = {*kind, o["error"].at("detail").get<std::string>()};
  }
  c.values = numbersFrom(o.at("values"));
  if (o.contains("unavailable")) o["unavailable"].get_to(c.unavailable);
  for (const auto& k : o.at("kernels")) {
    KernelCounters& kc = c.kernels.emplace_back();
    k.at("kernel").get_to(kc.kernel);
    wholeNumberAt(k, "launches", kc.launches);
    kc.values = numbersFrom(k.at("values"));
  }
  if (const auto lines = o.find("lines"); lines != o.end())
    for (const auto& l : *lines) {
      CounterLine& cl = c.lines.emplace_back();
      l.at("file").get_to(cl.file);
      wholeNumberAt(l, "line", cl.line);
      l.at("kind").get_to(cl.kind);
      cl.values = numbersFrom(l.at("values"));
      l.at("text").get_to(cl.text);
    }
}

}  // namespace launchlab::json_parts
