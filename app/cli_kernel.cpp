#include "cli_kernel.h"

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>

#include "launchlab/course/nvrtc.h"
#include "launchlab/explorer/occupancy.h"
#include "launchlab/numba/numba.h"
#include "launchlab/worker/worker.h"

namespace launchlab::cli {

std::optional<UserKernel> userKernelOf(const KernelOptions& o) {
  if (o.file.empty()) return std::nullopt;
  UserKernel k;
  k.exercise = o.exercise;
  k.fileName = o.file;
  if (o.text.empty()) {
    KernelFileText text = readKernelFile(o.file);  // a FIFO or /dev/zero is refused, never read
    if (!text.error.empty()) throw KernelInputError("--kernel-file: " + text.error);
    k.source = std::move(text.text);
  } else {
    k.source = o.text;
  }
  k.kernelName = o.name;
  k.timeLimitS = o.timeLimitS;
  if (!(o.timeLimitS > 0 && o.timeLimitS <= 3600))
    throw KernelInputError("--kernel-time-limit: more than 0 and at most 3600 seconds");
  if (std::string bad = checkKernelSource(k.source); !bad.empty()) throw KernelInputError("--kernel-file: " + bad);
  // The compile here and in the worker this process starts (which inherits the environment) use that Python.
  if (!o.python.empty()) ::setenv("LAUNCHLAB_PYTHON", o.python.c_str(), 1);
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

namespace {

/// Prints a compile's diagnostics (all of them, or only those of a failed compile when `quietOk`); throws
/// KernelInputError when it did not compile.
void printOrThrow(const UserKernel& k, const CompileResult& r, bool quietOk) {
  if (!r.unavailable.empty()) throw KernelInputError(r.unavailable);
  int errors = 0;
  for (const auto& d : r.diagnostics) {
    errors += d.isError() ? 1 : 0;
    if (!r.ok || !quietOk) std::cout << formatDiagnostic(d) << "\n";
  }
  if (!r.ok)
    throw KernelInputError(k.fileName + " does not compile for " + r.arch + " (" + std::to_string(errors) +
                           (errors == 1 ? " error)" : " errors)"));
}

void compileNumbaOrThrow(const UserKernel& k, const Exercise& ex, const std::string& arch, bool quietOk,
                         std::optional<DType> dtype) {
  const NumbaCompileResult r = compileNumbaKernel(k, ex, arch, {}, dtype);
  printOrThrow(k, r, quietOk);
  if (quietOk) return;
  std::ostringstream time;
  time.precision(r.cached ? 1 : 2);
  time << std::fixed << (r.cached ? r.compileMs : r.compileMs / 1000);
  std::cout << "compiled " << k.fileName << " for " << r.arch << " with Numba: " << numbaDeclaration(k, ex) << " ("
            << r.cubin.size() << " bytes of PTX, "
            << (r.cached ? "from the cache in " + time.str() + " ms"
                         : "first compile " + time.str() + " s with " + r.python)
            << ")\n";
}

}  // namespace

void compileOrThrow(const Engine& engine, const std::string& workload, const UserKernel& k,
                    const std::string& gpuProfile, bool quietOk, std::optional<DType> dtype) {
  RunRequest req;
  req.workload = workload;
  req.userKernel = k;
  req.impls = {std::string(kMyKernel)};
  for (const auto& p : engine.validate(req))
    if (p.field == "workload" || p.field == "kernel")
      throw KernelInputError((p.field == "kernel" ? "--kernel-file: " : "") + p.message);
  const Exercise* ex = k.exercise.empty() ? defaultExercise(workload) : findExercise(k.exercise);
  if (isPythonKernel(k)) return compileNumbaOrThrow(k, *ex, compileArch(engine, gpuProfile), quietOk, dtype);
  const CompileResult r = compileUserKernel(k, *ex, compileArch(engine, gpuProfile));
  printOrThrow(k, r, quietOk);
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
