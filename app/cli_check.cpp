#include "cli_check.h"

#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <sstream>

#include "launchlab/course/sanitizer.h"
#include "launchlab/files/command_line.h"
#include "launchlab/numba/numba.h"
#include "launchlab/worker/subprocess.h"

namespace launchlab::cli {

namespace {

std::string envOr(const char* name) {
  const char* v = std::getenv(name);
  return v ? v : "";
}

/// Runs a shell command line for at most `limitS` seconds (the sanitizer and the run it started).
Captured capture(const std::string& commandLine, double limitS) {
  return captureCommand({"/bin/sh", "-c", commandLine}, limitS);
}

/// What is missing for a check here ("" when nothing): the sanitizer, the GPU, or both, in one line.
std::string missingForCheck(const std::string& sanitizer, const DeviceStatus& st) {
  std::string why;
  if (sanitizer.empty()) {
    const std::string forced = envOr("LAUNCHLAB_COMPUTE_SANITIZER");
    why = forced.empty() ? "compute-sanitizer not found (looked in PATH, $CUDA_HOME/bin, /usr/local/cuda/bin)"
                         : "compute-sanitizer not found at " + forced + " ($LAUNCHLAB_COMPUTE_SANITIZER)";
  }
  if (!st.available) why += (why.empty() ? "" : "; ") + std::string("no GPU: ") + st.reason;
  return why;
}

/// `launchlab-cli run ...` of the kernel alone, once, with the check's time limit for its kernel too.
std::vector<std::string> runArgs(RunRequest req, const KernelOptions& k) {
  req.impls = {std::string(kMyKernel)};
  req.reps = 1;
  req.warmup = 0;
  req.userKernel.reset();
  std::vector<std::string> args = runCommandArgs(req);
  args.insert(args.end(), {"--kernel-file", k.file, "--kernel-time-limit", std::to_string(k.timeLimitS)});
  for (const auto& [opt, value] :
       {std::pair{"--exercise", k.exercise}, {"--kernel-name", k.name}, {"--gpu-profile", k.gpuProfile}})
    if (!value.empty()) args.insert(args.end(), {opt, value});
  return args;
}

/// One tool's run: its findings, with the kernel file's findings named as the user named the file.
std::vector<SanitizerFinding> runTool(const std::string& sanitizer, const std::string& tool,
                                      const std::vector<std::string>& args, const KernelOptions& k, Captured& run) {
  std::string line = shellQuote(sanitizer) + " --tool " + tool + " --target-processes all --show-backtrace no " +
                     shellQuote(selfExe());
  for (const auto& a : args) line += " " + shellQuote(a);
  run = capture(line, k.timeLimitS);
  auto findings = parseSanitizerReport(run.output, tool);
  const auto base = std::filesystem::path(k.file).filename();
  for (auto& f : findings)
    if (!f.file.empty() && std::filesystem::path(f.file).filename() == base) f.file = k.file;
  return findings;
}

std::string limitText(double s) {
  std::ostringstream o;
  o << s << " s";
  return o.str();
}

}  // namespace

std::string computeSanitizerPath() {
  if (const std::string forced = envOr("LAUNCHLAB_COMPUTE_SANITIZER"); !forced.empty())
    return std::filesystem::is_regular_file(forced) ? forced : "";
  return findComputeSanitizer(envOr("PATH"), envOr("CUDA_HOME"));
}

std::uint64_t checkSize(const std::string& workload, const std::string& exercise) {
  const Exercise* ex = exerciseFor(workload, exercise);
  return ex && ex->workload == workload ? ex->checkN : std::uint64_t(1) << 16;
}

int runCheck(const Engine& engine, RunRequest req, const KernelOptions& k) {
  if (!(k.timeLimitS > 0 && k.timeLimitS <= 3600)) throw KernelInputError("--time-limit: between 0 and 3600 seconds");
  const std::string sanitizer = computeSanitizerPath();
  if (const std::string why = missingForCheck(sanitizer, engine.deviceStatus()); !why.empty()) {
    std::cerr << "launchlab-cli: check: " << why << "\n";
    return 1;
  }
  compileOrThrow(engine, req.workload, *req.userKernel, k.gpuProfile, true, req.dtype);
  std::vector<std::string> tools = {"memcheck"};
  if (kernelUsesSharedMemory(*req.userKernel)) tools.push_back("racecheck");
  const auto args = runArgs(req, k);
  const std::string size = req.n ? std::to_string(*req.n) : std::string("default");
  int total = 0;
  std::string summary;
  for (std::size_t t = 0; t < tools.size(); ++t) {
    const std::string& tool = tools[t];
    // Progress on stderr (stdout holds the findings): which tool, at which size, under which limit.
    std::cerr << "check: " << tool << " (" << t + 1 << " of " << tools.size() << ") on " << req.workload
              << ", n = " << size << ", time limit " << limitText(k.timeLimitS) << "..." << std::endl;
    Captured run;
    const auto findings = runTool(sanitizer, tool, args, k, run);
    for (const auto& f : findings) std::cout << formatFinding(f) << "\n";
    total += int(findings.size());
    if (run.timedOut) {
      std::cerr << "launchlab-cli: check: " << tool << " did not finish within " << limitText(k.timeLimitS)
                << " at n = " << size << " (stopped); the sanitizer slows kernels a hundredfold: try a smaller --n, "
                << "or a longer --time-limit\n";
      summary += (summary.empty() ? "" : ", ") + tool + " stopped after " + limitText(k.timeLimitS);
      ++total;
      break;
    }
    summary +=
        (summary.empty() ? "" : ", ") + tool + " " +
        (findings.empty() ? (run.status == 0 ? std::string("clean")
                                             : "no finding, but the run exited with " + std::to_string(run.status))
                          : std::to_string(findings.size()) + (findings.size() == 1 ? " finding" : " findings"));
    if (findings.empty() && run.status != 0) ++total;
  }
  std::cout << "check " << k.file << " (" << req.workload << ", n = " << size << "): " << summary << "\n";
  return total == 0 ? 0 : 1;
}

}  // namespace launchlab::cli
