// NVRTC loaded at run time (dlopen): the toolkit ships no static libnvrtc, and binaries must start without it.
// Compiled with nvrtc.h when CMake found it (LAUNCHLAB_HAVE_NVRTC); otherwise compiling says "built without NVRTC".
#include "launchlab/nvrtc.h"

#include <cstdlib>

#if LAUNCHLAB_HAVE_NVRTC
#include <dlfcn.h>
#include <nvrtc.h>
#endif

namespace launchlab {

std::string archFor(int major, int minor) { return "sm_" + std::to_string(major) + std::to_string(minor); }

#if !LAUNCHLAB_HAVE_NVRTC

std::string nvrtcUnavailableReason() {
  return "built without NVRTC: rebuild with the CUDA toolkit's nvrtc.h installed to compile kernels";
}

CompileResult compileUserKernel(const UserKernel&, const Exercise&, const std::string& arch) {
  CompileResult r;
  r.arch = arch;
  r.unavailable = nvrtcUnavailableReason();
  return r;
}

CompileResult compileUserKernelToPtx(const UserKernel& k, const Exercise& ex, const std::string& arch) {
  return compileUserKernel(k, ex, arch);
}

#else

namespace {

constexpr const char* kNotFound = "NVRTC not found: install the CUDA toolkit's runtime compiler";

/// The entry points used, resolved once for the process's life.
struct NvrtcApi {
  decltype(&::nvrtcCreateProgram) create = nullptr;
  decltype(&::nvrtcDestroyProgram) destroy = nullptr;
  decltype(&::nvrtcCompileProgram) compile = nullptr;
  decltype(&::nvrtcAddNameExpression) addName = nullptr;
  decltype(&::nvrtcGetLoweredName) lowered = nullptr;
  decltype(&::nvrtcGetProgramLogSize) logSize = nullptr;
  decltype(&::nvrtcGetProgramLog) log = nullptr;
  decltype(&::nvrtcGetCUBINSize) cubinSize = nullptr;
  decltype(&::nvrtcGetCUBIN) cubin = nullptr;
  decltype(&::nvrtcGetPTXSize) ptxSize = nullptr;
  decltype(&::nvrtcGetPTX) ptx = nullptr;
  std::string missing;
};

void* openNvrtc() {
  // LAUNCHLAB_NVRTC_LIBRARY names the library to load instead (tests use it to check the message of a missing one).
  if (const char* forced = std::getenv("LAUNCHLAB_NVRTC_LIBRARY"); forced && *forced)
    return dlopen(forced, RTLD_NOW | RTLD_LOCAL);
  const std::string versioned = "libnvrtc.so." + std::to_string(LAUNCHLAB_NVRTC_MAJOR);
  for (const std::string& name : {versioned, std::string("libnvrtc.so"), "/usr/local/cuda/lib64/" + versioned})
    if (void* h = dlopen(name.c_str(), RTLD_NOW | RTLD_LOCAL)) return h;
  return nullptr;
}

template <typename Fn>
void bind(void* lib, Fn& fn, const char* symbol, std::string& missing) {
  fn = reinterpret_cast<Fn>(dlsym(lib, symbol));
  if (!fn && missing.empty()) missing = std::string(kNotFound) + " (the library lacks " + symbol + ")";
}

const NvrtcApi& nvrtc() {
  static const NvrtcApi api = [] {
    NvrtcApi a;
    void* lib = openNvrtc();
    if (!lib) {
      a.missing = kNotFound;
      return a;
    }
    bind(lib, a.create, "nvrtcCreateProgram", a.missing);
    bind(lib, a.destroy, "nvrtcDestroyProgram", a.missing);
    bind(lib, a.compile, "nvrtcCompileProgram", a.missing);
    bind(lib, a.addName, "nvrtcAddNameExpression", a.missing);
    bind(lib, a.lowered, "nvrtcGetLoweredName", a.missing);
    bind(lib, a.logSize, "nvrtcGetProgramLogSize", a.missing);
    bind(lib, a.log, "nvrtcGetProgramLog", a.missing);
    bind(lib, a.cubinSize, "nvrtcGetCUBINSize", a.missing);
    bind(lib, a.cubin, "nvrtcGetCUBIN", a.missing);
    bind(lib, a.ptxSize, "nvrtcGetPTXSize", a.missing);
    bind(lib, a.ptx, "nvrtcGetPTX", a.missing);
    return a;
  }();
  return api;
}

/// Owns an nvrtcProgram.
class Program {
 public:
  explicit Program(const NvrtcApi& api) : m_api(api) {}
  ~Program() {
    if (m_prog) m_api.destroy(&m_prog);
  }
  Program(const Program&) = delete;
  Program& operator=(const Program&) = delete;
  nvrtcProgram* out() { return &m_prog; }
  nvrtcProgram get() const { return m_prog; }

 private:
  const NvrtcApi& m_api;
  nvrtcProgram m_prog = nullptr;
};

std::string programLog(const NvrtcApi& api, nvrtcProgram p) {
  std::size_t n = 0;
  if (api.logSize(p, &n) != NVRTC_SUCCESS || n == 0) return {};
  std::string log(n, '\0');
  if (api.log(p, log.data()) != NVRTC_SUCCESS) return {};
  if (!log.empty() && log.back() == '\0') log.pop_back();
  return log;
}

void takeCubin(const NvrtcApi& api, nvrtcProgram p, const std::string& nameExpr, CompileResult& r) {
  const char* lowered = nullptr;
  std::size_t size = 0;
  if (api.lowered(p, nameExpr.c_str(), &lowered) != NVRTC_SUCCESS || !lowered ||
      api.cubinSize(p, &size) != NVRTC_SUCCESS || size == 0) {
    r.ok = false;
    r.unavailable = "NVRTC compiled the file but gave no kernel image";
    return;
  }
  r.loweredName = lowered;
  r.cubin.assign(size, '\0');
  if (api.cubin(p, r.cubin.data()) != NVRTC_SUCCESS) {
    r.ok = false;
    r.unavailable = "NVRTC compiled the file but could not hand over the kernel image";
  }
}

/// The PTX of a program compiled for a virtual architecture (compute_XX), without its trailing NUL.
void takePtx(const NvrtcApi& api, nvrtcProgram p, const std::string& nameExpr, CompileResult& r) {
  const char* lowered = nullptr;
  std::size_t size = 0;
  if (api.lowered(p, nameExpr.c_str(), &lowered) != NVRTC_SUCCESS || !lowered ||
      api.ptxSize(p, &size) != NVRTC_SUCCESS || size == 0) {
    r.ok = false;
    r.unavailable = "NVRTC compiled the file but gave no PTX";
    return;
  }
  r.loweredName = lowered;
  r.ptx.assign(size, '\0');
  if (api.ptx(p, r.ptx.data()) != NVRTC_SUCCESS) {
    r.ok = false;
    r.unavailable = "NVRTC compiled the file but could not hand over its PTX";
  }
  while (!r.ptx.empty() && r.ptx.back() == '\0') r.ptx.pop_back();
}

CompileResult compileWith(const UserKernel& kernel, const Exercise& ex, const std::string& arch, bool toPtx);

}  // namespace

std::string nvrtcUnavailableReason() { return nvrtc().missing; }

CompileResult compileUserKernel(const UserKernel& kernel, const Exercise& ex, const std::string& arch) {
  return compileWith(kernel, ex, arch, false);
}

CompileResult compileUserKernelToPtx(const UserKernel& kernel, const Exercise& ex, const std::string& arch) {
  return compileWith(kernel, ex, arch, true);
}

namespace {

CompileResult compileWith(const UserKernel& kernel, const Exercise& ex, const std::string& arch, bool toPtx) {
  CompileResult r;
  r.arch = arch;
  if (std::string bad = checkKernelSource(kernel.source); !bad.empty()) {
    r.unavailable = bad;
    return r;
  }
  const NvrtcApi& api = nvrtc();
  if (!api.missing.empty()) {
    r.unavailable = api.missing;
    return r;
  }
  const std::string name = effectiveKernelName(kernel, ex);
  const std::string source = kernel.source + contractAppendix(ex, name);
  const std::string file = kernel.fileName.empty() ? "kernel.cu" : kernel.fileName;
  Program prog(api);
  if (api.create(prog.out(), source.c_str(), file.c_str(), 0, nullptr, nullptr) != NVRTC_SUCCESS) {
    r.unavailable = "NVRTC could not create a program";
    return r;
  }
  const std::string nameExpr = "&" + name;
  api.addName(prog.get(), nameExpr.c_str());
  // PTX comes from a virtual architecture: compute_90 for sm_90.
  const std::string archOpt =
      "--gpu-architecture=" + (toPtx && arch.rfind("sm_", 0) == 0 ? "compute_" + arch.substr(3) : arch);
  const char* opts[] = {archOpt.c_str(), "-lineinfo", "--std=c++17"};
  const nvrtcResult rc = api.compile(prog.get(), 3, opts);
  r.log = programLog(api, prog.get());
  r.diagnostics = explainContract(parseNvrtcLog(r.log), ex, name, file);
  r.ok = rc == NVRTC_SUCCESS;
  if (!r.ok && r.diagnostics.empty())
    r.diagnostics.push_back(
        {file, 1, 0, "error", "NVRTC failed without a diagnostic (" + std::to_string(int(rc)) + ")"});
  if (r.ok && toPtx)
    takePtx(api, prog.get(), nameExpr, r);
  else if (r.ok)
    takeCubin(api, prog.get(), nameExpr, r);
  return r;
}

}  // namespace

#endif

}  // namespace launchlab
