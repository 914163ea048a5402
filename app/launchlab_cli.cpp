// launchlab-cli: the command-line front end (no Qt). Exit codes: 0 ok, 1 a run failed or failed
// verification, 2 bad input (one line on stderr naming the problem).
#include <CLI/CLI.hpp>

#include <cstdio>
#include <filesystem>
#include <iostream>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "cli_table.h"
#include "launchlab/engine.h"
#include "launchlab/io/files.h"
#include "launchlab/io/json.h"
#include "launchlab/kernels.h"
#include "launchlab/parse.h"
#include "launchlab/worker.h"
#include "bench.h"

using namespace launchlab;

namespace {

struct BadUsage : std::runtime_error {
  using std::runtime_error::runtime_error;
};

std::pair<std::string, std::string> splitAssign(const std::string& s, const char* what) {
  auto eq = s.find('=');
  if (eq == std::string::npos || eq == 0 || eq + 1 == s.size())
    throw BadUsage(std::string(what) + " '" + s + "' must look like NAME=VALUE");
  return {s.substr(0, eq), s.substr(eq + 1)};
}

std::vector<std::string> splitList(const std::string& s) {
  std::vector<std::string> out;
  std::string cur;
  for (char c : s) {
    if (c == ',') {
      if (!cur.empty()) out.push_back(cur);
      cur.clear();
    } else {
      cur += c;
    }
  }
  if (!cur.empty()) out.push_back(cur);
  return out;
}

void writeOut(const std::string& target, const std::string& text) {
  if (target == "-") {
    std::cout << text << "\n";
    return;
  }
  files::writeAtomic(target, text + "\n");
}

struct RunOptions {
  std::string workload;
  std::string n, dtype, block = "auto", grid = "auto", impl = "all", json, saveOutputs;
  int reps = 5, warmup = 1;
  long long seed = 42;
  std::vector<std::string> params, inputs;
};

RunRequest buildRequest(const RunOptions& o) {
  RunRequest req;
  req.workload = o.workload;
  if (!o.n.empty()) {
    std::string err;
    auto n = parseSize(o.n, &err);
    if (!n) throw BadUsage("--n: " + err);
    req.n = *n;
  }
  if (!o.dtype.empty()) {
    auto t = parseDType(o.dtype);
    if (!t) throw BadUsage("--dtype: unknown dtype '" + o.dtype + "' (use f32, f64 or i32)");
    req.dtype = *t;
  }
  std::string err;
  if (o.block != "auto") {
    auto b = parseDim3(o.block, &err);
    if (!b) throw BadUsage("--block: " + err);
    req.launch.block = *b;
  }
  if (o.grid != "auto") {
    auto g = parseDim3(o.grid, &err);
    if (!g) throw BadUsage("--grid: " + err);
    req.launch.grid = *g;
  }
  req.impls = splitList(o.impl);
  if (req.impls.empty()) throw BadUsage("--impl: empty list");
  if (o.seed < 0) throw BadUsage("--seed must be >= 0");
  req.seed = static_cast<std::uint64_t>(o.seed);
  req.reps = o.reps;
  req.warmup = o.warmup;
  for (const auto& p : o.params) {
    auto [k, v] = splitAssign(p, "--param");
    req.params[k] = v;
  }
  for (const auto& p : o.inputs) {
    auto [k, v] = splitAssign(p, "--input");
    req.inputFiles[k] = v;
  }
  req.keepInputs = req.keepOutputs = !o.saveOutputs.empty();
  return req;
}

int cmdRun(Engine& engine, const RunOptions& o) {
  RunRequest req = buildRequest(o);
  if (auto problems = engine.validate(req); !problems.empty()) throw BadUsage(problems.front().message);
  if (!o.json.empty() && o.json != "-") {
    auto parent = std::filesystem::path(o.json).parent_path();
    if (!parent.empty() && !std::filesystem::is_directory(parent))
      throw BadUsage("--json: folder " + parent.string() + " does not exist");
  }
  RunResult r = engine.run(req);
  if (o.json != "-") std::cout << cli::renderRun(r);
  if (!o.json.empty()) writeOut(o.json, json::runResult(r));
  if (!o.saveOutputs.empty()) {
    int files = files::saveRunArrays(r, o.saveOutputs);
    std::cerr << "saved " << files << " .npy files under " << o.saveOutputs << "\n";
  }
  if (r.status == Status::Failed) {
    std::cerr << "launchlab-cli: run failed: " << r.reason << "\n";
    return 1;
  }
  if (!r.allPassed()) {
    for (const auto& i : r.impls) {
      if (i.status == Status::Failed) std::cerr << "launchlab-cli: " << i.implId << " failed: " << i.reason << "\n";
      else if (!i.verification.passed())
        std::cerr << "launchlab-cli: " << i.implId << " failed verification (" << i.verification.mismatches
                  << " mismatches)\n";
    }
    return 1;
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"LaunchLab command line: run the course's CUDA experiments, time and verify them.", "launchlab-cli"};
  app.require_subcommand(1);
  app.set_help_all_flag("--help-all", "Help for every subcommand");

  bool listJson = false, infoJson = false;
  auto* list = app.add_subcommand("list", "List the workloads and their implementations");
  list->add_flag("--json", listJson, "Machine-readable output (schema: docs/JSON_SCHEMA.md)");
  auto* info = app.add_subcommand("info", "Show the GPU (or why there is none) and its limits");
  info->add_flag("--json", infoJson, "Machine-readable output");

  RunOptions ro;
  auto* run = app.add_subcommand("run", "Run a workload's implementations, time and verify them");
  run->add_option("workload", ro.workload, "Workload id (see 'list')")->required();
  run->add_option("--n", ro.n, "Size in elements: 1000, 1M, 16Mi, 2^24");
  run->add_option("--dtype", ro.dtype, "f32, f64 or i32 (where the workload supports it)");
  run->add_option("--block", ro.block, "Threads per block: B or BxBy, or auto")->default_str("auto");
  run->add_option("--grid", ro.grid, "Blocks per grid: G or GxGy, or auto")->default_str("auto");
  run->add_option("--impl", ro.impl, "Comma-separated implementation ids, or all")->default_str("all");
  run->add_option("--reps", ro.reps, "Timed repetitions (median, min, max reported)")->default_val(5);
  run->add_option("--warmup", ro.warmup, "Untimed warm-up repetitions")->default_val(1);
  run->add_option("--seed", ro.seed, "Seed of the deterministic input generator")->default_val(42);
  run->add_option("--param", ro.params, "Workload parameter NAME=VALUE (repeatable)");
  run->add_option("--input", ro.inputs, "Load input NAME from a .npy file: NAME=FILE.npy (repeatable)");
  run->add_option("--save-outputs", ro.saveOutputs, "Write DIR/inputs/<input>.npy and DIR/<impl>/<output>.npy");
  run->add_option("--json", ro.json, "Write the full result as JSON to FILE, or - for stdout");

  BenchOptions bo;
  auto* bench = app.add_subcommand("bench", "Measure the foundation's figures (bandwidth ceilings and the first workloads)");
  bench->add_option("--json", bo.json, "Write the figures as JSON to FILE, or - for stdout");
  bench->add_flag("--quick", bo.quick, "Small sizes (a smoke test, not a measurement)");
  bench->add_option("--reps", bo.reps, "Timed repetitions per point")->default_val(20);

  auto* worker = app.add_subcommand("worker", "Serve runs over stdin/stdout for a front end (GPU process isolation)");
  worker->group("");  // internal: started by the GUI, not by users

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
    Registry registry;
    kernels::registerAllWorkloads(registry);
    Engine engine(registry, kernels::makeDefaultGpuRuntime());
    if (list->parsed()) {
      std::cout << (listJson ? json::workloads(registry) + "\n" : cli::renderWorkloads(registry));
      return 0;
    }
    if (info->parsed()) {
      if (infoJson) std::cout << json::deviceStatus(engine.deviceStatus()) << "\n";
      else std::cout << cli::renderDevice(engine.deviceStatus(), kernels::builtWithCuda());
      return 0;
    }
    if (run->parsed()) return cmdRun(engine, ro);
    if (worker->parsed()) return serveWorker(engine, 0, 1);
    if (bench->parsed()) return runBench(engine, bo);
  } catch (const BadUsage& e) {
    std::cerr << "launchlab-cli: " << e.what() << "\n";
    return 2;
  } catch (const std::exception& e) {
    std::cerr << "launchlab-cli: " << e.what() << "\n";
    return 1;
  }
  return 0;
}
