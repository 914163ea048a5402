#pragma once
// The queue watch of a Slurm worker (not public API: slurm.h builds it into the worker command).
#include <memory>
#include <string>

#include "launchlab/worker/worker.h"

namespace launchlab {

/// Watches the job named `jobName` through squeue and gives it up through scancel.
std::shared_ptr<QueueWatch> makeSlurmQueueWatch(std::string jobName);

}  // namespace launchlab
