// launchlab-cli: the command-line front end (no Qt). Exit codes: 0 ok, 1 a run failed or failed
// verification, 2 bad input (one line on stderr naming the problem). Each subcommand is a file of commands/
// (registry.cpp lists them); this file parses the line, sets up the engine and runs the parsed subcommand.
#include <CLI/CLI.hpp>
#include <cstdlib>
#include <iostream>
#include <string>

#include "cli_kernel.h"
#include "cli_profile.h"
#include "cli_render.h"
#include "cli_slurm.h"
#include "commands/command.h"
#include "launchlab/engine/engine.h"
#include "launchlab/kernels.h"
#include "launchlab/profiler/cupti_profiler.h"

using namespace launchlab;

namespace {

/// Where counters come from: the option's value; a worker (a kernel of the student's runs in one) takes its
/// parent's, which the parent hands down in the environment.
std::string counterSourceText(const std::string& option, bool inWorker) {
  static constexpr const char* kVariable = "LAUNCHLAB_COUNTER_SOURCE";
  if (inWorker) {
    const char* inherited = std::getenv(kVariable);
    return inherited ? inherited : "";
  }
  if (!option.empty()) ::setenv(kVariable, option.c_str(), 1);
  return option;
}

/// Sets up the engine the parsed subcommand runs with (its counter profiler and GPU monitor) and runs it.
int runCommand(const cli::Command& command, const CLI::App& app) {
  if (command.runAlone) return command.runAlone();
  Registry registry;
  kernels::registerAllWorkloads(registry);
  Engine engine(registry, kernels::makeDefaultGpuRuntime());
  cli::RunOptions* counters = command.counters.get();
  const std::string sourceText =
      counterSourceText(counters ? counters->counterSource : "", command.inheritsCounterSource);
  const auto source = profiler::parseCounterSource(sourceText);
  if (!source) throw cli::BadUsage("--counters: auto, hardware or accesses, not '" + sourceText + "'");
  if (counters) counters->counters = counters->counters || !counters->counterSource.empty();
  const auto counterProfiler = std::make_shared<profiler::FallbackProfiler>(profiler::makeCuptiProfiler(), *source);
  engine.setCounterProfiler(counterProfiler);
  cli::showCountersFrom(counterProfiler.get(), counters && counters->byLine);
  engine.setGpuMonitor(makeNvmlMonitor());
  if (command.checksEmptyValues) cli::rejectEmptyValues(app);
  cli::Context context{engine, registry, *counterProfiler, app};
  return command.run(context);
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"LaunchLab command line: run the course's CUDA experiments, time and verify them.", "launchlab-cli"};
  app.require_subcommand(1);
  app.set_help_all_flag("--help-all", "Help for every subcommand");
  const std::vector<cli::Command> commands = cli::addCommands(app);
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    std::string what = e.what();
    std::cerr << "launchlab-cli: " << (what.empty() ? e.get_name() : what) << " (see launchlab-cli --help)\n";
    return 2;
  }
  try {
    for (const cli::Command& command : commands)
      if (command.app->parsed()) return runCommand(command, app);
  } catch (const cli::BadUsage& e) {
    std::cerr << "launchlab-cli: " << e.what() << "\n";
    return 2;
  } catch (const cli::RenderInputError& e) {
    std::cerr << "launchlab-cli: render: " << e.what() << "\n";
    return 2;
  } catch (const cli::SlurmInputError& e) {
    std::cerr << "launchlab-cli: " << e.what() << "\n";
    return 2;
  } catch (const cli::KernelInputError& e) {
    std::cerr << "launchlab-cli: " << e.what() << "\n";
    return 2;
  } catch (const std::exception& e) {
    std::cerr << "launchlab-cli: " << e.what() << "\n";
    return 1;
  }
  return 0;
}
