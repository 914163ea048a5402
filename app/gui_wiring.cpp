#include "gui_wiring.h"

#include <unistd.h>

#include "launchlab/kernel_resources_data.h"
#include "launchlab/kernels.h"

namespace launchlab::app {

std::unique_ptr<Registry> builtInWorkloads() {
  auto r = std::make_unique<Registry>();
  kernels::registerAllWorkloads(*r);
  return r;
}

std::shared_ptr<ui::EngineBackend> makeEngineBackend() {
  return std::make_shared<ui::EngineBackend>(builtInWorkloads(), kernels::makeDefaultGpuRuntime());
}

std::shared_ptr<ui::IsolatedBackend> makeIsolatedBackend(const std::string& workerPath) {
  return std::make_shared<ui::IsolatedBackend>(workerPath, builtInWorkloads());
}

std::shared_ptr<ui::IsolatedBackend> makeRemoteBackend(WorkerCommand command, std::string& note) {
  std::string shown;
  for (const auto& a : command.argv) shown += (shown.empty() ? "" : " ") + a;
  const std::string how = command.queue ? " through Slurm" : " over SSH";
  // The server is asked for its GPU on the compute thread (RunController), not here: the window appears at once.
  auto remote = std::make_shared<ui::IsolatedBackend>(std::move(command), builtInWorkloads(), true);
  note = "runs go to " + remote->remoteHost() + how + " (" + shown + ")";
  if (auto records = kernelRecordsFromJson(kernels::kernelResourcesJson()))
    remote->setKernelRecords(std::move(*records));
  return remote;
}

namespace {

/// The window's backend without its kernel records (makeBackend's choice).
std::shared_ptr<ui::Backend> chooseBackend(const std::string& workerPath, bool inProcess, std::string& note) {
  if (!kernels::builtWithCuda()) {
    note = "engine in this process (CPU-only build)";
  } else if (inProcess) {
    note = "engine in this process (--in-process)";
  } else if (workerPath.empty() || ::access(workerPath.c_str(), X_OK) != 0) {
    note = "engine in this process: no GPU worker executable at '" + workerPath + "'";
  } else {
    auto isolated = makeIsolatedBackend(workerPath);
    const DeviceStatus s = isolated->deviceStatus();
    if (s.available) {
      note =
          "GPU work runs in a worker process (" + workerPath + " worker): a kernel fault cannot take the window down";
      return isolated;
    }
    // Without a usable GPU nothing can fault: keep the work (and the arrays) in this process.
    note = "engine in this process: the GPU worker reports no usable GPU (" + s.reason + ")";
  }
  return makeEngineBackend();
}

}  // namespace

std::shared_ptr<ui::Backend> makeBackend(const std::string& workerPath, bool inProcess, std::string& note) {
  std::shared_ptr<ui::Backend> b = chooseBackend(workerPath, inProcess, note);
  // The build's record of kernel resources, for the occupancy curve (none if it does not read).
  if (auto records = kernelRecordsFromJson(kernels::kernelResourcesJson())) b->setKernelRecords(std::move(*records));
  return b;
}

}  // namespace launchlab::app
