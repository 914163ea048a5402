#include "cli_kernel.h"

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

#include "launchlab/nvrtc.h"
#include "launchlab/occupancy.h"
#include "launchlab/worker.h"

namespace launchlab::cli {

std::optional<UserKernel> userKernelOf(const KernelOptions& o) {
  if (o.file.empty()) return std::nullopt;
  std::error_code ec;
  if (!std::filesystem::is_regular_file(o.file, ec))
    throw KernelInputError("--kernel-file: " + o.file + " is not a file");
  const auto size = std::filesystem::file_size(o.file, ec);
  if (!ec && size > kMaxKernelSourceBytes) throw KernelInputError("--kernel-file: " + kernelSizeProblem(size));
  std::ifstream in(o.file, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  if (!in) throw KernelInputError("--kernel-file: cannot read " + o.file);
  UserKernel k;
  k.exercise = o.exercise;
  k.fileName = o.file;
  k.source = text.str();
  k.kernelName = o.name;
  k.timeLimitS = o.timeLimitS;
  if (!(o.timeLimitS > 0 && o.timeLimitS <= 3600))
    throw KernelInputError("--kernel-time-limit: more than 0 and at most 3600 seconds");
  if (std::string bad = checkKernelSource(k.source); !bad.empty()) throw KernelInputError("--kernel-file: " + bad);
  return k;
}

std::string compileArch(const Engine& engine, const std::string& gpuProfile) {
  if (!gpuProfile.empty()) {
    const ArchProfile* p = findArchProfile(gpuProfile);
    if (!p)
      throw KernelInputError("--gpu-profile: unknown profile '" + gpuProfile + "' (known: " + archProfileNames() + ")");
    return p->arch;
  }
  const DeviceStatus st = engine.deviceStatus();
  if (st.available && st.info.ccMajor > 0) return archFor(st.info.ccMajor, st.info.ccMinor);
  return "sm_90";
}

void compileOrThrow(const Engine& engine, const std::string& workload, const UserKernel& k,
                    const std::string& gpuProfile, bool quietOk) {
  RunRequest req;
  req.workload = workload;
  req.userKernel = k;
  req.impls = {std::string(kMyKernel)};
  for (const auto& p : engine.validate(req))
    if (p.field == "workload" || p.field == "kernel")
      throw KernelInputError((p.field == "kernel" ? "--kernel-file: " : "") + p.message);
  const Exercise* ex = k.exercise.empty() ? defaultExercise(workload) : findExercise(k.exercise);
  const CompileResult r = compileUserKernel(k, *ex, compileArch(engine, gpuProfile));
  if (!r.unavailable.empty()) throw KernelInputError(r.unavailable);
  int errors = 0;
  for (const auto& d : r.diagnostics) {
    errors += d.isError() ? 1 : 0;
    if (!r.ok || !quietOk) std::cout << formatDiagnostic(d) << "\n";
  }
  if (!r.ok)
    throw KernelInputError(k.fileName + " does not compile for " + r.arch + " (" + std::to_string(errors) +
                           (errors == 1 ? " error)" : " errors)"));
  if (!quietOk)
    std::cout << "compiled " << k.fileName << " for " << r.arch << ": "
              << kernelDeclaration(*ex, effectiveKernelName(k, *ex)) << " (" << r.loweredName << ", " << r.cubin.size()
              << " bytes)\n";
}

std::string selfExe() {
  std::string path(4096, '\0');
  const ssize_t n = ::readlink("/proc/self/exe", path.data(), path.size() - 1);
  if (n <= 0) return "launchlab-cli";
  path.resize(std::size_t(n));
  return path;
}

RunResult runInWorker(const RunRequest& req, const Registry& registry) {
  IsolatedRunner runner({selfExe(), "worker"});
  runner.setResultCap([&registry](const RunRequest& r) { return resultBytesBound(registry, r); });
  RunResult r = runner.run(req);
  // What the kernel printed, as it printed it; on stderr, so that stdout stays the report (or --json -).
  std::cerr << runner.takeProgramOutput() << std::flush;
  return r;
}

}  // namespace launchlab::cli
