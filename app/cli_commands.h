#pragma once
// launchlab-cli's commands over the engine and the checks they share (cli_commands.cpp); commands/ declares
// the options of each subcommand and dispatches to these.
#include <filesystem>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "cli_ceilings.h"
#include "cli_kernel.h"
#include "cli_occupancy.h"
#include "cli_slurm.h"
#include "launchlab/engine/engine.h"
#include "launchlab/engine/request.h"
#include "launchlab/explorer/sweep.h"

namespace launchlab::cli {

struct BadUsage : std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct RunOptions {
  RequestText text;
  std::string json, saveOutputs, saveRun;
  std::vector<std::string> params, inputs;
  cli::KernelOptions kernel;  ///< run --kernel-file: a student's kernel as "my-kernel"
  bool traceBlocks = false;
  bool dryRun = false;        ///< run: print the request's command line (command_line.h) after parsing it, run nothing
  bool counters = false;      ///< run --counters, profile: hardware counters (--metrics, else defaultCounters())
  std::string counterSource;  ///< --counters=auto|hardware|accesses (launchlab/profiler/fallback_profiler.h)
  bool byLine = false;        ///< profile --by-line: counters measured from the accesses, per source line
  std::string metrics;
  cli::SlurmOptions slurm;  ///< --slurm: run in a Slurm job step (cli_slurm.h)
};

struct SweepOptions {
  RunOptions run;
  std::string csv;
};

/// `course run ID`: the experiment's request, with the options given on the command line in its place.
struct CourseRunOptions {
  std::string id, impls, reps, warmup;
  bool numba = false;                ///< --numba: the seed's own Numba kernel runs too, as my-kernel
  std::vector<std::string> predict;  ///< --predict: an answer to each of the experiment's questions, in order
  RunOptions run;
};

[[noreturn]] void badRequest(const RequestProblem& p);

RunRequest buildRequest(const Engine& engine, const RunOptions& o);

/// Creating a file in `folder` works (permissions alone do not tell: root, read-only mounts, /proc).
void checkWritable(const std::string& option, const std::filesystem::path& folder);

/// An output path must be writable before anything runs: a bad path is bad input (exit 2), not a failed run.
void checkOutputFile(const std::string& option, const std::string& path);

/// An output folder (created when missing, as saving would) must take files before anything runs.
void checkOutputFolder(const std::string& option, const std::string& path);

/// `kept`, when given, receives the run's result.
int cmdRun(Engine& engine, const RunOptions& o, RunResult* kept = nullptr);

/// `show F.llrun`: a saved run as `run` prints it, headed by where and when it was measured.
int cmdShow(const std::string& path);

/// `extra`, when given, receives every point as the table does.
int cmdSweep(Engine& engine, const SweepOptions& o, SweepSink* extra = nullptr);

int cmdOccupancy(Engine& engine, const cli::OccupancyOptions& o);

int cmdCeilings(Engine& engine, const cli::CeilingsOptions& o);

/// --course-dir: the folder's experiments join the course. A refused file is one line on stderr (path and field)
/// and the others load; a folder that is not one, or --course-dir-only alone, is bad usage.
void loadCourseDir(const std::optional<std::string>& dir, bool only);

/// What `info` prints: the devices and who uses the GPU now (the course's device-query note prints the same).
std::string deviceQueryText(Engine& engine);

int cmdCourseRun(Engine& engine, CourseRunOptions o);

}  // namespace launchlab::cli
