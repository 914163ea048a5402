#pragma once
/// Compiling a student's kernel with NVRTC, the CUDA toolkit's runtime compiler. No GPU is needed.
///
/// The toolkit ships NVRTC as a shared library only (libnvrtc.so.<major>), so it is loaded at run time with
/// dlopen ("libnvrtc.so.<major>", then "libnvrtc.so"): binaries start without it, and without it compiling says
/// "NVRTC not found: install the CUDA toolkit's runtime compiler". A build that found no nvrtc.h says "built
/// without NVRTC". No CUDA header appears here.
#include <string>
#include <vector>

#include "launchlab/exercise.h"

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

/// Compiles `kernel` for the exercise and architecture ("sm_90"), with line info, plus the signature check.
/// Never throws.
CompileResult compileUserKernel(const UserKernel& kernel, const Exercise& ex, const std::string& arch);

/// The same, to PTX for the virtual architecture of `arch` ("sm_75" → compute_75; `cubin` stays empty): what the
/// access probes instrument (ptx_instrument.h). Never throws.
CompileResult compileUserKernelToPtx(const UserKernel& kernel, const Exercise& ex, const std::string& arch);

/// "" when NVRTC can be loaded; else why not (the one message compile gives).
std::string nvrtcUnavailableReason();

/// The architecture to compile for from a compute capability (9, 0) → "sm_90".
std::string archFor(int major, int minor);

}  // namespace launchlab
