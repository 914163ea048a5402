// `launchlab-cli course`: the course's experiments in order, and `course run ID` (cmdCourseRun, cli_commands.cpp).
#include <iostream>
#include <optional>

#include "cli_course.h"
#include "command.h"
#include "launchlab/files/json.h"

namespace launchlab::cli {

namespace {

struct Options {
  bool json = false, markdown = false;
  std::optional<std::string> dir;  // given empty is refused, like a folder that is not one
  bool dirOnly = false;
  CourseRunOptions run;
  CLI::App* runCommand = nullptr;
};

void addRunOptions(CLI::App* cmd, CourseRunOptions& co) {
  cmd->add_option("id", co.id, "Experiment id (see 'course')")->required();
  cmd->add_option("--impl", co.impls, "Comma-separated implementation ids, or all (default: the preset's)");
  cmd->add_option("--reps", co.reps, "Timed repetitions (default: the preset's)");
  cmd->add_option("--warmup", co.warmup, "Untimed warm-up repetitions (default: the preset's)");
  cmd->add_flag("--numba", co.numba,
                "Also run the seed notebook's own Numba kernel (kernels/<workload>/seed_*.py) as my-kernel; "
                "needs a Python with numba-cuda (--python)");
  cmd->add_option("--python", co.run.kernel.python, "With --numba: the Python with numba-cuda");
  cmd->add_option("--predict", co.predict,
                  "Your answer to the experiment's question (repeat for each question, in order): the run "
                  "prints the measured answer, how far off yours was, and why");
  cmd->add_option("--save-outputs", co.run.saveOutputs, "Write DIR/inputs/<input>.npy and DIR/<impl>/<output>.npy");
  cmd->add_option("--json", co.run.json, "Write the full result as JSON to FILE, or - for stdout");
  cmd->add_option("--save-run", co.run.saveRun, "Save the whole run (result and arrays) as a run file FILE.llrun");
  addSlurmOptions(cmd, co.run.slurm, false);
}

}  // namespace

Command addCourseCommand(CLI::App& app) {
  auto o = std::make_shared<Options>();
  auto* cmd = app.add_subcommand("course", "List the course's experiments (the seed notebooks' presets) in order");
  auto* jsonFlag = cmd->add_flag("--json", o->json, "Machine-readable output (schema launchlab.course)");
  cmd->add_flag("--markdown", o->markdown, "As Markdown: a table per chapter, then the notes")->excludes(jsonFlag);
  cmd->add_option("--course-dir", o->dir,
                  "Also load the course files (*.json, docs/COURSE_FORMAT.md) of folder DIR: their experiments "
                  "follow the built-in course's (also for 'course run')");
  cmd->add_flag("--course-dir-only", o->dirOnly, "With --course-dir: that folder's experiments alone");
  cmd->fallthrough();  // `course run ID --course-dir DIR` reads the option of `course`
  cmd->require_subcommand(0, 1);
  o->runCommand = cmd->add_subcommand("run", "Run one course experiment as the seed launches it");
  addRunOptions(o->runCommand, o->run);
  Command c{.app = cmd, .run = [o](Context& ctx) {
              loadCourseDir(o->dir, o->dirOnly);
              if (!o->runCommand->parsed()) {
                std::cout << (o->json ? json::course() + "\n" : o->markdown ? renderCourseMarkdown() : renderCourse());
                return 0;
              }
              rejectEmptyValues(ctx.app);
              return cmdCourseRun(ctx.engine, o->run);
            }};
  c.checksEmptyValues = false;  // the listing prints as given; `course run` checks above
  return c;
}

}  // namespace launchlab::cli
