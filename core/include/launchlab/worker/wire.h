#pragma once
/// Binary-safe serialisation of requests, results (with their arrays) and device status, for the GPU worker
/// process (see worker.h). A message is [8-byte length][a JSON document][the raw bytes of its arrays]. A result and a
/// device travel in their public JSON form (json_value.h), a result with its arrays described under "inputs" and
/// each implementation's "outputs". The decoders take untrusted bytes: anything malformed (a bad frame, bad JSON,
/// a missing key, an array outside the message or whose shape does not match its size) throws BadInput.
#include <string>
#include <string_view>

#include "launchlab/engine/device.h"
#include "launchlab/engine/engine.h"
#include "launchlab/engine/result.h"
#include "launchlab/explorer/roofline.h"

namespace launchlab::wire {

std::string encodeRequest(const RunRequest& r);
RunRequest decodeRequest(std::string_view bytes);
std::string encodeResult(const RunResult& r);
RunResult decodeResult(std::string_view bytes);
std::string encodeDevice(const DeviceStatus& s);
DeviceStatus decodeDevice(std::string_view bytes);
std::string encodeProgress(const Progress& p);
Progress decodeProgress(std::string_view bytes);
/// The roofline's ceilings (roofline.h) in their ceilingsJson form.
std::string encodeCeilings(const Ceilings& c);
Ceilings decodeCeilings(std::string_view bytes);

}  // namespace launchlab::wire
