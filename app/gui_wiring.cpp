#include "gui_wiring.h"

#include <unistd.h>

#include <cstdlib>

#include "launchlab/engine/cpu_threads.h"
#include "launchlab/kernel_resources_data.h"
#include "launchlab/kernels.h"
#include "launchlab/profiler/cupti_profiler.h"
#include "launchlab/profiler/fallback_profiler.h"
#include "runs/local_backend.h"

namespace launchlab::app {

std::unique_ptr<Registry> builtInWorkloads() {
  auto r = std::make_unique<Registry>();
  kernels::registerAllWorkloads(*r);
  return r;
}

std::shared_ptr<ui::EngineBackend> makeEngineBackend() {
  auto b = std::make_shared<ui::EngineBackend>(builtInWorkloads(), kernels::makeDefaultGpuRuntime());
  b->setCpuThreads(cpuThreadsBesideTheWindow());
  // CUPTI (loaded when a run first asks for counters) where the driver lets this user read the hardware counters,
  // else the kernel's own accesses: a student without admin rights gets the figures, labelled, not an error. A
  // worker chooses the same way (LAUNCHLAB_COUNTER_SOURCE=hardware|accesses forces one in both).
  const char* asked = std::getenv("LAUNCHLAB_COUNTER_SOURCE");
  const auto source = profiler::parseCounterSource(asked ? asked : "");
  b->setCounterProfiler(std::make_shared<profiler::FallbackProfiler>(profiler::makeCuptiProfiler(),
                                                                     source.value_or(profiler::CounterSource::Auto)));
  return b;
}

namespace {
/// The local worker's command: its CPU runs leave the window cores to draw with, as the in-process engine's do.
WorkerCommand localWorker(const std::string& workerPath) {
  WorkerCommand c{{workerPath, "worker"}};
  if (const int threads = cpuThreadsBesideTheWindow()) c.env.push_back("OMP_NUM_THREADS=" + std::to_string(threads));
  return c;
}
}  // namespace

std::shared_ptr<ui::IsolatedBackend> makeIsolatedBackend(const std::string& workerPath) {
  return std::make_shared<ui::IsolatedBackend>(localWorker(workerPath), builtInWorkloads());
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
    // The worker is asked for its GPU on the compute thread (RunController), not here: the window appears at once
    // whatever the worker does. Without a usable GPU nothing can fault, so the runs then stay in this process.
    auto worker = std::make_shared<ui::IsolatedBackend>(localWorker(workerPath), builtInWorkloads(), true);
    note = "GPU work runs in a worker process (" + workerPath +
           " worker): a kernel fault cannot take the window down; without a GPU, runs stay in this process";
    return std::make_shared<ui::LocalBackend>(std::move(worker), [] { return makeEngineBackend(); });
  }
  return makeEngineBackend();
}

}  // namespace

std::shared_ptr<ui::Backend> makeBackend(const std::string& workerPath, bool inProcess, std::string& note) {
  std::shared_ptr<ui::Backend> b = chooseBackend(workerPath, inProcess, note);
  if (const int threads = cpuThreadsBesideTheWindow())
    note +=
        "; CPU implementations use " + std::to_string(threads) + " OpenMP threads, leaving the window cores to draw";
  // The build's record of kernel resources, for the occupancy curve (none if it does not read).
  if (auto records = kernelRecordsFromJson(kernels::kernelResourcesJson())) b->setKernelRecords(std::move(*records));
  return b;
}

}  // namespace launchlab::app
