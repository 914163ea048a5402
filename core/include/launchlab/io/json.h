#pragma once
/// The public JSON documents: a run, the workload list, the device, the course (schema: docs/JSON_SCHEMA.md). A run and
/// a device are written in the one form of json_value.h, which also reads them back.
#include <string>

#include "launchlab/device.h"
#include "launchlab/registry.h"
#include "launchlab/result.h"

namespace launchlab::json {

inline constexpr int kSchemaVersion = 1;
std::string runResult(const RunResult& r, int indent = 2);
std::string workloads(const Registry& reg, int indent = 2);
std::string deviceStatus(const DeviceStatus& s, int indent = 2);
/// The course catalogue (course.h), in order: schema "launchlab.course".
std::string course(int indent = 2);

}  // namespace launchlab::json
