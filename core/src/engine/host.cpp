// The host a run is measured on: its CPU and memory, the clock a result is stamped with, and the host's own copy
// bandwidth (the CPU side of the roofline and of bench's foundation figures).
#include <omp.h>

#include <chrono>
#include <ctime>
#include <fstream>
#include <string>
#include <vector>

#include "launchlab/engine/array.h"
#include "launchlab/engine/engine.h"
#include "launchlab/engine/result.h"

namespace launchlab {

double Engine::measureHostCopyBandwidthGBs(std::size_t bytes, int reps) {
  const std::size_t n = bytes / sizeof(double);
  HostArray a("a", DType::F64, {n}), b("b", DType::F64, {n});
  auto av = a.view<double>();
  auto bv = b.view<double>();
  // First touch by the threads that will use the pages.
#pragma omp parallel for schedule(static)
  for (std::size_t i = 0; i < n; ++i) {
    av[i] = double(i);
    bv[i] = 0;
  }
  std::vector<double> times;
  for (int r = 0; r < reps + 1; ++r) {
    auto t0 = std::chrono::steady_clock::now();
#pragma omp parallel for simd schedule(static)
    for (std::size_t i = 0; i < n; ++i) bv[i] = av[i];
    auto t1 = std::chrono::steady_clock::now();
    if (r > 0) times.push_back(std::chrono::duration<double, std::milli>(t1 - t0).count());
  }
  const double ms = summarize(times).medianMs;
  return ms > 0 ? 2.0 * double(n * sizeof(double)) / (ms * 1e-3) / 1e9 : 0;
}

namespace {
std::string readCpuModel() {
  std::ifstream f("/proc/cpuinfo");
  std::string line, model = "unknown CPU";
  while (std::getline(f, line)) {
    if (line.rfind("model name", 0) == 0) {
      auto p = line.find(':');
      if (p != std::string::npos) model = line.substr(p + 2);
      break;
    }
  }
  return model;
}
}  // namespace

std::string hostDescription() {
  static const std::string model = readCpuModel();  // every run names its host: read /proc/cpuinfo once
  return model + " (" + std::to_string(omp_get_max_threads()) + " OpenMP threads)";
}

std::size_t hostAvailableMemory() {
  std::ifstream f("/proc/meminfo");
  std::string key;
  std::size_t kb = 0;
  std::string unit;
  while (f >> key >> kb >> unit)
    if (key == "MemAvailable:") return kb * 1024;
  return 0;
}

std::string nowIso8601() {
  auto t = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}
}  // namespace launchlab
