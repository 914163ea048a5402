// launchlab-cli: the command-line front end (no Qt). Exit codes: 0 ok, 1 a run failed or failed
// verification, 2 bad input (one line on stderr naming the problem).
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

#include "bench.h"
#include "cli_bench_geometry.h"
#include "cli_ceilings.h"
#include "cli_check.h"
#include "cli_commands.h"
#include "cli_course.h"
#include "cli_instrument.h"
#include "cli_kernel.h"
#include "cli_occupancy.h"
#include "cli_outputs.h"
#include "cli_profile.h"
#include "cli_render.h"
#include "cli_slurm.h"
#include "cli_table.h"
#include "launchlab/course.h"
#include "launchlab/engine.h"
#include "launchlab/errors.h"
#include "launchlab/io/json.h"
#include "launchlab/kernels.h"
#include "launchlab/parse.h"
#include "launchlab/profiler/cupti_profiler.h"
#include "launchlab/profiler/fallback_profiler.h"
#include "launchlab/request.h"
#include "launchlab/sweep.h"
#include "launchlab/worker.h"

using namespace launchlab;

namespace {

using cli::badRequest;
using cli::BadUsage;
using cli::buildRequest;
using cli::checkOutputFile;
using cli::cmdCeilings;
using cli::cmdCourseRun;
using cli::cmdOccupancy;
using cli::cmdRun;
using cli::cmdShow;
using cli::cmdSweep;
using cli::CourseRunOptions;
using cli::deviceQueryText;
using cli::loadCourseDir;
using cli::RunOptions;
using cli::SweepOptions;

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
                               "A kernel of your own (.cu, or .py: a Numba @cuda.jit kernel) for the workload's "
                               "exercise, run as \"my-kernel\" (kernels/<workload>/exercise*, docs/EXERCISES.md)");
  if (required) file->required();
  cmd->add_option("--kernel-name", k.name, "The kernel's name in the file (default: the exercise's)");
  cmd->add_option("--exercise", k.exercise, "The exercise (default: the workload's own, e.g. vector_add_grid_stride)");
  cmd->add_option("--gpu-profile", k.gpuProfile, "Compile for this architecture (sm_75 … sm_90) instead of the GPU's");
  cmd->add_option("--python", k.python,
                  "A .py kernel: the Python with numba-cuda that compiles it (default: $LAUNCHLAB_PYTHON, the "
                  "project's .venv, python3)");
  if (!required)
    cmd->add_option("--kernel-time-limit", k.timeLimitS, "Seconds after which a silent kernel is stopped")
        ->default_val(10);
}

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
  run->add_flag("--counters{auto}", ro.counterSource,
                "Also measure counters of every GPU implementation (see 'profile --help' for --metrics): "
                "--counters=hardware (CUPTI), =accesses (measured from the kernel's own accesses, no admin rights), "
                "or auto (CUPTI where the driver allows it)");
  run->add_option("--metrics", ro.metrics, "With --counters: the counters, comma-separated, or all");
  run->add_flag("--by-line", ro.byLine, "With --counters=accesses: each source line's figures");
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

  cli::InstrumentOptions io;
  auto* instrument = app.add_subcommand("instrument",
                                        "List a kernel's memory accesses per source line and whether the access "
                                        "probes count them (PTX instrumentation; no GPU needed)");
  instrument->add_option("workload", io.workload, "Workload id (see 'list')")->required();
  instrument->add_option("--impl", io.impl, "A built-in CUDA implementation (its PTX is compiled in)");
  instrument->add_option("--dtype", io.dtype, "With --impl: the kernels instantiated for this dtype")
      ->default_str("f32");
  instrument->add_option("--ptx-out", io.ptxOut, "Also write the instrumented PTX to FILE");
  addKernelOptions(instrument, io.kernel, false);

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
  profile->add_flag("--counters{auto}", po.counterSource,
                    "Where the counters come from: hardware (CUPTI), accesses (measured from the kernel's own "
                    "accesses, no admin rights) or auto (CUPTI where the driver allows it; the default)");
  addKernelOptions(profile, po.kernel, false);
  profile->add_flag("--by-line", po.byLine,
                    "With counters measured from the accesses: each source line's requests, sectors per request "
                    "and bank conflicts");
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
  addKernelOptions(sweep, so.run.kernel, false);
  sweep->add_flag("--counters{auto}", so.run.counterSource,
                  "Also record counters at every point (--metrics, default: the memory lessons'): hardware (CUPTI), "
                  "accesses (measured from the kernel's own accesses, no admin rights) or auto");
  sweep->add_option("--metrics", so.run.metrics,
                    "With --counters: the counters recorded per point, comma-separated (a column each)");
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
  bool courseMarkdown = false;
  CourseRunOptions co;
  auto* course = app.add_subcommand("course", "List the course's experiments (the seed notebooks' presets) in order");
  auto* courseJsonFlag = course->add_flag("--json", courseJson, "Machine-readable output (schema launchlab.course)");
  course->add_flag("--markdown", courseMarkdown, "As Markdown: a table per chapter, then the notes")
      ->excludes(courseJsonFlag);
  std::optional<std::string> courseDir;  // given empty is refused, like a folder that is not one
  bool courseDirOnly = false;
  course->add_option("--course-dir", courseDir,
                     "Also load the course files (*.json, docs/COURSE_FORMAT.md) of folder DIR: their experiments "
                     "follow the built-in course's (also for 'course run')");
  course->add_flag("--course-dir-only", courseDirOnly, "With --course-dir: that folder's experiments alone");
  course->fallthrough();  // `course run ID --course-dir DIR` reads the option of `course`
  course->require_subcommand(0, 1);
  auto* courseRun = course->add_subcommand("run", "Run one course experiment as the seed launches it");
  courseRun->add_option("id", co.id, "Experiment id (see 'course')")->required();
  courseRun->add_option("--impl", co.impls, "Comma-separated implementation ids, or all (default: the preset's)");
  courseRun->add_option("--reps", co.reps, "Timed repetitions (default: the preset's)");
  courseRun->add_option("--warmup", co.warmup, "Untimed warm-up repetitions (default: the preset's)");
  courseRun->add_flag("--numba", co.numba,
                      "Also run the seed notebook's own Numba kernel (kernels/<workload>/seed_*.py) as my-kernel; "
                      "needs a Python with numba-cuda (--python)");
  courseRun->add_option("--python", co.run.kernel.python, "With --numba: the Python with numba-cuda");
  courseRun->add_option("--predict", co.predict,
                        "Your answer to the experiment's question (repeat for each question, in order): the run "
                        "prints the measured answer, how far off yours was, and why");
  courseRun->add_option("--save-outputs", co.run.saveOutputs,
                        "Write DIR/inputs/<input>.npy and DIR/<impl>/<output>.npy");
  courseRun->add_option("--json", co.run.json, "Write the full result as JSON to FILE, or - for stdout");
  courseRun->add_option("--save-run", co.run.saveRun,
                        "Save the whole run (result and arrays) as a run file FILE.llrun");
  cli::addSlurmOptions(courseRun, co.run.slurm, false);

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
    const std::string sourceText = counterSourceText(profile->parsed() ? po.counterSource
                                                     : sweep->parsed() ? so.run.counterSource
                                                                       : ro.counterSource,
                                                     worker->parsed());
    const auto source = profiler::parseCounterSource(sourceText);
    if (!source) throw BadUsage("--counters: auto, hardware or accesses, not '" + sourceText + "'");
    ro.counters = ro.counters || !ro.counterSource.empty();
    so.run.counters = so.run.counters || !so.run.counterSource.empty();
    const auto counterProfiler = std::make_shared<profiler::FallbackProfiler>(profiler::makeCuptiProfiler(), *source);
    engine.setCounterProfiler(counterProfiler);
    cli::showCountersFrom(counterProfiler.get(), po.byLine || ro.byLine);
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
    if (course->parsed() && !courseRun->parsed()) {
      std::cout << (courseJson       ? json::course() + "\n"
                    : courseMarkdown ? cli::renderCourseMarkdown()
                                     : cli::renderCourse());
      return 0;
    }
    rejectEmptyValues(app);
    if (courseRun->parsed()) return cmdCourseRun(engine, co);
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
    if (instrument->parsed()) return cli::cmdInstrument(engine, io);
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
