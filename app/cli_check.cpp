#include "cli_check.h"

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <iostream>

#include "launchlab/command_line.h"
#include "launchlab/sanitizer.h"

namespace launchlab::cli {

namespace {

std::string envOr(const char* name) {
  const char* v = std::getenv(name);
  return v ? v : "";
}

/// Runs a shell command line, stdout and stderr together; `status` is its exit status (-1 when it did not start).
std::string capture(const std::string& commandLine, int& status) {
  std::string out;
  FILE* p = ::popen((commandLine + " 2>&1").c_str(), "r");
  if (!p) {
    status = -1;
    return out;
  }
  char buf[4096];
  for (std::size_t n; (n = std::fread(buf, 1, sizeof buf, p)) > 0;) out.append(buf, n);
  const int st = ::pclose(p);
  status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
  return out;
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

/// `launchlab-cli run ...` of the kernel alone, once, with a time limit that allows for the sanitizer's slowdown.
std::vector<std::string> runArgs(RunRequest req, const KernelOptions& k) {
  req.impls = {std::string(kMyKernel)};
  req.reps = 1;
  req.warmup = 0;
  req.userKernel.reset();
  std::vector<std::string> args = runCommandArgs(req);
  args.insert(args.end(), {"--kernel-file", k.file, "--kernel-time-limit", "600"});
  for (const auto& [opt, value] : {std::pair{"--exercise", k.exercise}, {"--kernel-name", k.name}, {"--gpu-profile", k.gpuProfile}})
    if (!value.empty()) args.insert(args.end(), {opt, value});
  return args;
}

/// One tool's run: its findings, with the kernel file's findings named as the user named the file.
std::vector<SanitizerFinding> runTool(const std::string& sanitizer, const std::string& tool,
                                      const std::vector<std::string>& args, const std::string& kernelFile, int& status) {
  std::string line = shellQuote(sanitizer) + " --tool " + tool + " --target-processes all --show-backtrace no " +
                     shellQuote(selfExe());
  for (const auto& a : args) line += " " + shellQuote(a);
  const std::string report = capture(line, status);
  auto findings = parseSanitizerReport(report, tool);
  const auto base = std::filesystem::path(kernelFile).filename();
  for (auto& f : findings)
    if (!f.file.empty() && std::filesystem::path(f.file).filename() == base) f.file = kernelFile;
  return findings;
}

}  // namespace

std::string computeSanitizerPath() {
  if (const std::string forced = envOr("LAUNCHLAB_COMPUTE_SANITIZER"); !forced.empty())
    return std::filesystem::is_regular_file(forced) ? forced : "";
  return findComputeSanitizer(envOr("PATH"), envOr("CUDA_HOME"));
}

int runCheck(const Engine& engine, RunRequest req, const KernelOptions& k) {
  const std::string sanitizer = computeSanitizerPath();
  if (const std::string why = missingForCheck(sanitizer, engine.deviceStatus()); !why.empty()) {
    std::cerr << "launchlab-cli: check: " << why << "\n";
    return 1;
  }
  compileOrThrow(engine, req.workload, *req.userKernel, k.gpuProfile, true);
  std::vector<std::string> tools = {"memcheck"};
  if (usesSharedMemory(req.userKernel->source)) tools.push_back("racecheck");
  const auto args = runArgs(req, k);
  int total = 0;
  std::string summary;
  for (const auto& tool : tools) {
    int status = 0;
    const auto findings = runTool(sanitizer, tool, args, k.file, status);
    for (const auto& f : findings) std::cout << formatFinding(f) << "\n";
    total += int(findings.size());
    summary += (summary.empty() ? "" : ", ") + tool + " " +
               (findings.empty() ? (status == 0 ? std::string("clean") : "no finding, but the run exited with " + std::to_string(status))
                                 : std::to_string(findings.size()) + (findings.size() == 1 ? " finding" : " findings"));
    if (findings.empty() && status != 0) ++total;
  }
  std::cout << "check " << k.file << " (" << req.workload << ", n = " << (req.n ? std::to_string(*req.n) : "default")
            << "): " << summary << "\n";
  return total == 0 ? 0 : 1;
}

}  // namespace launchlab::cli
