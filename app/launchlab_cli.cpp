// launchlab-cli: the command-line front end (no Qt). Exit codes: 0 ok, 1 a run failed or failed
// verification, 2 bad input (one line on stderr naming the problem).
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <map>
#include <new>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "bench.h"
#include "cli_bench_geometry.h"
#include "cli_ceilings.h"
#include "cli_check.h"
#include "cli_course.h"
#include "cli_kernel.h"
#include "cli_occupancy.h"
#include "cli_outputs.h"
#include "cli_profile.h"
#include "cli_render.h"
#include "cli_slurm.h"
#include "cli_table.h"
#include "launchlab/command_line.h"
#include "launchlab/course.h"
#include "launchlab/crossover.h"
#include "launchlab/engine.h"
#include "launchlab/errors.h"
#include "launchlab/io/atomic_file.h"
#include "launchlab/io/files.h"
#include "launchlab/io/json.h"
#include "launchlab/io/run_file.h"
#include "launchlab/kernels.h"
#include "launchlab/parse.h"
#include "launchlab/profiler/cupti_profiler.h"
#include "launchlab/request.h"
#include "launchlab/sweep.h"
#include "launchlab/worker.h"

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

void writeOut(const std::string& target, const std::string& text) {
  if (target == "-") {
    std::cout << text << "\n";
    return;
  }
  files::writeAtomic(target, text + "\n");
}

struct RunOptions {
  RequestText text;
  std::string json, saveOutputs, saveRun;
  std::vector<std::string> params, inputs;
  cli::KernelOptions kernel;  ///< run --kernel-file: a student's kernel as "my-kernel"
  bool traceBlocks = false;
  bool dryRun = false;    ///< run: print the request's command line (command_line.h) after parsing it, run nothing
  bool counters = false;  ///< run --counters, profile: hardware counters (--metrics, else defaultCounters())
  std::string metrics;
  cli::SlurmOptions slurm;  ///< --slurm: run in a Slurm job step (cli_slurm.h)
};

/// The option a request field came from, for messages: "n" -> "--n", "param:sigma" -> "--param sigma".
std::string optionOf(const std::string& field) {
  if (field == "workload") return "workload";
  if (field == "params") return "--param";
  for (const char* prefix : {"param", "input"})
    if (field.rfind(std::string(prefix) + ":", 0) == 0)
      return "--" + std::string(prefix) + " " + field.substr(std::strlen(prefix) + 1);
  return "--" + field;
}

[[noreturn]] void badRequest(const RequestProblem& p) { throw BadUsage(optionOf(p.field) + ": " + p.message); }

/// The shared parser, then the engine's rules: the first problem becomes the one line on stderr.
/// The options as request text: repeated --param NAME=VALUE and --input NAME=FILE folded into their maps.
RequestText requestTextOf(const RunOptions& o) {
  RequestText t = o.text;
  for (const auto& p : o.params) {
    auto [k, v] = splitAssign(p, "--param");
    if (!t.params.emplace(k, v).second) throw BadUsage("--param " + k + ": given twice");
  }
  for (const auto& p : o.inputs) {
    auto [k, v] = splitAssign(p, "--input");
    if (!t.inputFiles.emplace(k, v).second) throw BadUsage("--input " + k + ": given twice");
  }
  return t;
}

/// --metrics: checked before anything else, so an unknown counter is refused on a machine without a GPU.
std::vector<std::string> countersOf(const RunOptions& o) {
  if (!o.counters && o.metrics.empty()) return {};
  if (o.metrics.empty()) return defaultCounters();
  CounterList list = parseCounterList(o.metrics);
  if (!list.error.ok()) throw BadUsage("--metrics: " + counterErrorMessage(list.error));
  return list.ids;
}

RunRequest buildRequest(const Engine& engine, const RunOptions& o) {
  const std::vector<std::string> counters = countersOf(o);
  ParsedRequest parsed = parseRequest(requestTextOf(o));
  parsed.request.counters = counters;
  if (!parsed.ok()) badRequest(parsed.problems.front());
  parsed.request.userKernel = cli::userKernelOf(o.kernel);
  if (auto problems = engine.validate(parsed.request); !problems.empty()) badRequest(problems.front());
  parsed.request.keepInputs = parsed.request.keepOutputs = !o.saveOutputs.empty() || !o.saveRun.empty();
  parsed.request.traceBlocks = o.traceBlocks;
  return parsed.request;
}

/// Creating a file in `folder` works (permissions alone do not tell: root, read-only mounts, /proc).
void checkWritable(const std::string& option, const std::filesystem::path& folder) {
  std::string probe = (folder / ".launchlab-write-test-XXXXXX").string();
  const int fd = ::mkstemp(probe.data());
  if (fd < 0) throw BadUsage(option + ": folder " + folder.string() + " is not writable");
  ::close(fd);
  ::unlink(probe.c_str());
}

/// An output path must be writable before anything runs: a bad path is bad input (exit 2), not a failed run.
void checkOutputFile(const std::string& option, const std::string& path) {
  if (path.empty() || path == "-") return;
  auto parent = std::filesystem::path(path).parent_path();
  if (parent.empty()) parent = ".";
  if (!std::filesystem::is_directory(parent))
    throw BadUsage(option + ": folder " + parent.string() + " does not exist");
  checkWritable(option, parent);
  if (std::filesystem::is_directory(path)) throw BadUsage(option + ": " + path + " is a folder");
  if (std::filesystem::exists(path) && !std::filesystem::is_regular_file(path))
    throw BadUsage(option + ": " + path + " is not a regular file (- writes to standard output)");
}

/// An output folder (created when missing, as saving would) must take files before anything runs.
void checkOutputFolder(const std::string& option, const std::string& path) {
  if (path.empty()) return;
  std::error_code ec;
  std::filesystem::create_directories(path, ec);
  if (ec || !std::filesystem::is_directory(path))
    throw BadUsage(option + ": cannot create folder " + path + (ec ? ": " + ec.message() : ": a file is in the way"));
  checkWritable(option, path);
}

/// An option given with an empty value ("--n ''") is a mistake, never "the default".
void rejectEmptyValues(const CLI::App& app) {
  for (const CLI::App* cmd : app.get_subcommands()) {
    for (const CLI::Option* opt : cmd->get_options())
      for (const auto& v : opt->results())
        if (v.empty() && opt->get_type_size() != 0) throw BadUsage(opt->get_name() + ": empty value");
    rejectEmptyValues(*cmd);  // nested: course run
  }
}

void addDeviceOption(CLI::App* cmd, std::string& device) {
  cmd->add_option("--device", device, "CUDA device index (see 'info'; default 0 or $LAUNCHLAB_DEVICE)");
}

void addRequestOptions(CLI::App* cmd, RunOptions& o) {
  cmd->add_option("workload", o.text.workload, "Workload id (see 'list')")->required();
  cmd->add_option("--n", o.text.n, "Size in elements: 1000, 1M, 16Mi, 2^24");
  cmd->add_option("--dtype", o.text.dtype, "f32, f64, i16, i32 or i64 (where the workload supports it)");
  cmd->add_option("--impl", o.text.impls, "Comma-separated implementation ids, or all")->default_str("all");
  cmd->add_option("--reps", o.text.reps, "Timed repetitions (median, min, max reported)")->default_str("5");
  cmd->add_option("--warmup", o.text.warmup, "Untimed warm-up repetitions")->default_str("1");
  cmd->add_option("--seed", o.text.seed, "Seed of the deterministic input generator")->default_str("42");
  cmd->add_option("--param", o.params, "Workload parameter NAME=VALUE (repeatable)");
  cmd->add_option("--input", o.inputs, "Load input NAME from a .npy file: NAME=FILE.npy (repeatable)");
  addDeviceOption(cmd, o.text.device);
}

/// bench and worker: --device N selects the CUDA device for the whole process, parsed by the request parser and
/// checked by the runtime (a device that does not exist, or none at all, is bad input).
void selectDevice(Engine& engine, const std::string& text) {
  if (text.empty()) return;
  RequestText t;
  t.device = text;
  const ParsedRequest parsed = parseRequest(t);
  if (!parsed.ok()) badRequest(parsed.problems.front());
  if (std::string why = engine.gpu().selectDevice(*parsed.request.device); !why.empty()) badRequest({"device", why});
}

/// run and compile: the kernel file of a student's kernel and how to compile and run it.
void addKernelOptions(CLI::App* cmd, cli::KernelOptions& k, bool required) {
  auto* file = cmd->add_option("--kernel-file", k.file,
                               "A kernel of your own (.cu) for the workload's exercise, run "
                               "as \"my-kernel\" (kernels/<workload>/exercise*.cu, docs/EXERCISES.md)");
  if (required) file->required();
  cmd->add_option("--kernel-name", k.name, "The kernel's name in the file (default: the exercise's)");
  cmd->add_option("--exercise", k.exercise, "The exercise (default: the workload's own, e.g. vector_add_grid_stride)");
  cmd->add_option("--gpu-profile", k.gpuProfile, "Compile for this architecture (sm_75 … sm_90) instead of the GPU's");
  if (!required)
    cmd->add_option("--kernel-time-limit", k.timeLimitS, "Seconds after which a silent kernel is stopped")
        ->default_val(10);
}

/// --json and --save-run together or not at all: a failure writing one leaves both files as they were.
void writeRunFiles(const RunOptions& o, const RunResult& r) {
  files::StagedWrites out;  // each add() writes at once, aside; commit() puts both in place
  if (!o.json.empty()) {
    const std::string text = json::runResult(r) + "\n";
    if (o.json == "-")
      std::cout << text;
    else
      out.add(o.json, {text});
  }
  if (!o.saveRun.empty()) out.add(o.saveRun, {runfile::serialize(o.saveRun, r)});
  out.commit();
  if (!o.saveRun.empty())
    std::cerr << "saved the run to " << o.saveRun << " (open it with launchlab-cli show or the window)\n";
}

int cmdRun(Engine& engine, const RunOptions& o) {
  RunRequest req = buildRequest(engine, o);
  if (o.dryRun) {
    std::cout << runCommandLine(req) << "\n";
    return 0;
  }
  checkOutputFile("--json", o.json);
  checkOutputFolder("--save-outputs", o.saveOutputs);
  if (o.saveRun == "-") throw BadUsage("--save-run: give a file name (a run file is binary)");
  checkOutputFile("--save-run", o.saveRun);
  if (auto clash = cli::outputClash({{"--json", o.json}, {"--save-run", o.saveRun}, {"--save-outputs", o.saveOutputs}},
                                    req.inputFiles);
      !clash.empty())
    throw BadUsage(clash);
  cli::SlurmOptions slurm = o.slurm;
  cli::resolveSlurmOptions(slurm);
  if (req.userKernel) cli::compileOrThrow(engine, req.workload, *req.userKernel, o.kernel.gpuProfile, true);
  RunResult r = slurm.enabled    ? cli::runThroughSlurm(req, slurm)
                : req.userKernel ? cli::runInWorker(req)
                                 : engine.run(req);
  if (o.json != "-") std::cout << cli::renderRun(r) << cli::renderCounters(r);
  writeRunFiles(o, r);
  if (!o.saveOutputs.empty()) {
    const Workload* w = engine.registry().find(r.workload);
    int files = files::saveRunArrays(r, o.saveOutputs, w ? &w->info() : nullptr);
    std::cerr << "saved " << files << " .npy files under " << o.saveOutputs << "\n";
  }
  if (r.status == Status::Failed) {
    std::cerr << "launchlab-cli: run failed: " << r.reason << "\n";
    return 1;
  }
  if (const std::string why = cli::countersFailure(r); !why.empty() && !req.counters.empty()) {
    std::cerr << "launchlab-cli: " << why << "\n";
    return 1;
  }
  if (!r.allPassed()) {
    for (const auto& i : r.impls) {
      if (i.status == Status::Failed)
        std::cerr << "launchlab-cli: " << i.implId << " failed: " << i.reason << "\n";
      else if (!i.verification.passed())
        std::cerr << "launchlab-cli: " << i.implId << " failed verification (" << i.verification.mismatches
                  << " mismatches)\n";
    }
    return 1;
  }
  return 0;
}

/// `show F.llrun`: a saved run as `run` prints it, headed by where and when it was measured.
int cmdShow(const std::string& path) {
  RunResult r;
  try {
    r = runfile::load(path);
  } catch (const BadInput& e) {
    throw BadUsage(e.what());
  } catch (const std::bad_alloc&) {
    throw BadUsage(path + ": not enough memory to open it");
  }
  std::cout << "recorded on " << runfile::recordedOn(r) << "   host: " << r.host << "\n" << cli::renderRun(r);
  return 0;
}

struct SweepOptions {
  RunOptions run;
  std::string csv;
};

/// Fields given as a list or a range ("32:1024:32", "f32,f64", "sigma=0.5,1,2") become the sweep's axes; "sm*k"
/// is k times `smCount`.
SweepPlan sweepPlan(const RunOptions& o, int smCount) {
  SweepPlan plan;
  plan.base = requestTextOf(o);
  const RequestText& t = plan.base;
  std::vector<std::pair<std::string, std::string>> fields = {{"n", t.n}, {"dtype", t.dtype}};
  for (const auto& [k, v] : t.params) fields.emplace_back("param:" + k, v);
  fields.insert(fields.end(), {{"block", t.block}, {"grid", t.grid}});
  for (const auto& [field, text] : fields) {
    if (text.find_first_of(",:") == std::string::npos && text.rfind("sm", 0) != 0) continue;
    std::string err;
    auto values = axisValues(text, &err, smCount);
    if (!values) throw BadUsage(optionOf(field) + ": " + err);
    plan.axes.push_back({field, *values});
  }
  if (plan.axes.empty())
    throw BadUsage(
        "sweep: give a list or a range to at least one of --block, --grid, --n, "
        "--dtype, --param (e.g. --block 32:1024:32)");
  return plan;
}

int cmdSweep(Engine& engine, const SweepOptions& o) {
  const SweepPlan plan = sweepPlan(o.run, smCountForSweeps(engine.deviceStatus()));
  checkOutputFile("--json", o.run.json);
  checkOutputFile("--csv", o.csv);
  if (auto clash = cli::outputClash({{"--json", o.run.json}, {"--csv", o.csv}}, plan.base.inputFiles); !clash.empty())
    throw BadUsage(clash);
  std::vector<RequestProblem> problems;
  const auto cells = expandSweep(
      plan, [&](const RunRequest& r) { return engine.validate(r); }, problems);
  if (!problems.empty()) badRequest(problems.front());
  SweepTable table;
  SweepRecord record{nowIso8601(), 0};
  if (engine.deviceStatus().available && !o.run.json.empty())  // the ceiling the window's "% of cudaMemcpy" needs
    record.copyGBs =
        engine.gpu().measureCopyBandwidthGBs(std::min(std::size_t(1) << 30, engine.gpu().memoryInfo().first / 4), 10);
  cli::SlurmOptions slurm = o.run.slurm;
  cli::resolveSlurmOptions(slurm);
  runSweep(plan, cells, cli::sweepRunner(engine, cells, slurm), {&table});
  if (o.csv != "-" && o.run.json != "-") {
    std::cout << cli::renderSweep(table.fields(), table.points());
    cli::printCrossoversPerDevice(table.fields(), table.points());
  }
  if (!o.csv.empty()) writeOut(o.csv, sweepCsv(table.fields(), table.points()));
  if (!o.run.json.empty()) writeOut(o.run.json, sweepJson(plan, table.points(), engine.deviceStatus(), record));
  bool ok = true;
  for (const auto& p : table.points())
    ok = ok && (p.status == Status::Skipped || (p.status == Status::Ok && p.outcome != Verification::Outcome::Fail));
  return ok ? 0 : 1;
}

int cmdOccupancy(Engine& engine, const cli::OccupancyOptions& o) {
  checkOutputFile("--json", o.json);
  auto report = cli::occupancyFor(engine, o);
  if (auto* p = std::get_if<RequestProblem>(&report)) badRequest(*p);
  const auto& r = std::get<OccupancyReport>(report);
  if (o.json != "-") std::cout << cli::renderOccupancy(r);
  if (!o.json.empty()) writeOut(o.json, occupancyReportJson(r));
  return 0;
}

int cmdCeilings(Engine& engine, const cli::CeilingsOptions& o) {
  checkOutputFile("--json", o.json);
  auto report = cli::ceilingsFor(engine, o);
  if (auto* p = std::get_if<RequestProblem>(&report)) badRequest(*p);
  const auto& r = std::get<cli::CeilingsReport>(report);
  if (o.json != "-") std::cout << cli::renderCeilings(r);
  if (!o.json.empty()) writeOut(o.json, ceilingsJson(r.ceilings));
  return r.ceilings.valid() ? 0 : 1;
}

/// --course-dir: the folder's experiments join the course. A refused file is one line on stderr (path and field)
/// and the others load; a folder that is not one, or --course-dir-only alone, is bad usage.
void loadCourseDir(const std::string& dir, bool only) {
  if (dir.empty()) {
    if (only) throw BadUsage("--course-dir-only needs --course-dir");
    return;
  }
  if (!std::filesystem::is_directory(dir)) throw BadUsage("--course-dir: " + dir + " is not a folder");
  for (const auto& p : useCourseDir(dir, only)) std::cerr << "launchlab-cli: --course-dir: " << p << "\n";
}

/// `course run ID`: the experiment's request, with the options given on the command line in its place.
struct CourseRunOptions {
  std::string id, impls, reps, warmup;
  RunOptions run;
};

/// What `info` prints: the devices and who uses the GPU now (the course's device-query note prints the same).
std::string deviceQueryText(Engine& engine) {
  return cli::renderDevice(engine.deviceStatus(), kernels::builtWithCuda()) + cli::gpuUsersNow(engine) + "\n";
}

int cmdCourseRun(Engine& engine, CourseRunOptions o) {
  const CourseExperiment* e = findCourseExperiment(o.id);
  if (const CourseNote* n = e ? nullptr : findCourseNote(o.id)) {  // a seed experiment without a workload run
    std::cout << n->id << ": " << n->title << "\n  note: " << n->text << "\n";
    if (n->command == "info") std::cout << deviceQueryText(engine);
    return 0;
  }
  if (!e) throw BadUsage(unknownCourseMessage(o.id));
  o.run.text = sweepRequestText(*e);
  if (!o.impls.empty()) o.run.text.impls = o.impls;
  if (!o.reps.empty()) o.run.text.reps = o.reps;
  if (!o.warmup.empty()) o.run.text.warmup = o.warmup;
  if (o.run.json != "-") std::cout << e->id << ": " << e->title << "\n  look for: " << e->lookFor << "\n";
  if (!e->sweep.empty()) return cmdSweep(engine, SweepOptions{o.run, ""});
  return cmdRun(engine, o.run);
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
  addRequestOptions(run, ro);
  run->add_option("--block", ro.text.block, "Threads per block: B or BxBy, or auto")->default_str("auto");
  run->add_option("--grid", ro.text.grid, "Blocks per grid: G or GxGy, or auto")->default_str("auto");
  run->add_option("--save-outputs", ro.saveOutputs, "Write DIR/inputs/<input>.npy and DIR/<impl>/<output>.npy");
  run->add_option("--json", ro.json, "Write the full result as JSON to FILE, or - for stdout");
  run->add_option("--save-run", ro.saveRun, "Save the whole run (result and arrays) as a run file FILE.llrun");
  addKernelOptions(run, ro.kernel, false);
  cli::addSlurmOptions(run, ro.slurm, false);
  run->add_flag("--counters", ro.counters,
                "Also measure hardware counters of every GPU implementation (see "
                "'profile --help' for --metrics)");
  run->add_option("--metrics", ro.metrics, "With --counters: the counters, comma-separated, or all");
  run->add_flag("--trace-blocks", ro.traceBlocks,
                "Run the instrumented kernels: every block's SM and start/end time (blocks on SMs, JSON block_trace)");

  std::string compileWorkload;
  cli::KernelOptions ko;
  auto* compile = app.add_subcommand("compile",
                                     "Compile a kernel of your own for a workload's exercise with NVRTC "
                                     "(no GPU needed): diagnostics as FILE:LINE:COL: error: TEXT");
  compile->add_option("workload", compileWorkload, "Workload id (see 'list')")->required();
  addKernelOptions(compile, ko, true);
  RunOptions cko;  // check: run's request options and a kernel file, run under compute-sanitizer
  auto* check = app.add_subcommand("check",
                                   "Run a kernel of your own under compute-sanitizer (memcheck, then racecheck "
                                   "when it uses __shared__; once, at the exercise's check size unless "
                                   "--n): findings as FILE:LINE: TOOL: TEXT; exit 0 clean, 1 findings, "
                                   "a tool over its time limit, or no sanitizer/GPU");
  addRequestOptions(check, cko);
  for (const char* name : {"--impl", "--reps", "--warmup"}) check->remove_option(check->get_option(name));  // fixed
  check->add_option("--block", cko.text.block, "Threads per block: B or auto")->default_str("auto");
  check->add_option("--grid", cko.text.grid, "Blocks per grid: G or auto")->default_str("auto");
  addKernelOptions(check, cko.kernel, true);
  check->add_option("--time-limit", cko.kernel.timeLimitS, "Seconds each sanitizer tool may take")
      ->default_val(cli::kCheckTimeLimitS);
  run->add_flag("--dry-run", ro.dryRun, "Check the request and print the command line that runs it; run nothing");

  RunOptions po;  // profile: run's request options, counters always on
  auto* profile = app.add_subcommand("profile",
                                     "Run a workload once more under CUPTI's range profiler and show hardware "
                                     "counters per implementation: sectors per request, bank conflicts, "
                                     "DRAM bytes, occupancy…");
  addRequestOptions(profile, po);
  profile->add_option("--block", po.text.block, "Threads per block: B or BxBy, or auto")->default_str("auto");
  profile->add_option("--grid", po.text.grid, "Blocks per grid: G or GxGy, or auto")->default_str("auto");
  profile->add_option("--metrics", po.metrics, cli::metricsHelp());
  profile->add_option("--json", po.json,
                      "Write the run with its counters as JSON (launchlab.run) to FILE, or - for stdout");
  po.counters = true;
  cli::addSlurmOptions(profile, po.slurm, false);

  SweepOptions so;
  auto* sweep =
      app.add_subcommand("sweep", "Measure implementations over axes of launch shapes, sizes, dtypes or parameters");
  addRequestOptions(sweep, so.run);
  sweep->add_option("--block", so.run.text.block, "Block axis: 32:1024:32, 64,128,256, 16x16, or auto")
      ->default_str("auto");
  sweep
      ->add_option("--grid", so.run.text.grid,
                   "Grid axis: 132:4224:132, sm*1:sm*32:sm*1 (multiples of the SM count), a list, or auto")
      ->default_str("auto");
  sweep->add_option("--csv", so.csv, "Write the points as CSV to FILE, or - for stdout");
  sweep->add_option("--json", so.run.json, "Write the points as JSON to FILE, or - for stdout");
  cli::addSlurmOptions(sweep, so.run.slurm, true);

  cli::OccupancyOptions oo;
  auto* occupancy = app.add_subcommand("occupancy",
                                       "An implementation's kernels over block sizes: resources, blocks per "
                                       "SM, occupancy and its limiter, waves, launch hints");
  occupancy->add_option("workload", oo.text.workload, "Workload id (see 'list')")->required();
  occupancy->add_option("--impl", oo.text.impls, "One CUDA implementation id")->required();
  occupancy->add_option("--block", oo.text.block, "Blocks: 32:1024:32, 64,128,256, 16x16,32x8")
      ->default_str("32:1024:32");
  occupancy
      ->add_option("--grid", oo.text.grid,
                   "Grid for the waves (default: ceil(N / block), or what the GPU run launched)")
      ->default_str("auto");
  occupancy->add_option("--n", oo.text.n, "Size in elements (for the default grid)");
  occupancy->add_option("--dtype", oo.text.dtype, "The dtype whose kernel instantiations to show");
  occupancy->add_option("--gpu-profile", oo.gpuProfile,
                        "Theoretical figures of an architecture: sm_75, sm_80, sm_86, sm_89, sm_90");
  occupancy->add_option("--json", oo.json, "Write the report as JSON to FILE, or - for stdout");
  oo.text.block = "32:1024:32";

  std::string deviceText;
  cli::CeilingsOptions ceo;
  auto* ceilings = app.add_subcommand("ceilings",
                                      "The roofline's ceilings: copy bandwidth and FP32 FMA peak measured "
                                      "on the GPU, or a profile's datasheet without one");
  ceilings->add_option("--gpu-profile", ceo.gpuProfile,
                       "Datasheet figures of an architecture's GPU: sm_75, sm_80, sm_86, sm_89, sm_90");
  ceilings->add_option("--reps", ceo.reps, "Timed repetitions of each measurement (median)")->default_val(10);
  ceilings->add_option("--json", ceo.json, "Write the ceilings as JSON (launchlab.ceilings) to FILE, or - for stdout");
  addDeviceOption(ceilings, deviceText);

  bool courseJson = false;
  std::string presetsFolder;
  CourseRunOptions co;
  auto* course = app.add_subcommand("course", "List the course's experiments (the seed notebooks' presets) in order");
  course->add_flag("--json", courseJson, "Machine-readable output (schema launchlab.course)");
  std::string courseDir;
  bool courseDirOnly = false;
  course->add_option("--course-dir", courseDir,
                     "Also load the course files (*.json, docs/COURSE_FORMAT.md) of folder DIR: their experiments "
                     "follow the built-in course's (also for 'course run' and 'course presets')");
  course->add_flag("--course-dir-only", courseDirOnly, "With --course-dir: that folder's experiments alone");
  course->fallthrough();  // `course run ID --course-dir DIR` reads the option of `course`
  course->require_subcommand(0, 1);
  auto* courseRun = course->add_subcommand("run", "Run one course experiment as the seed launches it");
  courseRun->add_option("id", co.id, "Experiment id (see 'course')")->required();
  courseRun->add_option("--impl", co.impls, "Comma-separated implementation ids, or all (default: the preset's)");
  courseRun->add_option("--reps", co.reps, "Timed repetitions (default: the preset's)");
  courseRun->add_option("--warmup", co.warmup, "Untimed warm-up repetitions (default: the preset's)");
  courseRun->add_option("--save-outputs", co.run.saveOutputs,
                        "Write DIR/inputs/<input>.npy and DIR/<impl>/<output>.npy");
  courseRun->add_option("--json", co.run.json, "Write the full result as JSON to FILE, or - for stdout");
  courseRun->add_option("--save-run", co.run.saveRun,
                        "Save the whole run (result and arrays) as a run file FILE.llrun");
  cli::addSlurmOptions(courseRun, co.run.slurm, false);
  auto* coursePresets =
      course->add_subcommand("presets", "Write the course as the window's preset files (resources/presets)");
  coursePresets->add_option("folder", presetsFolder, "An existing folder")->required();

  std::string showPath;
  auto* show =
      app.add_subcommand("show", "Print a saved run file (.llrun) as 'run' prints it, with where it was measured");
  show->add_option("file", showPath, "A run file (run --save-run, or the window's Save run)")->required();

  RunOptions rno;  // render: run's request options, then the drawing's (cli_render.h)
  cli::RenderOptions rdo;
  auto* render = app.add_subcommand("render",
                                    "Run a workload and draw one output with the GPU plot renderer (EGL + "
                                    "OpenGL, CUDA–OpenGL interop on a GPU) into a PNG");
  addRequestOptions(render, rno);
  cli::addRenderOptions(render, rdo);
  std::string benchRenderJson;
  bool benchRenderQuick = false;
  auto* benchRender = app.add_subcommand("bench-render",
                                         "Frame breakdown of the GPU plot views (map, kernel, unmap, "
                                         "draw, readback): interop against host upload, per-view fps");
  benchRender->add_option("--json", benchRenderJson, "Write the figures as JSON to FILE, or - for stdout");
  benchRender->add_flag("--quick", benchRenderQuick, "Small sizes (a smoke test, not a measurement)");
  addDeviceOption(benchRender, deviceText);

  BenchOptions bo;
  auto* bench =
      app.add_subcommand("bench", "Measure the foundation's figures (bandwidth ceilings and the first workloads)");
  bench->add_option("--json", bo.json, "Write the figures as JSON to FILE, or - for stdout");
  bench->add_flag("--quick", bo.quick, "Small sizes (a smoke test, not a measurement)");
  bench->add_option("--reps", bo.reps, "Timed repetitions per point")->default_val(20);
  bench
      ->add_option("--section", bo.sections,
                   "Only these parts, comma-separated: host, foundation, memory, coalescing, row_col_sums, matmul, "
                   "mandelbrot (default: all)")
      ->delimiter(',');
  addDeviceOption(bench, deviceText);

  cli::BenchGeometryOptions bgo;
  auto* benchGeometry = cli::addBenchGeometry(app, bgo);

  auto* worker = app.add_subcommand("worker", "Serve runs over stdin/stdout for a front end (GPU process isolation)");
  worker->group("");                    // internal: started by the GUI, not by users
  addDeviceOption(worker, deviceText);  // the device of requests that name none

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
    if (benchGeometry->parsed()) return cli::runBenchGeometry(bgo);
    Registry registry;
    kernels::registerAllWorkloads(registry);
    Engine engine(registry, kernels::makeDefaultGpuRuntime());
    const auto counterProfiler = profiler::makeCuptiProfiler();
    engine.setCounterProfiler(counterProfiler);
    engine.setGpuMonitor(makeNvmlMonitor());
    if (list->parsed()) {
      std::cout << (listJson ? json::workloads(registry) + "\n" : cli::renderWorkloads(registry));
      return 0;
    }
    if (info->parsed()) {
      if (infoJson)
        std::cout << json::deviceStatus(engine.deviceStatus()) << "\n";
      else
        std::cout << deviceQueryText(engine);
      return 0;
    }
    if (course->parsed()) loadCourseDir(courseDir, courseDirOnly);
    if (course->parsed() && !courseRun->parsed() && !coursePresets->parsed()) {
      std::cout << (courseJson ? json::course() + "\n" : cli::renderCourse());
      return 0;
    }
    rejectEmptyValues(app);
    if (courseRun->parsed()) return cmdCourseRun(engine, co);
    if (coursePresets->parsed()) {
      if (!std::filesystem::is_directory(presetsFolder))
        throw BadUsage("course presets: " + presetsFolder + " is not a folder");
      checkWritable("course presets", presetsFolder);
      const int written = cli::writeCoursePresets(presetsFolder, registry);
      std::cerr << "wrote " << written << " presets under " << presetsFolder << "\n";
      return 0;
    }
    if (bench->parsed()) checkOutputFile("--json", bo.json);
    if (const std::string bad = bench->parsed() ? checkBenchSections(bo.sections) : ""; !bad.empty())
      throw BadUsage("--section: " + bad);
    if (const int reps = ceilings->parsed() ? ceo.reps : bo.reps;
        (bench->parsed() || ceilings->parsed()) && (reps < 1 || reps > kMaxRepetitions))
      throw BadUsage("--reps: must be between 1 and " + std::to_string(kMaxRepetitions));
    if (bench->parsed() || worker->parsed() || ceilings->parsed()) selectDevice(engine, deviceText);
    if (ceilings->parsed()) return cmdCeilings(engine, ceo);
    if (run->parsed()) return cmdRun(engine, ro);
    if (profile->parsed()) {
      buildRequest(engine, po);  // bad input first (exit 2), with no GPU as well
      if (const std::string why = po.slurm.enabled ? "" : cli::profileBlocker(engine.deviceStatus(), *counterProfiler);
          !why.empty()) {
        std::cerr << "launchlab-cli: profile: " << why << "\n";
        return 1;
      }
      return cmdRun(engine, po);
    }
    if (compile->parsed()) {
      cli::compileOrThrow(engine, compileWorkload, *cli::userKernelOf(ko), ko.gpuProfile, false);
      return 0;
    }
    if (check->parsed()) {
      if (cko.text.n.empty()) cko.text.n = std::to_string(cli::checkSize(cko.text.workload, cko.kernel.exercise));
      return cli::runCheck(engine, buildRequest(engine, cko), cko.kernel);
    }
    if (show->parsed()) return cmdShow(showPath);
    if (render->parsed()) {
      checkOutputFile("--png", rdo.png);
      return cli::cmdRender(engine, buildRequest(engine, rno), rdo);
    }
    if (benchRender->parsed()) {
      checkOutputFile("--json", benchRenderJson);
      selectDevice(engine, deviceText);
      return cli::cmdBenchRender(engine, benchRenderJson, benchRenderQuick);
    }
    if (sweep->parsed()) return cmdSweep(engine, so);
    if (occupancy->parsed()) return cmdOccupancy(engine, oo);
    if (worker->parsed()) return serveWorkerProcess(engine);
    if (bench->parsed()) return runBench(engine, bo);
  } catch (const BadUsage& e) {
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
