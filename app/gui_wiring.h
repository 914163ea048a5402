#pragma once
/// Start-up wiring of the GUI: the workloads built into this binary and the GPU runtime, handed to the ui
/// library's backends (which depend on core alone), and the choice of backend the window runs on.
#include <memory>
#include <string>

#include "launchlab/engine/registry.h"
#include "launchlab/worker/worker.h"
#include "models/backend.h"

namespace launchlab::app {

/// Every workload built into this binary.
std::unique_ptr<Registry> builtInWorkloads();
/// The engine in this process over every built-in workload and the default GPU runtime.
std::shared_ptr<ui::EngineBackend> makeEngineBackend();
/// GPU work in the worker process at `workerPath` (`launchlab-cli worker`), metadata from the built-in workloads.
std::shared_ptr<ui::IsolatedBackend> makeIsolatedBackend(const std::string& workerPath);
/// GPU work in a worker on another machine (launchlab/worker/remote.h: ssh host launchlab-cli worker;
/// launchlab/worker/slurm.h: srun … launchlab-cli worker). A connection or job that fails is no exception: the device
/// banner shows ssh's or srun's reason and each run tries again.
std::shared_ptr<ui::IsolatedBackend> makeRemoteBackend(WorkerCommand command, std::string& note);
/// The backend the window uses. CUDA builds run in a worker process when `workerPath` names an executable
/// and the worker sees a usable GPU; otherwise (CPU-only build, no GPU, no worker, `inProcess`) the engine
/// runs in this process, where no GPU fault can happen. `note` says which and why (for the log).
std::shared_ptr<ui::Backend> makeBackend(const std::string& workerPath, bool inProcess, std::string& note);

}  // namespace launchlab::app
