// NVML through dlopen: the few functions used are declared here with the types of NVIDIA's nvml.h (their ABI is
// stable: versioned entry points), so building needs neither the header nor the library.
#include <dlfcn.h>

#include <cstdlib>
#include <fstream>
#include <mutex>

#include "launchlab/engine/gpu_sharing.h"

namespace launchlab {

namespace {

using nvmlReturn_t = int;
using nvmlDevice_t = struct nvmlDevice_st*;
constexpr nvmlReturn_t kNvmlSuccess = 0, kNvmlInsufficientSize = 7;
constexpr unsigned kClockSm = 1, kClockMem = 2;  // nvmlClockType_t
struct nvmlUtilization_t {
  unsigned gpu, memory;
};
struct nvmlProcessInfo_t {  // the layout of nvmlDeviceGetComputeRunningProcesses_v3's entries
  unsigned pid;
  unsigned long long usedGpuMemory;
  unsigned gpuInstanceId, computeInstanceId;
};

struct Nvml {
  nvmlReturn_t (*init)() = nullptr;
  const char* (*errorString)(nvmlReturn_t) = nullptr;
  nvmlReturn_t (*byIndex)(unsigned, nvmlDevice_t*) = nullptr;
  nvmlReturn_t (*byPciBusId)(const char*, nvmlDevice_t*) = nullptr;
  nvmlReturn_t (*utilization)(nvmlDevice_t, nvmlUtilization_t*) = nullptr;
  nvmlReturn_t (*clock)(nvmlDevice_t, unsigned, unsigned*) = nullptr;
  nvmlReturn_t (*processes)(nvmlDevice_t, unsigned*, nvmlProcessInfo_t*) = nullptr;
};

std::string commandOf(unsigned pid) {
  std::ifstream comm("/proc/" + std::to_string(pid) + "/comm");
  std::string name;
  std::getline(comm, name);
  return name;
}

class NvmlMonitor final : public GpuMonitor {
 public:
  GpuSample sample(const std::string& pciBusId) override {
    std::call_once(m_once, [this] { m_problem = open(); });
    GpuSample s;
    if (!m_problem.empty()) {
      s.problem = "NVML not available: " + m_problem;
      return s;
    }
    nvmlDevice_t dev = nullptr;
    const nvmlReturn_t found = pciBusId.empty() ? m_nvml.byIndex(0, &dev) : m_nvml.byPciBusId(pciBusId.c_str(), &dev);
    if (found != kNvmlSuccess) {
      s.problem = "NVML does not find the GPU " + pciBusId + ": " + m_nvml.errorString(found);
      return s;
    }
    nvmlUtilization_t u{};
    if (m_nvml.utilization(dev, &u) == kNvmlSuccess) s.gpuUtilPercent = int(u.gpu), s.memUtilPercent = int(u.memory);
    unsigned mhz = 0;
    if (m_nvml.clock(dev, kClockSm, &mhz) == kNvmlSuccess) s.smClockMHz = int(mhz);
    if (m_nvml.clock(dev, kClockMem, &mhz) == kNvmlSuccess) s.memClockMHz = int(mhz);
    std::vector<nvmlProcessInfo_t> infos(64);
    unsigned count = unsigned(infos.size());
    nvmlReturn_t rc = m_nvml.processes(dev, &count, infos.data());
    if (rc == kNvmlInsufficientSize) {  // more came since: once more with room for them
      infos.resize(count + 16);
      count = unsigned(infos.size());
      rc = m_nvml.processes(dev, &count, infos.data());
    }
    if (rc != kNvmlSuccess) {
      s.problem = std::string("nvmlDeviceGetComputeRunningProcesses_v3: ") + m_nvml.errorString(rc);
      return s;
    }
    for (unsigned k = 0; k < count && k < infos.size(); ++k) {
      // NVML's "not available" memory value is all ones (no per-process accounting, e.g. under MIG or WSL).
      const auto mem = infos[k].usedGpuMemory == ~0ull ? 0ull : infos[k].usedGpuMemory;
      s.processes.push_back({infos[k].pid, mem, commandOf(infos[k].pid)});
    }
    s.ok = true;
    return s;
  }

 private:
  /// "" or why NVML cannot be used here.
  std::string open() {
    const char* forced = std::getenv("LAUNCHLAB_NVML_LIBRARY");
    void* lib = ::dlopen(forced ? forced : "libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
      const char* err = ::dlerror();
      return err ? err : "cannot open libnvidia-ml.so.1";
    }
    auto bind = [&](auto& fn, const char* name) {
      fn = reinterpret_cast<std::remove_reference_t<decltype(fn)>>(::dlsym(lib, name));
      return fn != nullptr;
    };
    for (auto [ok, name] :
         {std::pair{bind(m_nvml.init, "nvmlInit_v2"), "nvmlInit_v2"},
          {bind(m_nvml.errorString, "nvmlErrorString"), "nvmlErrorString"},
          {bind(m_nvml.byIndex, "nvmlDeviceGetHandleByIndex_v2"), "nvmlDeviceGetHandleByIndex_v2"},
          {bind(m_nvml.byPciBusId, "nvmlDeviceGetHandleByPciBusId_v2"), "nvmlDeviceGetHandleByPciBusId_v2"},
          {bind(m_nvml.utilization, "nvmlDeviceGetUtilizationRates"), "nvmlDeviceGetUtilizationRates"},
          {bind(m_nvml.clock, "nvmlDeviceGetClockInfo"), "nvmlDeviceGetClockInfo"},
          {bind(m_nvml.processes, "nvmlDeviceGetComputeRunningProcesses_v3"),
           "nvmlDeviceGetComputeRunningProcesses_v3"}})
      if (!ok) return std::string("the driver's NVML has no ") + name + " (a driver older than 510?)";
    if (const nvmlReturn_t rc = m_nvml.init(); rc != kNvmlSuccess)
      return std::string("nvmlInit: ") + m_nvml.errorString(rc);
    return {};
  }

  std::once_flag m_once;
  std::string m_problem;
  Nvml m_nvml;
};

}  // namespace

std::shared_ptr<GpuMonitor> makeNvmlMonitor() { return std::make_shared<NvmlMonitor>(); }

}  // namespace launchlab
