// NVRTC loaded at run time (dlopen): the toolkit ships no static libnvrtc, and binaries must start without it.
// Compiled with nvrtc.h when CMake found it (LAUNCHLAB_HAVE_NVRTC); otherwise compiling says "built without NVRTC".
#include "launchlab/course/nvrtc.h"

#include <cstdlib>

#if LAUNCHLAB_HAVE_NVRTC
#include <dlfcn.h>
#include <nvrtc.h>
#include <signal.h>

#include <cstdint>
#include <cstring>
#include <sstream>

#include "../files/posix_io.h"
#include "include_check.h"
#include "launchlab/files/bounded_file.h"
#include "launchlab/worker/subprocess.h"
#endif

namespace launchlab {

std::string archFor(int major, int minor) { return "sm_" + std::to_string(major) + std::to_string(minor); }

#if !LAUNCHLAB_HAVE_NVRTC

std::string nvrtcUnavailableReason() {
  return "built without NVRTC: rebuild with the CUDA toolkit's nvrtc.h installed to compile kernels";
}

CompileResult compileUserKernel(const UserKernel&, const Exercise&, const std::string& arch, const CompileLimits&,
                                const CancelToken*) {
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

/// The kernel's lowered name and its image: the cubin, or (`ptx`, a program compiled for a virtual architecture,
/// compute_XX) its PTX without the trailing NUL.
void takeImage(const NvrtcApi& api, nvrtcProgram p, const std::string& nameExpr, bool ptx, CompileResult& r) {
  const auto sizeOf = ptx ? api.ptxSize : api.cubinSize;
  const auto copy = ptx ? api.ptx : api.cubin;
  std::string& image = ptx ? r.ptx : r.cubin;
  const char* lowered = nullptr;
  std::size_t size = 0;
  if (api.lowered(p, nameExpr.c_str(), &lowered) != NVRTC_SUCCESS || !lowered || sizeOf(p, &size) != NVRTC_SUCCESS ||
      size == 0) {
    r.ok = false;
    r.unavailable = std::string("NVRTC compiled the file but gave no ") + (ptx ? "PTX" : "kernel image");
    return;
  }
  r.loweredName = lowered;
  image.assign(size, '\0');
  if (copy(p, image.data()) != NVRTC_SUCCESS) {
    r.ok = false;
    r.unavailable =
        std::string("NVRTC compiled the file but could not hand over ") + (ptx ? "its PTX" : "the kernel image");
  }
  if (ptx)
    while (!image.empty() && image.back() == '\0') image.pop_back();
}

// The child's answer: five length-prefixed fields (NVRTC's result code, what was unavailable, the log, the lowered
// name, the cubin or, compiled to PTX, the PTX).
void putField(int fd, const std::string& s) {
  const std::uint64_t n = s.size();
  posix::writeAll(fd, reinterpret_cast<const char*>(&n), sizeof n);
  posix::writeAll(fd, s.data(), s.size());
}

bool takeField(std::string_view& in, std::string& out) {
  std::uint64_t n = 0;
  if (in.size() < sizeof n) return false;
  std::memcpy(&n, in.data(), sizeof n);
  if (in.size() - sizeof n < n) return false;
  out.assign(in.substr(sizeof n, n));
  in.remove_prefix(sizeof n + n);
  return true;
}

/// Runs in the child: compiles (to a cubin, or to PTX for a virtual architecture) and writes the answer to `fd`.
void compileInChild(const NvrtcApi& api, const std::string& source, const std::string& file,
                    const std::string& nameExpr, const std::string& arch, bool toPtx, int fd) {
  CompileResult r;
  nvrtcResult rc = NVRTC_ERROR_PROGRAM_CREATION_FAILURE;
  Program prog(api);
  if (api.create(prog.out(), source.c_str(), file.c_str(), 0, nullptr, nullptr) != NVRTC_SUCCESS) {
    r.unavailable = "NVRTC could not create a program";
  } else {
    api.addName(prog.get(), nameExpr.c_str());
    // PTX comes from a virtual architecture: compute_90 for sm_90.
    const std::string archOpt =
        "--gpu-architecture=" + (toPtx && arch.rfind("sm_", 0) == 0 ? "compute_" + arch.substr(3) : arch);
    const char* opts[] = {archOpt.c_str(), "-lineinfo", "--std=c++17"};
    rc = api.compile(prog.get(), 3, opts);
    r.log = programLog(api, prog.get());
    if (rc == NVRTC_SUCCESS) takeImage(api, prog.get(), nameExpr, toPtx, r);
  }
  for (const std::string& f : {std::to_string(int(rc)), r.unavailable, r.log, r.loweredName, toPtx ? r.ptx : r.cubin})
    putField(fd, f);
}

/// Why a child that gave no answer gave none, as the one error a student reads.
std::string childFailure(const Captured& c, const CompileLimits& limits) {
  if (c.cancelled) return "the compile was abandoned";
  if (c.timedOut)
    return "the compiler did not finish within " + (std::ostringstream() << limits.seconds).str() +
           " s (an #include that waits, or a macro or template that expands without end?): it was stopped";
  if (c.dropped > 0) return "the compiler's answer was larger than it can be: it was refused";
  const std::string how = c.signal
                              ? "was killed by signal " + std::to_string(c.signal) + " (" + strsignal(c.signal) + ")"
                              : "exited with code " + std::to_string(c.status);
  return "the compiler " + how + " without an answer (it may use at most " + files::byteCount(limits.memoryBytes) +
         " of memory)";
}

CompileResult compileWith(const UserKernel& kernel, const Exercise& ex, const std::string& arch, bool toPtx,
                          const CompileLimits& limits, const CancelToken* cancel);

}  // namespace

std::string nvrtcUnavailableReason() { return nvrtc().missing; }

CompileResult compileUserKernel(const UserKernel& kernel, const Exercise& ex, const std::string& arch,
                                const CompileLimits& limits, const CancelToken* cancel) {
  return compileWith(kernel, ex, arch, false, limits, cancel);
}

CompileResult compileUserKernelToPtx(const UserKernel& kernel, const Exercise& ex, const std::string& arch) {
  return compileWith(kernel, ex, arch, true, CompileLimits{}, nullptr);
}

namespace {

CompileResult compileWith(const UserKernel& kernel, const Exercise& ex, const std::string& arch, bool toPtx,
                          const CompileLimits& limits, const CancelToken* cancel) {
  CompileResult r;
  r.arch = arch;
  if (std::string bad = checkKernelSource(kernel.source); !bad.empty()) {
    r.unavailable = bad;
    return r;
  }
  const NvrtcApi& api = nvrtc();  // loaded here, before the fork: the child only calls it
  if (!api.missing.empty()) {
    r.unavailable = api.missing;
    return r;
  }
  const std::string name = effectiveKernelName(kernel, ex);
  const std::string source = kernel.source + contractAppendix(ex, name);
  const std::string file = kernel.fileName.empty() ? "kernel.cu" : kernel.fileName;
  if (Diagnostic d = refusedInclude(kernel.source, file); !d.text.empty()) {
    r.diagnostics.push_back(std::move(d));
    return r;
  }
  const std::string nameExpr = "&" + name;
  const Captured c = runInChild([&](int fd) { compileInChild(api, source, file, nameExpr, arch, toPtx, fd); },
                                {limits.seconds, limits.memoryBytes, std::size_t(256) << 20}, cancel);
  std::string_view in = c.output;
  std::string rcText;
  const bool answered = c.status == 0 && c.dropped == 0 && takeField(in, rcText) && takeField(in, r.unavailable) &&
                        takeField(in, r.log) && takeField(in, r.loweredName) && takeField(in, toPtx ? r.ptx : r.cubin);
  if (!answered) {
    r.unavailable.clear();
    r.diagnostics.push_back({file, 1, 0, "error", childFailure(c, limits)});
    return r;
  }
  const int rc = std::atoi(rcText.c_str());
  r.diagnostics = explainContract(parseNvrtcLog(r.log), ex, name, file);
  r.ok = rc == NVRTC_SUCCESS && r.unavailable.empty();
  if (rc != NVRTC_SUCCESS && r.diagnostics.empty())
    r.diagnostics.push_back(
        {file, 1, 0, "error",
         rc == NVRTC_ERROR_OUT_OF_MEMORY
             ? "the compiler ran out of memory (it may use " + files::byteCount(limits.memoryBytes) + ")"
             : "NVRTC failed without a diagnostic (" + std::to_string(rc) + ")"});
  return r;
}

}  // namespace

#endif

}  // namespace launchlab
