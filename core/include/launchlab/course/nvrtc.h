#pragma once
/// Compiling a student's kernel with NVRTC, the CUDA toolkit's runtime compiler. No GPU is needed.
///
/// The toolkit ships NVRTC as a shared library only (libnvrtc.so.<major>), so it is loaded at run time with
/// dlopen ("libnvrtc.so.<major>", then "libnvrtc.so"): binaries start without it, and without it compiling says
/// "NVRTC not found: install the CUDA toolkit's runtime compiler". A build that found no nvrtc.h says "built
/// without NVRTC". No CUDA header appears here.
#include <string>
#include <vector>

#include "launchlab/course/exercise.h"
#include "launchlab/engine/cancel.h"

namespace launchlab {

struct CompileResult {
  bool ok = false;          ///< compiled (warnings allowed)
  std::string unavailable;  ///< set when nothing was compiled: NVRTC missing, or the file refused up front
  std::vector<Diagnostic> diagnostics;
  std::string log;          ///< the compiler's log as it printed it
  std::string cubin;        ///< the compiled kernel for `arch`
  std::string ptx;          ///< compileUserKernelToPtx: the kernel as PTX (no trailing NUL)
  std::string loweredName;  ///< the kernel's symbol in the cubin (its mangled name)
  std::string arch;         ///< e.g. "sm_90"
};

/// What one compile may take. NVRTC has no limits of its own: an #include of a FIFO waits forever, and a macro that
/// doubles itself forty times runs for many minutes and gigabytes.
struct CompileLimits {
  double seconds = 30;                             ///< a course kernel compiles in well under a second
  std::size_t memoryBytes = std::size_t(2) << 30;  ///< address space the compiler may add
};

/// Compiles `kernel` for the exercise and architecture ("sm_90"), with line info, plus the signature check. NVRTC
/// runs in a child process (this process never runs it: it cannot be stopped in-process, and it installs signal
/// handlers of its own while it compiles) under `limits`; past them, or when `cancel` is set, the child is killed and
/// the result is one error diagnostic saying so. An #include of a file that is not a regular one (a FIFO, a device)
/// is refused before compiling. Never throws.
CompileResult compileUserKernel(const UserKernel& kernel, const Exercise& ex, const std::string& arch,
                                const CompileLimits& limits = {}, const CancelToken* cancel = nullptr);

/// The same, to PTX for the virtual architecture of `arch` ("sm_75" → compute_75; `cubin` stays empty): what the
/// access probes instrument (ptx_instrument.h). Never throws.
CompileResult compileUserKernelToPtx(const UserKernel& kernel, const Exercise& ex, const std::string& arch);

/// "" when NVRTC can be loaded; else why not (the one message compile gives).
std::string nvrtcUnavailableReason();

/// The architecture to compile for from a compute capability (9, 0) → "sm_90".
std::string archFor(int major, int minor);

}  // namespace launchlab
