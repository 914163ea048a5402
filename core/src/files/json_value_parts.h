#pragma once
// Internal to core/src/files: the small number helpers json_value.cpp and json_value_gpu.cpp share, and the GPU
// parts of an implementation's JSON (json_value_gpu.cpp), which json_value.cpp's ImplResult mapping calls.
#include <cmath>
#include <map>
#include <nlohmann/json.hpp>
#include <string>

#include "launchlab/engine/result.h"
#include "launchlab/files/json_value.h"

namespace launchlab::json_parts {

using nlohmann::ordered_json;

inline double numberFrom(const ordered_json& j, double ifNull = NAN) { return j.is_null() ? ifNull : j.get<double>(); }

/// metrics and scalars: name -> number (null when not finite).
inline ordered_json numbersJson(const std::map<std::string, double>& metrics) {
  ordered_json j = ordered_json::object();
  for (const auto& [k, v] : metrics) j[k] = jsonNumber(v);
  return j;
}
inline std::map<std::string, double> numbersFrom(const ordered_json& j) {
  std::map<std::string, double> metrics;
  for (const auto& [k, v] : j.items()) metrics[k] = numberFrom(v);
  return metrics;
}

/// The CUDA API's occupancy of each kernel launched (GPU runs only).
void kernelOccupancyTo(ordered_json& j, const ImplResult& r);
void kernelOccupancyFrom(const ordered_json& j, ImplResult& r);
/// Blocks on SMs (a traced GPU run only): one array per field, element k of each is block record k.
void blockTraceTo(ordered_json& j, const ImplResult& r);
void blockTraceFrom(const ordered_json& j, ImplResult& r);
/// GPU outputs left on the device (RunRequest::exportDeviceOutputs): one object each.
void deviceOutputsTo(ordered_json& j, const ImplResult& r);
void deviceOutputsFrom(const ordered_json& j, ImplResult& r);
/// Hardware counters (RunRequest::counters): docs/JSON_SCHEMA.md, "counters".
void countersTo(ordered_json& j, const ImplResult& r);
void countersFrom(const ordered_json& j, ImplResult& r);

}  // namespace launchlab::json_parts
