#pragma once
/// The public JSON documents: a run, the workload list, the device, the course (schema: docs/JSON_SCHEMA.md). A run and
/// a device are written in the one form of json_value.h, which also reads them back.
#include <string>

#include "launchlab/engine/device.h"
#include "launchlab/engine/registry.h"
#include "launchlab/engine/result.h"

namespace launchlab::json {

inline constexpr int kSchemaVersion = 1;
std::string runResult(const RunResult& r, int indent = 2);
std::string workloads(const Registry& reg, int indent = 2);
std::string deviceStatus(const DeviceStatus& s, int indent = 2);
/// The course catalogue (course.h), in order: schema "launchlab.course".
std::string course(int indent = 2);

}  // namespace launchlab::json
