#pragma once
/// A GPU behind Slurm: the worker protocol of worker.h in a Slurm job step. The command that starts the worker becomes
/// `srun --job-name=NAME --nodes=1 --ntasks=1 --unbuffered [--partition=P] [--time=T] [ARGS…] launchlab-cli worker`,
/// so a student on a cluster's login node runs on a GPU node through the same IsolatedRunner as a local or SSH
/// worker. While the job waits in the queue its state comes from squeue ("waiting for a GPU: job 4711 PENDING
/// (Resources)"); a cancelled or stopped worker gives up its job with scancel (killing srun alone can leave a
/// pending job behind). The worker records its job, node and GPUs in every result (RunResult::slurm).
#include <functional>
#include <optional>
#include <string>

#include "launchlab/engine/result.h"
#include "launchlab/worker/worker.h"

namespace launchlab {

/// Where and how the worker's job is asked for.
struct SlurmTarget {
  std::string partition;  ///< "" = the cluster's default partition
  std::string time;       ///< "" = the partition's default; Slurm's forms (MM, MM:SS, HH:MM:SS, D-HH:MM…)
  std::string extraArgs;  ///< more srun options, split at spaces, each "-x" or "--name=value" (e.g. --gres=gpu:1)
  std::string cli = "launchlab-cli";  ///< launchlab-cli's path on the compute nodes
  std::string jobName;                ///< "" = a name unique to this process ("launchlab-HOST-PID-N")
};

/// Checks the fields that do not need the cluster (characters and forms): "" or one line naming the field
/// ("--partition: …", "--time: …", "--slurm-args: …").
std::string checkSlurmTarget(const SlurmTarget& target);
/// Asks the cluster whether `partition` exists (sinfo): "" or one line ("no partition 'gpu' on this cluster
/// (partitions: debug)", or why Slurm cannot be reached). An empty partition asks only whether Slurm answers.
std::string slurmPartitionProblem(const std::string& partition);

/// The worker command for `target` (checkSlurmTarget first). srun's stderr is captured: its messages end a failed
/// start's reason, and the queue watch reads the job id from it.
WorkerCommand slurmWorkerCommand(const SlurmTarget& target);

/// A job's state as squeue reports it.
struct SlurmJobState {
  std::string jobId, state, reason, node;
};
/// squeue's line in the format "%i|%T|%r|%N"; nothing when it is not one.
std::optional<SlurmJobState> parseSqueueLine(const std::string& line);
/// The job id of srun's "srun: job 4711 queued and waiting for resources" in `srunStderr`, "" when absent.
std::string queuedJobId(const std::string& srunStderr);
/// "waiting for a GPU: job 4711 PENDING (Resources)" for a job that waits (PENDING, CONFIGURING), "" otherwise.
std::string waitingLine(const SlurmJobState& s);

/// The job this process runs in, from Slurm's environment (SLURM_JOB_ID, SLURM_STEP_ID, SLURMD_NODENAME, and the
/// GPUs of SLURM_STEP_GPUS, else SLURM_JOB_GPUS, else CUDA_VISIBLE_DEVICES when in a job); empty outside a job.
/// `env` reads a variable (nullptr when unset).
SlurmPlacement slurmPlacementFrom(const std::function<const char*(const char*)>& env);
SlurmPlacement slurmPlacementOfThisProcess();

}  // namespace launchlab
