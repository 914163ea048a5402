// launchlab-cli's commands over the engine (run, show, sweep, occupancy, ceilings, course run) and the checks they
// share; launchlab_cli.cpp declares the options and dispatches. BadUsage is exit 2 there.
#include "cli_commands.h"

#include <cstring>
#include <filesystem>
#include <iostream>
#include <new>
#include <string>
#include <variant>
#include <vector>

#include "cli_ceilings.h"
#include "cli_kernel.h"
#include "cli_occupancy.h"
#include "cli_outputs.h"
#include "cli_predict.h"
#include "cli_profile.h"
#include "cli_slurm.h"
#include "cli_table.h"
#include "launchlab/course/course.h"
#include "launchlab/engine/counters.h"
#include "launchlab/engine/errors.h"
#include "launchlab/engine/request.h"
#include "launchlab/explorer/sweep.h"
#include "launchlab/files/command_line.h"
#include "launchlab/files/files.h"
#include "launchlab/files/json.h"
#include "launchlab/files/run_file.h"
#include "launchlab/kernels.h"
#include "launchlab/numba/numba.h"
#include "launchlab/worker/worker.h"

namespace launchlab::cli {

namespace {
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

/// The option a request field came from, for messages: "n" -> "--n", "param:sigma" -> "--param sigma".
std::string optionOf(const std::string& field) {
  if (field == "workload") return "workload";
  if (field == "params") return "--param";
  for (const char* prefix : {"param", "input"})
    if (field.rfind(std::string(prefix) + ":", 0) == 0)
      return "--" + std::string(prefix) + " " + field.substr(std::strlen(prefix) + 1);
  return "--" + field;
}

}  // namespace

[[noreturn]] void badRequest(const RequestProblem& p) { throw BadUsage(optionOf(p.field) + ": " + p.message); }

namespace {

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

}  // namespace

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

int cmdRun(Engine& engine, const RunOptions& o, RunResult* kept) {
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
  if (req.userKernel) cli::compileOrThrow(engine, req.workload, *req.userKernel, o.kernel.gpuProfile, true, req.dtype);
  RunResult r = slurm.enabled    ? cli::runThroughSlurm(req, slurm)
                : req.userKernel ? cli::runInWorker(req, engine.registry())
                                 : engine.run(req);
  if (o.json != "-") std::cout << cli::renderRun(r) << cli::renderCounters(r);
  writeRunFiles(o, r);
  if (!o.saveOutputs.empty()) {
    const Workload* w = engine.registry().find(r.workload);
    int files = files::saveRunArrays(r, o.saveOutputs, w ? &w->info() : nullptr);
    std::cerr << "saved " << files << " .npy files under " << o.saveOutputs << "\n";
  }
  if (kept) *kept = r;
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

int cmdSweep(Engine& engine, const SweepOptions& o, SweepSink* extra) {
  const SweepPlan plan = sweepPlan(o.run, smCountForSweeps(engine.deviceStatus()));
  checkOutputFile("--json", o.run.json);
  checkOutputFile("--csv", o.csv);
  if (auto clash = cli::outputClash({{"--json", o.run.json}, {"--csv", o.csv}}, plan.base.inputFiles); !clash.empty())
    throw BadUsage(clash);
  std::vector<RequestProblem> problems;
  // A kernel of the student's (--kernel-file) is every cell's "my-kernel", compiled once here (bad input: exit 2).
  const std::optional<UserKernel> userKernel = cli::userKernelOf(o.run.kernel);
  const std::vector<std::string> counters = countersOf(o.run);  // --counters: recorded at every point
  auto cells = expandSweep(
      plan,
      [&](RunRequest r) {
        r.userKernel = userKernel;
        r.counters = counters;
        return engine.validate(r);
      },
      problems);
  if (!problems.empty()) badRequest(problems.front());
  for (auto& c : cells)
    if (c.request) c.request->userKernel = userKernel, c.request->counters = counters;
  if (userKernel) cli::compileOrThrow(engine, plan.base.workload, *userKernel, o.run.kernel.gpuProfile, true);
  SweepTable table;
  SweepRecord record{nowIso8601(), 0};
  if (engine.deviceStatus().available && !o.run.json.empty())  // the ceiling the window's "% of cudaMemcpy" needs
    record.copyGBs =
        engine.gpu().measureCopyBandwidthGBs(std::min(std::size_t(1) << 30, engine.gpu().memoryInfo().first / 4), 10);
  cli::SlurmOptions slurm = o.run.slurm;
  cli::resolveSlurmOptions(slurm);
  // The student's kernel runs in one worker process for the whole sweep (a faulting kernel costs its point, not
  // the sweep), which keeps its compiled kernel between points.
  std::optional<IsolatedRunner> worker;
  if (userKernel && !slurm.enabled) worker.emplace(std::vector<std::string>{cli::selfExe(), "worker"});
  const RunFn runner = worker ? RunFn([&worker](const RunRequest& r, const CancelToken* c, const ProgressFn& p) {
    return worker->run(r, c, p);
  })
                              : cli::sweepRunner(engine, cells, slurm);
  std::vector<SweepSink*> sinks{&table};
  if (extra) sinks.push_back(extra);
  runSweep(plan, cells, runner, sinks);
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
void loadCourseDir(const std::optional<std::string>& given, bool only) {
  if (!given) {
    if (only) throw BadUsage("--course-dir-only needs --course-dir");
    return;
  }
  const std::string& dir = *given;
  if (dir.empty() || !std::filesystem::is_directory(dir))
    throw BadUsage("--course-dir: " + (dir.empty() ? std::string("''") : dir) + " is not a folder");
  for (const auto& p : useCourseDir(dir, only)) std::cerr << "launchlab-cli: --course-dir: " << p << "\n";
}

/// What `info` prints: the devices and who uses the GPU now (the course's device-query note prints the same).
std::string deviceQueryText(Engine& engine) {
  return cli::renderDevice(engine.deviceStatus(), kernels::builtWithCuda()) + cli::gpuUsersNow(engine) + "\n";
}

namespace {

/// `course run ID --numba`: the seed's own Numba kernel (kernels/<workload>/seed_*.py) runs as my-kernel beside
/// the experiment's implementations.
void addSeedKernel(const CourseExperiment& e, RunOptions& run) {
  const auto seed = seedNumbaKernelFor(e.id);
  if (!seed) {
    std::string have;
    for (const auto& k : seedNumbaKernels())
      for (const auto& id : k.experiments) have += (have.empty() ? "" : ", ") + id;
    throw BadUsage("--numba: " + e.id + " has no seed Numba kernel in its lesson folder (those that have one: " + have +
                   ")");
  }
  run.kernel.file = seed->path;
  run.kernel.text = std::string(seed->text);
  run.kernel.exercise = seed->exercise;
  std::string& impls = run.text.impls;
  if (!impls.empty() && impls != "all" && impls.find(std::string(kMyKernel)) == std::string::npos)
    impls += "," + std::string(kMyKernel);
}

}  // namespace

int cmdCourseRun(Engine& engine, CourseRunOptions o) {
  const CourseExperiment* e = findCourseExperiment(o.id);
  if (const CourseNote* n = e ? nullptr : findCourseNote(o.id)) {  // a seed experiment without a workload run
    std::cout << n->id << ": " << n->title << "\n  note: " << n->text << "\n";
    if (n->command == "info") std::cout << deviceQueryText(engine);
    return 0;
  }
  if (!e) throw BadUsage(unknownCourseMessage(o.id));
  if (const Workload* w = engine.registry().find(e->request.workload)) {
    std::vector<std::string> ids;
    for (const auto& s : w->impls()) ids.push_back(s.id);
    if (auto why = unknownImplementation(e->predictions, ids); !why.empty()) throw BadUsage(e->id + ": " + why);
  }
  std::vector<Guess> guesses;
  if (auto why = parsePredictions(*e, o.predict, guesses); !why.empty()) throw BadUsage(why);
  o.run.text = sweepRequestText(*e);
  if (!o.impls.empty()) o.run.text.impls = o.impls;
  if (!o.reps.empty()) o.run.text.reps = o.reps;
  if (!o.warmup.empty()) o.run.text.warmup = o.warmup;
  if (o.numba) addSeedKernel(*e, o.run);
  if (engine.deviceStatus().available) o.run.metrics = countersForMeasures(*e);  // the counters the answers read
  const bool text = o.run.json != "-";
  if (text) std::cout << e->id << ": " << e->title << "\n  look for: " << e->lookFor << "\n" << renderQuestions(*e);
  CourseRunPoints run;
  int rc = 0;
  if (!e->sweep.empty()) {
    rc = cmdSweep(engine, SweepOptions{o.run, ""}, &run);
  } else {
    RunResult r;
    rc = cmdRun(engine, o.run, &r);
    run.add(std::move(r));
  }
  if (text) std::cout << renderAnswers(*e, run.points(), guesses);
  return rc;
}

}  // namespace launchlab::cli
