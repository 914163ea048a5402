#pragma once
/// A run request: as text (what a user typed in the window or on the command line), parsed (RunRequest), and the
/// problems found on the way, each naming its field. One parser serves every front end, and the engine
/// (Engine::validate) is the one owner of the rules a parsed request must meet, so messages cannot drift between
/// the window and the CLI.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "launchlab/course/exercise.h"
#include "launchlab/engine/dtype.h"
#include "launchlab/engine/launch_config.h"

namespace launchlab {

struct RunRequest {
  std::string workload;
  std::optional<std::uint64_t> n;  ///< default: the workload's defaultN
  std::optional<DType> dtype;      ///< default: the workload's defaultDType
  LaunchRequest launch;
  std::vector<std::string> impls;  ///< empty: all; cpu-serial always runs (it is the reference)
  int warmup = 1;
  int reps = 5;
  std::uint64_t seed = 42;
  std::map<std::string, std::string> params;      ///< name -> text value
  std::map<std::string, std::string> inputFiles;  ///< input name -> .npy path
  bool keepInputs = false;
  bool keepOutputs = false;
  /// Run the instrumented kernels of the implementations that have them, recording each block's SM and start/end
  /// time (ImplResult::blockTrace). Off: the ordinary kernels run, untouched.
  bool traceBlocks = false;
  /// Sweeps set it: the GPU implementations' outputs are compared with cpu-serial's on the device (the reference
  /// uploaded once per sweep), and read on the host only when they differ (ImplContext::compareReference).
  bool compareOnDevice = false;
  /// GPU implementations leave their outputs on the device and return CUDA IPC handles to them
  /// (ImplResult::deviceOutputs): the window draws them through CUDA–OpenGL interop without a host copy.
  bool exportDeviceOutputs = false;
  /// Off: only the selected implementations run — cpu-serial is not run as the reference and nothing is verified
  /// (live mode's frames: a new seed each frame, drawn at once).
  bool verify = true;
  std::optional<int> device;  ///< CUDA device index (DeviceStatus::devices); default: the runtime's selected one
  /// Hardware counters (launchlab/engine/counters.h ids) measured for every GPU implementation on one more, untimed run
  /// of its kernel phase under the engine's CounterProfiler (ImplResult::counters). Empty: none.
  std::vector<std::string> counters;
  /// A student's kernel (launchlab/course/exercise.h): adds the implementation "my-kernel" to the run.
  std::optional<UserKernel> userKernel;
};

/// A problem with a request: which field and what is wrong (one line, for stderr or an inline marker).
struct RequestProblem {
  /// "workload", "n", "dtype", "block", "grid", "impl", "reps", "warmup", "seed", "device", "param:<name>", "params"
  /// (a rule across parameters), "input:<name>".
  std::string field;
  std::string message;
  bool operator==(const RequestProblem&) const = default;
};

/// The largest values repetitions and warm-up runs may take (a typo must not run for ever).
inline constexpr int kMaxRepetitions = 100000;

/// A request field by field as typed. Empty n / dtype mean the workload's default (or, for dtype, the input
/// files'); "auto" block / grid let the implementation choose; impls is a comma-separated list or "all".
struct RequestText {
  std::string workload;
  std::string n;
  std::string dtype;
  std::string block = "auto";
  std::string grid = "auto";
  std::string impls = "all";
  std::string reps = "5";
  std::string warmup = "1";
  std::string seed = "42";
  std::string device;                             ///< CUDA device index; empty: the runtime's selected device
  std::map<std::string, std::string> params;      ///< name -> value as typed (checked by the engine)
  std::map<std::string, std::string> inputFiles;  ///< input name -> .npy path
};

/// Sets one field of `text` by its problem-field name ("n", "block", "param:sigma", …): how sweeps vary a request.
/// Returns false for a field that cannot be set this way.
bool setRequestField(RequestText& text, std::string_view field, const std::string& value);

struct ParsedRequest {
  RunRequest request;                    ///< the fields that parsed (the others keep their defaults)
  std::vector<RequestProblem> problems;  ///< syntax problems, one per field at most
  bool ok() const { return problems.empty(); }
};

/// Turns text into a request: sizes ("1M", "16Mi", "2^24"), dtypes, launch shapes ("256", "16x16", "auto"),
/// whole numbers for repetitions, warm-up and seed. Whether the values make sense for the workload and the device
/// (ranges, supported dtypes, limits, parameters) is Engine::validate's to say.
ParsedRequest parseRequest(const RequestText& text);

/// The text form of a request (parseRequest's inverse for everything a request holds but keepInputs, keepOutputs
/// and traceBlocks): the base of a sweep, and what a command line reproduces.
RequestText requestText(const RunRequest& req);

/// Advice that does not block a run (e.g. a block that is not a multiple of the warp size), by field.
std::vector<RequestProblem> launchAdvice(const LaunchRequest& launch, const DeviceLimits& limits);

/// Splits "a,b,c" into its non-empty items.
std::vector<std::string> splitList(std::string_view text);

}  // namespace launchlab
