// The roofline's arithmetic (ridge point, roof, bound, % of the roof), the ceilings from a profile's datasheet or
// measured on a GPU, and their JSON form (the CLI's `ceilings --json` and the worker's message).
#include "launchlab/explorer/roofline.h"

#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>

#include "launchlab/engine/engine.h"
#include "launchlab/engine/errors.h"
#include "launchlab/files/json_value.h"

namespace launchlab {

std::string_view ceilingsSourceName(Ceilings::Source s) {
  switch (s) {
    case Ceilings::Source::Measured:
      return "measured";
    case Ceilings::Source::Recorded:
      return "recorded";
    case Ceilings::Source::Theoretical:
      return "theoretical";
  }
  return "theoretical";
}

std::string Ceilings::label() const {
  if (source == Source::Theoretical) return "theoretical: datasheet of " + gpuName;
  const std::string day = date.substr(0, 10);
  return std::string(ceilingsSourceName(source)) + " on " + gpuName + (day.empty() ? "" : ", " + day);
}

double ridgePoint(const Ceilings& c) { return c.valid() ? c.fp32Gflops / c.copyGBs : 0; }

double roofAt(const Ceilings& c, double ai) { return std::min(c.fp32Gflops, ai * c.copyGBs); }

std::string_view boundName(Bound b) { return b == Bound::Memory ? "memory" : "compute"; }

Bound boundAt(const Ceilings& c, double ai) { return ai < ridgePoint(c) ? Bound::Memory : Bound::Compute; }

std::optional<RooflinePoint> placeOnRoofline(const Ceilings& c, double flops, double bytes, double ms) {
  if (!c.valid() || !(flops > 0) || !(bytes > 0) || !(ms > 0) || !std::isfinite(flops + bytes + ms))
    return std::nullopt;
  RooflinePoint p;
  p.intensity = flops / bytes;
  p.gflops = flops / (ms * 1e-3) / 1e9;
  p.gbs = bytes / (ms * 1e-3) / 1e9;
  p.bound = boundAt(c, p.intensity);
  p.percentOfRoof = 100 * p.gflops / roofAt(c, p.intensity);
  return p;
}

Ceilings theoreticalCeilings(const ArchProfile& p) {
  Ceilings c;
  c.copyGBs = p.datasheetDramGBs;
  c.fp32Gflops = p.datasheetFp32Gflops;
  c.source = Ceilings::Source::Theoretical;
  c.gpuName = p.datasheetGpu;
  return c;
}

Ceilings measureCeilings(GpuRuntime& gpu, int reps) {
  Ceilings c;
  c.source = Ceilings::Source::Measured;
  const DeviceStatus s = gpu.status();
  if (!s.available) {
    c.problem = "no GPU: " + s.reason;
    return c;
  }
  c.gpuName = s.info.name;
  c.date = nowIso8601();
  const std::size_t bytes = std::min(std::size_t(1) << 30, gpu.memoryInfo().first / 4);
  c.copyGBs = gpu.measureCopyBandwidthGBs(bytes, reps);
  c.fp32Gflops = gpu.measureFp32FmaGflops(reps);
  if (!c.valid()) c.problem = "the measurement on " + c.gpuName + " gave no figure";
  return c;
}

std::string ceilingsJson(const Ceilings& c) {
  nlohmann::ordered_json j = jsonDocument("launchlab.ceilings");
  j["copy_gbs"] = jsonNumber(c.copyGBs);
  j["fp32_gflops"] = jsonNumber(c.fp32Gflops);
  j["ridge_flop_per_byte"] = jsonNumber(ridgePoint(c));
  j["source"] = ceilingsSourceName(c.source);
  j["gpu"] = c.gpuName;
  j["date"] = c.date;
  j["label"] = c.label();
  if (!c.problem.empty()) j["problem"] = c.problem;
  return dumpJson(j, 2);
}

std::optional<Ceilings> parseCeilingsJson(std::string_view text, std::string* error) {
  try {
    return rethrowAsBadInput("ceilings", [&] {
      const auto j = nlohmann::ordered_json::parse(std::string(text));
      if (j.value("schema", "") != "launchlab.ceilings") throw BadInput("not a launchlab.ceilings document");
      Ceilings c;
      c.copyGBs = j.at("copy_gbs").is_null() ? 0 : j.at("copy_gbs").get<double>();
      c.fp32Gflops = j.at("fp32_gflops").is_null() ? 0 : j.at("fp32_gflops").get<double>();
      const auto source = j.at("source").get<std::string>();
      if (source == "measured")
        c.source = Ceilings::Source::Measured;
      else if (source == "recorded")
        c.source = Ceilings::Source::Recorded;
      else if (source == "theoretical")
        c.source = Ceilings::Source::Theoretical;
      else
        throw BadInput("unknown source '" + source + "'");
      j.at("gpu").get_to(c.gpuName);
      j.at("date").get_to(c.date);
      c.problem = j.value("problem", "");
      return c;
    });
  } catch (const BadInput& e) {
    if (error) *error = e.what();
    return std::nullopt;
  }
}

}  // namespace launchlab
