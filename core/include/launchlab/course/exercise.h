#pragma once
/// "Write your own kernel": the contract between the harness and a student's kernel (docs/EXERCISES.md).
///
/// An exercise belongs to a workload and fixes the kernel's signature: its name, its arguments in order (device
/// pointers to the workload's inputs, then outputs, then the sizes the workload defines, its parameters, the seed;
/// the first exercises keep the course's order) and the dtype it is written for, and its launch (1-D over n, or 2-D
/// over a matrix). The
/// workload's folder holds it as data, kernels/<workload>/exercises.json (compiled in; its fields are Exercise's, see
/// docs/EXERCISES.md), and the starting file beside it, kernels/<workload>/exercise*.cu (exerciseFile), states it in
/// its contract comment (a test keeps the two the same); the harness
/// compiles the student's file with NVRTC plus a compile-time check of that signature (a wrong one is one clear error),
/// then runs it as the implementation "my-kernel" through the engine like the built-in CUDA variants.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "launchlab/engine/dtype.h"
#include "launchlab/engine/launch_config.h"

namespace launchlab {

struct RunSetup;

/// The id of the student kernel's implementation in a run.
inline constexpr std::string_view kMyKernel = "my-kernel";

/// The largest kernel file accepted (it travels to the worker inside a request frame of at most 1 MiB).
inline constexpr std::size_t kMaxKernelSourceBytes = 256 * 1024;

/// One argument of a student kernel, in order.
struct ExerciseArg {
  enum class Kind {
    Input,   ///< const T* to the workload's input `index`
    Output,  ///< T* to the workload's output `index`
    N,       ///< unsigned long long: the run's n
    Param,   ///< the workload's numeric parameter `name`, as `type` (float, int)
    Seed,    ///< unsigned long long: the run's seed
    Hits,    ///< unsigned long long*: one counter, zeroed before the kernel (the harness turns it into pi)
    Size,    ///< unsigned long long: a side of the workload's matrices (sizeArgument: n, or the parameter `param`)
  };
  Kind kind = Kind::N;
  std::string name;  ///< the argument's name in the signature (and the parameter's name for Param)
  std::string type;  ///< its C++ type as the signature spells it, e.g. "const float*"
  int index = 0;     ///< Input / Output: the array's position in the workload's inputs / outputs
  /// Size: the integer parameter it is read from ("cols", "k", "d"), 0 there meaning n as the matrix workloads
  /// define it; empty: the run's n (the rows).
  std::string param;
};

/// A 2-D exercise's launch: x over the columns, y over the rows of the matrix the kernel writes, one element per
/// thread; auto grid = ceil(cols / block.x) x ceil(rows / block.y) (capped at the device's grid limits).
struct ExerciseLaunch2D {
  std::string cols;  ///< the Size argument the grid's x covers
  std::string rows;  ///< the Size argument the grid's y covers
  Dim3 autoBlock{32, 8, 1};
  std::string autoBlockWhy;  ///< why that block (the launch note says it)
};

struct Exercise {
  std::string id;        ///< the starting file's name without .cu, e.g. "vector_add_grid_stride"
  std::string workload;  ///< the workload it runs in, e.g. "vector_add"
  std::string title;
  std::string kernelName;    ///< the default kernel name (--kernel-name overrides it)
  DType dtype = DType::F32;  ///< the run's dtype the signature is written for
  std::vector<ExerciseArg> args;
  bool gridStride = false;   ///< 1-D auto grid: resident blocks (grid-stride kernels) instead of ceil(n / block)
  bool zeroOutputs = false;  ///< outputs are zeroed before each launch (kernels that accumulate with atomics)
  /// Outputs the exercise does not compute (e.g. reduce_sum's illustration tree): the harness takes them from the
  /// cpu-serial reference, and verification says so.
  std::vector<std::string> outputsFromReference;
  /// Choice parameters the exercise is written for (name, value), e.g. monte_carlo_pi's shape = circle.
  std::vector<std::pair<std::string, std::string>> requiredChoices;
  /// Set: a 2-D launch (block and grid in x and y); unset: 1-D over n (gridStride picks the auto grid).
  std::optional<ExerciseLaunch2D> launch2D;
  /// The built-in implementation the reference solution mirrors (the GPU checks time them side by side).
  std::string mirrors;
  /// The n `launchlab-cli check` runs without --n: compute-sanitizer slows a kernel down a hundredfold or more, so
  /// a size whose check takes seconds on the GPU machine (a matrix exercise's n is its rows: 256 is 256 x 256).
  std::uint64_t checkN = std::uint64_t(1) << 16;
};

/// The exercise a kernel of `workload` runs as: `exerciseId`'s, or the workload's own when it is empty; null when
/// there is none.
const Exercise* exerciseFor(std::string_view workload, std::string_view exerciseId);

/// Every exercise of the workload folders' exercises.json files: by workload id, then in each file's order.
const std::vector<Exercise>& exercises();

/// One exercises.json's exercises (of workload `workload`, the folder's name), or `problem`: one line naming the
/// file and the field that is wrong, e.g. "kernels/hypot/exercises.json: exercises[0].args[2].kind: unknown kind
/// 'vector'". A file with a problem gives no exercises.
struct ExerciseFile {
  std::vector<Exercise> exercises;
  std::string problem;
};
ExerciseFile parseExerciseFile(std::string_view path, std::string_view content, const std::string& workload);
/// The problems of the built-in exercises files (empty for a sound tree; a test keeps it so). Their exercises are
/// left out of exercises().
const std::vector<std::string>& exerciseProblems();
/// The exercise with this id, or nullptr.
const Exercise* findExercise(std::string_view id);
/// The exercise a workload runs by default: the one whose id is the workload's id, or nullptr.
const Exercise* defaultExercise(std::string_view workload);

/// The exercise's starting file (or, with `solution`, its reference solution) in its workload's folder, relative to
/// kernels/: the exercise named after its workload is "vector_add/exercise.cu", another one adds its id's suffix
/// ("vector_add/exercise_grid_stride.cu"); the solution is beside it ("vector_add/exercise_solution.cu").
std::string exerciseFile(const Exercise& ex, bool solution = false);
/// That file's text, compiled in at build time (the programs need no source tree); empty if the folder lacks it.
std::string_view exerciseText(const Exercise& ex, bool solution = false);

/// The kernel's declaration for messages and docs: `__global__ void vector_add(const float* x, ...)`.
std::string kernelDeclaration(const Exercise& ex, std::string_view kernelName);
/// The parameter types only, as the compile-time check compares them: "const float*, const float*, ...".
std::string parameterTypes(const Exercise& ex);

/// The value of a Size argument in a run: the run's n when `a.param` is empty, else the integer parameter a.param,
/// where 0 means n (matrix workloads: cols = 0 is a square matrix, matmul's k = 0 is m).
std::uint64_t sizeArgument(const ExerciseArg& a, const RunSetup& s);

/// A scalar argument's bytes as cudaLaunchKernel passes it (by address): N, Size and Seed as unsigned long long,
/// Param as its declared type (float, int; else unsigned long long). Pointer arguments are the harness's.
union ExerciseScalar {
  unsigned long long u64;
  float f32;
  int i32;
};
/// The value of scalar argument `a` (kind N, Size, Param or Seed) in a run; 0 for pointer kinds.
ExerciseScalar scalarArgument(const ExerciseArg& a, const RunSetup& s);

/// The matrix a 2-D exercise's grid covers in a run: {cols, rows} from the Size arguments launch2D names. {n, 1}
/// for a 1-D exercise.
std::pair<std::uint64_t, std::uint64_t> launchExtent(const Exercise& ex, const RunSetup& s);

/// A student's kernel as a request carries it (and the worker's wire format).
struct UserKernel {
  std::string exercise;  ///< Exercise::id
  std::string fileName;  ///< for diagnostics, e.g. "my.cu"
  std::string source;
  std::string kernelName;  ///< empty: the exercise's
  /// A worker silent for longer while this kernel runs (a kernel that never ends) is stopped; the kernel's row
  /// fails and the rest of the run is run again without it.
  double timeLimitS = 10;
  bool operator==(const UserKernel&) const = default;
};

/// The title of the implementation a user kernel becomes: "My kernel (my.cu)".
inline std::string userKernelTitle(const UserKernel& k) {
  return "My kernel (" + (k.fileName.empty() ? std::string("kernel.cu") : k.fileName) + ")";
}

/// The kernel name a user kernel uses: its own, else its exercise's.
std::string effectiveKernelName(const UserKernel& k, const Exercise& ex);

/// The message for a kernel file over kMaxKernelSourceBytes.
std::string kernelSizeProblem(std::size_t bytes);
/// "" when the source can go to the compiler; else one line saying why not (empty, too large, not text).
std::string checkKernelSource(std::string_view source);
/// A kernel file's bytes, or one line saying why not: "<path>: no such file", "<path>: is a pipe (FIFO), not a
/// regular file", kernelSizeProblem() (a regular file's real size). Read through core's bounded reader, so a FIFO
/// or /dev/zero cannot block or grow it; the text itself is checkKernelSource()'s to judge.
struct KernelFileText {
  std::string text;
  std::string error;
};
KernelFileText readKernelFile(const std::string& path);

/// What the harness appends to the student's source: a compile-time check that `kernelName` has the exercise's
/// signature. Its diagnostics come from the file kContractFile.
inline constexpr std::string_view kContractFile = "launchlab-contract";
std::string contractAppendix(const Exercise& ex, std::string_view kernelName);

/// One compiler diagnostic.
struct Diagnostic {
  std::string file;
  int line = 0;
  int column = 0;        ///< 1-based; 0 when unknown
  std::string severity;  ///< "error", "warning", "catastrophic error", "remark"
  std::string text;
  bool isError() const { return severity.find("error") != std::string::npos; }
  bool operator==(const Diagnostic&) const = default;
};

/// Parses NVRTC's log: "file(12): error: text", then the source line and a caret line giving the column.
std::vector<Diagnostic> parseNvrtcLog(std::string_view log);
/// Rewrites diagnostics of the contract check into one clear error at the student's file (line 1): the kernel is
/// missing or its signature differs.
std::vector<Diagnostic> explainContract(std::vector<Diagnostic> diags, const Exercise& ex, std::string_view kernelName,
                                        std::string_view fileName);
/// "FILE:LINE:COL: error: TEXT" (COL left out when unknown).
std::string formatDiagnostic(const Diagnostic& d);

}  // namespace launchlab
