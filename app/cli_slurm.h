#pragma once
// `--slurm` of run, sweep, course run and profile: the worker as a Slurm job step (launchlab/worker/slurm.h); and
// `info`'s list of who else uses the GPU (launchlab/engine/gpu_sharing.h).
#include <CLI/CLI.hpp>
#include <stdexcept>
#include <string>
#include <vector>

#include "launchlab/engine/engine.h"
#include "launchlab/engine/result.h"
#include "launchlab/explorer/sweep.h"
#include "launchlab/worker/slurm.h"

namespace launchlab::cli {

/// Bad --slurm input (a partition the cluster lacks, a malformed time): one line on stderr, exit 2.
struct SlurmInputError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct SlurmOptions {
  bool enabled = false;  ///< --slurm
  SlurmTarget target;    ///< --partition, --time, --slurm-args, --slurm-cli (defaults: $LAUNCHLAB_SLURM_*)
  int nodes = 1;         ///< sweep --nodes: job steps the sweep's points are split over
};

/// Adds --slurm and its options to `cmd` (sweep also takes --nodes).
void addSlurmOptions(CLI::App* cmd, SlurmOptions& o, bool withNodes);
/// The settings' defaults ($LAUNCHLAB_SLURM_PARTITION, _TIME, _ARGS, _CLI) under what was given, then the checks:
/// the forms, then the cluster (the partition exists). Throws SlurmInputError; does nothing without --slurm.
void resolveSlurmOptions(SlurmOptions& o);

/// Runs `req` in a worker started by srun: the queue's state on stderr while the job waits, Ctrl+C (SIGINT) or
/// SIGTERM cancels it (scancel while queued, the run's cancel once it runs).
RunResult runThroughSlurm(const RunRequest& req, const SlurmOptions& o);

/// The sweep's cells run over o.nodes job steps at once (contiguous shares, in order), one result per cell (a
/// default result for a cell without a request). A step that fails costs its remaining points, which are run
/// again once on a fresh step; what is still missing says which node lost it. Progress lines go to stderr.
std::vector<RunResult> runCellsThroughSlurm(const std::vector<SweepCell>& cells, const SlurmOptions& o);

/// `info`'s list of the GPU's current users through NVML (gpu_sharing.h), or why it cannot be read.
std::string gpuUsersNow(Engine& engine);

/// How `sweep` runs its cells: in `engine`, or with --slurm over o.nodes job steps (runCellsThroughSlurm, run at
/// once) whose results the returned function hands back in the cells' order, as runSweep asks for them.
RunFn sweepRunner(Engine& engine, const std::vector<SweepCell>& cells, const SlurmOptions& o);

/// Prints the sweep's crossovers; points measured on more than one GPU model (a sweep over nodes) are never compared
/// with each other: the crossovers are found per GPU, each group headed by its GPU's name.
void printCrossoversPerDevice(const std::vector<std::string>& fields, const std::vector<SweepPoint>& points);

}  // namespace launchlab::cli
