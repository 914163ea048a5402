#pragma once
// launchlab-cli's subcommands: each file of this folder declares one subcommand's options next to what runs it, and
// registry.cpp lists them in the order --help shows them. main (launchlab_cli.cpp) parses the line, sets up the
// engine and calls the parsed subcommand; a subcommand's bad input is BadUsage (or an input error of its own), exit 2.
#include <CLI/CLI.hpp>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "cli_commands.h"
#include "launchlab/engine/engine.h"
#include "launchlab/engine/registry.h"
#include "launchlab/profiler/fallback_profiler.h"

namespace launchlab::cli {

/// What a subcommand runs with: the engine (its counter profiler and GPU monitor set) and the whole command line.
struct Context {
  Engine& engine;
  const Registry& registry;
  profiler::FallbackProfiler& profiler;
  const CLI::App& app;
};

struct Command {
  CLI::App* app = nullptr;
  std::function<int(Context&)> run;
  /// Runs instead of `run`, before any engine is made (bench-geometry times a kernel of its own).
  std::function<int()> runAlone;
  /// run, profile, sweep: the options whose --counters (and --by-line) choose where counters come from.
  std::shared_ptr<RunOptions> counters;
  /// The worker: its counters come from where its parent's do (LAUNCHLAB_COUNTER_SOURCE).
  bool inheritsCounterSource = false;
  /// list, info and course's listing print without checking for empty option values (`course run` checks them).
  bool checksEmptyValues = true;
};

/// Every subcommand, added to `app` in the order of --help.
std::vector<Command> addCommands(CLI::App& app);

/// An option given with an empty value ("--n ''") is a mistake, never "the default".
void rejectEmptyValues(const CLI::App& app);
void addDeviceOption(CLI::App* cmd, std::string& device);
/// The request's options shared by run, check, profile, sweep and render: the workload, its size and dtype, ...
void addRequestOptions(CLI::App* cmd, RunOptions& o);
/// run and compile: the kernel file of a student's kernel and how to compile and run it.
void addKernelOptions(CLI::App* cmd, KernelOptions& k, bool required);
/// bench, ceilings, bench-render and worker: --device N selects the CUDA device for the whole process, parsed by the
/// request parser and checked by the runtime (a device that does not exist, or none at all, is bad input).
void selectDevice(Engine& engine, const std::string& text);
/// bench and ceilings: --reps within the engine's bounds.
void checkRepetitions(int reps);

// One per subcommand file.
Command addListCommand(CLI::App& app);
Command addInfoCommand(CLI::App& app);
Command addRunCommand(CLI::App& app);
Command addCompileCommand(CLI::App& app);
Command addCheckCommand(CLI::App& app);
Command addInstrumentCommand(CLI::App& app);
Command addProfileCommand(CLI::App& app);
Command addSweepCommand(CLI::App& app);
Command addOccupancyCommand(CLI::App& app);
Command addCeilingsCommand(CLI::App& app);
Command addCourseCommand(CLI::App& app);
Command addShowCommand(CLI::App& app);
Command addRenderCommand(CLI::App& app);
Command addBenchRenderCommand(CLI::App& app);
Command addBenchCommand(CLI::App& app);
Command addBenchGeometryCommand(CLI::App& app);
Command addWorkerCommand(CLI::App& app);

}  // namespace launchlab::cli
