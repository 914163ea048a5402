#pragma once
/// The one mapping between a run's result and JSON, in both directions, for every type inside it: RunResult,
/// ImplResult (with its PhaseStats), Verification, LaunchConfig, Dim3, DeviceStatus (with DeviceInfo and its
/// DeviceLimits). Its keys are those of the public schema (docs/JSON_SCHEMA.md): json.h writes this form as the
/// `launchlab.run` and `launchlab.device` documents, and wire.h sends the same form to and from the worker process
/// with the arrays added. Arrays (RunResult::inputs, ImplResult::outputs) are not part of it.
///
/// The functions are nlohmann's ADL hooks: `nlohmann::ordered_json j = result;`, `j.get<RunResult>()`.
/// This is the one public header of core that names nlohmann::json: include it only from targets that link
/// nlohmann_json themselves (launchlab_core links it privately; its other headers are free of it).
///
/// The rules of the form (docs/JSON_SCHEMA.md says the same):
///  - enum values are written by name (statusName, phaseName, outcomeName) and read back by name;
///  - a non-finite number is written as null; null reads back as NaN, except for a verification error
///    (max_abs_error, max_rel_error: maxima of |difference|, whose only non-finite value is +infinity);
///  - `reason` is written when not empty, `launch` when there is one (with ImplResult::launchNote as its `note`),
///    `flops` and `gflops` when flops > 0, `metrics`, `scalars` and `block_trace` when not empty; absent, they read
///    back as the defaults;
///  - an implementation whose status is not ok measured nothing: its `bandwidth_gbs`, `gflops`, speedups and
///    verification errors are written as null and read back as 0;
///  - a device is written with its `reason` when unavailable and with its info when available; the limits'
///    device name is the device's name;
///  - derived values (`schema_version`, `all_passed`, `total_threads`) are written and not read.
///  - a whole number (a count, a size, a seed, a launch dimension) must be a JSON integer within its C++ type: 1.5,
///    1e3, -1 for an unsigned field or 2^40 for an int read as BadInput, never as a rounded or wrapped value.
/// Reading throws BadInput for an unknown name or a document of another schema, and nlohmann::json::exception
/// for a missing key or a wrong type: readers of untrusted input wrap it in rethrowAsBadInput (errors.h).
#include <cstdint>
#include <nlohmann/json_fwd.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "launchlab/engine/device.h"
#include "launchlab/engine/launch_config.h"
#include "launchlab/engine/result.h"

namespace launchlab {

void to_json(nlohmann::ordered_json& j, const Dim3& d);
void from_json(const nlohmann::ordered_json& j, Dim3& d);
void to_json(nlohmann::ordered_json& j, const LaunchConfig& c);
void from_json(const nlohmann::ordered_json& j, LaunchConfig& c);
void to_json(nlohmann::ordered_json& j, const DeviceStatus& s);
void from_json(const nlohmann::ordered_json& j, DeviceStatus& s);
void to_json(nlohmann::ordered_json& j, const PhaseStats& s);
void from_json(const nlohmann::ordered_json& j, PhaseStats& s);
void to_json(nlohmann::ordered_json& j, const Verification& v);
void from_json(const nlohmann::ordered_json& j, Verification& v);
void to_json(nlohmann::ordered_json& j, const ImplResult& r);
void from_json(const nlohmann::ordered_json& j, ImplResult& r);
void to_json(nlohmann::ordered_json& j, const RunResult& r);
void from_json(const nlohmann::ordered_json& j, RunResult& r);

/// Reads the whole number `j[key]` into `out`: BadInput naming the key for a value that is not a JSON integer
/// (1.5, "3", true) or lies outside Int's range; nlohmann's out_of_range for a missing key. Defined for int,
/// std::uint32_t and std::uint64_t (and so std::size_t); the vector form reads an array of std::uint32_t or
/// std::uint64_t.
template <class Int>
void wholeNumberAt(const nlohmann::ordered_json& j, const char* key, Int& out);
template <class Int>
void wholeNumberAt(const nlohmann::ordered_json& j, const char* key, std::vector<Int>& out);

/// A number, or null when it is not finite (JSON has no NaN or infinity).
nlohmann::ordered_json jsonNumber(double v);
/// The head of every document launchlab writes: {"schema": schema, "schema_version": json::kSchemaVersion}.
nlohmann::ordered_json jsonDocument(std::string_view schema);
/// JSON text (indent < 0: one line). Strings that are not valid UTF-8 get U+FFFD for their bad bytes instead of
/// failing the whole document.
std::string dumpJson(const nlohmann::ordered_json& j, int indent = -1);

}  // namespace launchlab
