// The options and checks several subcommands share (command.h).
#include <string>

#include "command.h"
#include "launchlab/engine/request.h"

namespace launchlab::cli {

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

void addKernelOptions(CLI::App* cmd, KernelOptions& k, bool required) {
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

void selectDevice(Engine& engine, const std::string& text) {
  if (text.empty()) return;
  RequestText t;
  t.device = text;
  const ParsedRequest parsed = parseRequest(t);
  if (!parsed.ok()) badRequest(parsed.problems.front());
  if (std::string why = engine.gpu().selectDevice(*parsed.request.device); !why.empty()) badRequest({"device", why});
}

void checkRepetitions(int reps) {
  if (reps < 1 || reps > kMaxRepetitions)
    throw BadUsage("--reps: must be between 1 and " + std::to_string(kMaxRepetitions));
}

}  // namespace launchlab::cli
