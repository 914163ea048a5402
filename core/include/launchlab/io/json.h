#pragma once
/// JSON forms of results, workload metadata and device info (schema: docs/JSON_SCHEMA.md).
#include <string>

#include "launchlab/device.h"
#include "launchlab/registry.h"
#include "launchlab/result.h"

namespace launchlab::json {

inline constexpr int kSchemaVersion = 1;
std::string runResult(const RunResult& r, int indent = 2);
std::string workloads(const Registry& reg, int indent = 2);
std::string deviceStatus(const DeviceStatus& s, int indent = 2);

}  // namespace launchlab::json
