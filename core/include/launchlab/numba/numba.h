#pragma once
/// A student's kernel written in Numba (`@cuda.jit` in a .py file), the course's own language.
///
/// The exercise's contract (exercise.h) in Numba's terms: the kernel takes the exercise's arrays as NumPy-style
/// arrays (1-D, or 2-D rows x cols for the matrix exercises, C-contiguous) and its scalars, in the contract's order,
/// leaving out the sizes an array already carries (x.size, a.shape) as the seed's kernels do. Numba's array model
/// passes each array as 5 + 2 x rank 64-bit parameters: meminfo, parent, nitems, itemsize, data, shape[rank],
/// strides[rank] (bytes); a scalar is one parameter of its own width.
///
/// A compile helper (resources/python/launchlab_numba.py, compiled in) runs in a Python with numba-cuda and turns
/// the file into PTX with line info (numba.cuda.compile_ptx: no GPU needed). Its PTX entry's parameters are then
/// checked against the contract, and the PTX is cached per file content, signature and architecture (in the
/// process, and on disk under the user's cache folder), so a sweep compiles once.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "launchlab/course/exercise.h"
#include "launchlab/course/nvrtc.h"
#include "launchlab/engine/cancel.h"

namespace launchlab {

/// One argument of a Numba kernel: the contract's argument `arg` (an index into Exercise::args), as Numba types it.
struct NumbaArg {
  std::size_t arg = 0;
  int rank = 0;  ///< 0: a scalar; 1 or 2: an array
  /// 2-D arrays: the Size arguments (by name) giving its rows and cols; 1-D: its length is the array's element
  /// count in the run (a Hits counter: 1).
  std::string rows, cols;
  std::string type;  ///< Numba's type: "float32[::1]", "float32[:, ::1]", "int64", "float32", "boolean"
  /// A fixed scalar the contract does not have (a seed kernel's flag, "coalesced=True"): its name, and its bits as
  /// one launch slot holds them; `arg` is then unused.
  std::string fixedName;
  std::optional<std::uint64_t> fixedBits;
  /// An array the kernel updates in place: the contract's output `arg`, which holds the contract's input
  /// `loadedFrom` (an index into Exercise::args) when the kernel starts.
  std::optional<std::size_t> loadedFrom;
};

/// The Numba contract of `ex`: its arguments in order. A Python kernel is generic in its dtype, as the seed's are:
/// with `runDtype`, the arrays of the exercise's dtype take the run's (vector_add's x, y, out as int32[::1] in an
/// i32 run); the others keep theirs (histogram's counts stay uint32).
std::vector<NumbaArg> numbaArgs(const Exercise& ex, std::optional<DType> runDtype = std::nullopt);

/// A kernel's own argument list, for a kernel whose parameters differ from the contract's (a seed notebook's kernel,
/// kept unchanged): its file's leading comment line "# arguments: a b out coalesced=True" names the kernel's
/// parameters in order, each one of
///   NAME        the contract's argument NAME (an array, or a scalar: n, a size, a parameter, the seed)
///   NAME=VALUE  a fixed scalar the contract lacks: True or False (boolean), an integer (int64), a number with a
///               point (float64)
///   OUT<IN      the contract's output OUT holding the contract's input IN when the kernel starts (a kernel that
///               updates its array in place: add_one(x) as "out<x")
/// The contract's arguments it leaves out are not passed (a counter launched with exactly n threads needs no n);
/// every output is passed. Without that line: numbaArgs.
struct NumbaKernelArgs {
  std::vector<NumbaArg> args;
  std::string error;  ///< the line's problem, one line; empty when the list is sound
  int line = 0;       ///< the "# arguments:" line (0: the file has none)
};
NumbaKernelArgs numbaKernelArgs(std::string_view source, const Exercise& ex,
                                std::optional<DType> runDtype = std::nullopt);

/// The words after "# KEY:" in a Python file's leading comment lines (before its first other line), and the line
/// number of the first such line (0: none).
struct PythonHeader {
  std::vector<std::string> words;
  int line = 0;
};
PythonHeader pythonHeader(std::string_view text, std::string_view key);

/// The signature the helper compiles: the types joined by ", ".
std::string numbaSignature(const Exercise& ex, std::optional<DType> runDtype = std::nullopt);
std::string numbaSignature(const std::vector<NumbaArg>& args);
/// "@cuda.jit def vector_add(x, y, out)  # float32[::1], ..." for messages and docs.
std::string numbaDeclaration(const Exercise& ex, std::string_view kernelName);
std::string numbaDeclaration(const Exercise& ex, const std::vector<NumbaArg>& args, std::string_view kernelName);
/// The declaration `k` is launched with: its own argument list where it has a sound one, else the contract's.
std::string numbaDeclaration(const UserKernel& k, const Exercise& ex);
/// The bytes of each PTX parameter the contract gives, in order (8 for arrays' fields and 64-bit scalars, 4 for
/// float32 / int32, 1 for a boolean).
std::vector<int> numbaParamBytes(const Exercise& ex);
std::vector<int> numbaParamBytes(const std::vector<NumbaArg>& args);

/// A 2-D array's {rows, cols} in a run (its Size arguments' values; an N argument is the run's n).
std::pair<std::uint64_t, std::uint64_t> numbaMatrixShape(const Exercise& ex, const NumbaArg& a, const RunSetup& s);

/// The exercise's Numba starting file (or, with `solution`, its reference solution) relative to kernels/: the .cu
/// file's twin beside it ("vector_add/exercise_grid_stride.py").
std::string numbaExerciseFile(const Exercise& ex, bool solution = false);
/// That file's text, compiled in at build time; empty if the folder lacks it.
std::string_view numbaExerciseText(const Exercise& ex, bool solution = false);

/// Whether a kernel file is Python (its name ends in .py): it goes to Numba instead of NVRTC.
bool isPythonKernel(const UserKernel& k);

/// Whether the kernel uses shared memory (__shared__ in C++, cuda.shared.array in Numba): racecheck then looks for
/// hazards on it.
bool kernelUsesSharedMemory(const UserKernel& k);

/// The parameters of the PTX entry `entry` as their PTX types (".u64", ".f32", ...), in order; nullopt-like empty
/// `found` when the PTX has no such entry.
struct PtxEntry {
  bool found = false;
  std::vector<std::string> params;
};
PtxEntry ptxEntryParams(std::string_view ptx, std::string_view entry);
/// "" when the entry's parameters are the contract's (or those of the kernel's own list, `args`); else one line
/// saying which differs.
std::string checkPtxParams(const PtxEntry& entry, const Exercise& ex);
std::string checkPtxParams(const PtxEntry& entry, const std::vector<NumbaArg>& args);

/// How the helper is run.
struct NumbaOptions {
  std::string python;                      ///< the Python to use; empty: findPython's choice
  double timeLimitS = 120;                 ///< a helper that runs longer is stopped: one line
  std::size_t maxOutputBytes = 16u << 20;  ///< a helper that prints more is refused
  std::string cacheDir;                    ///< empty: numbaCacheDir(); "-": no disk cache
  const CancelToken* cancel = nullptr;     ///< once set, a helper still running is stopped (the files: unavailable)
};

/// The Python to run the helper with: `explicitPath`, else $LAUNCHLAB_PYTHON, else the project's .venv
/// (LAUNCHLAB_PROJECT_VENV, set at build time), else python3 on PATH.
std::string findPython(const std::string& explicitPath);
/// The folder of the PTX cache: $LAUNCHLAB_CACHE_DIR/numba, else $XDG_CACHE_HOME/launchlab/numba, else
/// ~/.cache/launchlab/numba.
std::string numbaCacheDir();
/// The one line saying how to get numba-cuda.
std::string numbaInstallHint();

/// A compiled Numba kernel: CompileResult's `cubin` holds the PTX text and `loweredName` its entry.
struct NumbaCompileResult : CompileResult {
  bool cached = false;   ///< the PTX came from the cache (no Python ran)
  double compileMs = 0;  ///< the helper's wall time when it ran (the first compile), else the cache lookup's
  std::string python;    ///< the Python that ran it
  int defLine = 0;       ///< the kernel's `def` line
};

/// Compiles `kernel` (a .py file's text) for the exercise and architecture ("sm_90"), with the kernel's own argument
/// list where its file has one (numbaKernelArgs). Never throws: a file refused up front or a helper that cannot run
/// is `unavailable`; a file Numba rejects, or an argument list that does not fit the exercise, is one error
/// diagnostic at its line.
NumbaCompileResult compileNumbaKernel(const UserKernel& kernel, const Exercise& ex, const std::string& arch,
                                      const NumbaOptions& options = {}, std::optional<DType> dtype = std::nullopt);

/// One file of several compiled together (one Python for all: Numba's import, about a second, is paid once).
struct NumbaJob {
  UserKernel kernel;
  const Exercise* exercise = nullptr;
  std::string arch;
  std::optional<DType> dtype;  ///< the run's (numbaArgs); unset: the exercise's
};
/// compileNumbaKernel for each job, in order; the files not in the cache go to one helper run.
std::vector<NumbaCompileResult> compileNumbaKernels(const std::vector<NumbaJob>& jobs,
                                                    const NumbaOptions& options = {});

/// A seed notebook's own kernel, copied unchanged into its lesson folder (kernels/<workload>/seed_<name>.py, compiled
/// in), whose header names the seed's file and line, the experiments that run it ("# experiments: tp32-add-kernel
/// tp32-no-synchronize") and the exercise whose contract it fits ("# exercise: vector_add"), with its own argument
/// list where its parameters differ from the contract's ("# arguments:", numbaKernelArgs).
struct SeedNumbaKernel {
  std::string path;  ///< "kernels/vector_add/seed_add_kernel.py"
  std::string_view text;
  std::string exercise;
  std::vector<std::string> experiments;
};
/// Every seed kernel, by path.
std::vector<SeedNumbaKernel> seedNumbaKernels();
/// The seed kernel experiment `experimentId` runs (`course run ID --numba`), or none.
std::optional<SeedNumbaKernel> seedNumbaKernelFor(std::string_view experimentId);

/// The helper's text (resources/python/launchlab_numba.py, compiled in).
std::string_view numbaHelperSource();

}  // namespace launchlab
