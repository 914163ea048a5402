// `launchlab-cli bench-geometry` (cli_bench_geometry.h).
#include "cli_bench_geometry.h"

#include <CLI/CLI.hpp>
#include <iostream>
#include <nlohmann/json.hpp>

#include "cli_table.h"
#include "launchlab/files/atomic_file.h"
#include "launchlab/kernels.h"
#include "render/plot_geometry_gpu.h"

namespace launchlab::cli {

namespace {

const std::vector<std::uint64_t> kSizes = {1ull << 20, 1ull << 24, 1ull << 27};
const std::vector<std::uint32_t> kColumns = {64, 1280, 1920, 3840};

std::string renderTimings(const std::vector<geom::gpu::M4Timing>& timings, const std::string& device) {
  std::string s = "M4 decimation of f32 samples on " + device + " (median of the repetitions)\n";
  s += pad("samples", 12) + pad("columns", 8, true) + pad("median ms", 10, true) + pad("min ms", 10, true) +
       pad("GB/s", 8, true) + "\n";
  for (const auto& t : timings) {
    s += pad(std::to_string(t.n), 12) + pad(std::to_string(t.columns), 8, true);
    s += t.error.empty() ? pad(num(t.medianMs, "%.4f"), 10, true) + pad(num(t.minMs, "%.4f"), 10, true) +
                               pad(num(t.gbPerS, "%.0f"), 8, true)
                         : "  " + t.error;
    s += "\n";
  }
  return s;
}

std::string timingsJson(const std::vector<geom::gpu::M4Timing>& timings, const DeviceInfo& d, int reps) {
  nlohmann::ordered_json root;
  root["schema"] = "launchlab.bench_geometry";
  root["device"] = d.name;
  root["cc"] = std::to_string(d.ccMajor) + "." + std::to_string(d.ccMinor);
  root["dtype"] = "f32";
  root["reps"] = reps;
  auto& rows = root["m4"] = nlohmann::ordered_json::array();
  for (const auto& t : timings) {
    nlohmann::ordered_json r{{"n", t.n}, {"columns", t.columns}};
    if (t.error.empty())
      r.update({{"median_ms", t.medianMs}, {"min_ms", t.minMs}, {"gb_per_s", t.gbPerS}});
    else
      r["error"] = t.error;
    rows.push_back(r);
  }
  return root.dump(2) + "\n";
}

}  // namespace

CLI::App* addBenchGeometry(CLI::App& app, BenchGeometryOptions& o) {
  auto* sub = app.add_subcommand("bench-geometry",
                                 "Time the GPU M4 decimation of the plot views at 2^20, 2^24 and 2^27 f32 samples");
  sub->add_option("--json", o.json, "Write the timings as JSON to FILE, or - for stdout");
  sub->add_option("--reps", o.reps, "Timed repetitions per point (median)")
      ->default_val(20)
      ->check(CLI::Range(1, 10000));
  return sub;
}

int runBenchGeometry(const BenchGeometryOptions& o) {
  const DeviceStatus st = kernels::makeDefaultGpuRuntime()->status();
  if (!st.available) {
    std::cerr << "launchlab-cli: bench-geometry needs a CUDA device: " << st.reason << "\n";
    return 1;
  }
  const auto timings = geom::gpu::timeM4(kSizes, kColumns, o.reps);
  if (o.json != "-") std::cout << renderTimings(timings, st.info.name);
  if (o.json == "-")
    std::cout << timingsJson(timings, st.info, o.reps);
  else if (!o.json.empty())
    files::writeAtomic(o.json, timingsJson(timings, st.info, o.reps));
  for (const auto& t : timings)
    if (!t.error.empty()) return 1;
  return 0;
}

}  // namespace launchlab::cli
