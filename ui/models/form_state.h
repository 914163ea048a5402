#pragma once
/// The parameter panel's content as plain data, its validation and its translation into a RunRequest.
/// No widgets here: tests check every rule without a window.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "launchlab/engine/engine.h"
#include "launchlab/engine/workload.h"

namespace launchlab::ui {

class Backend;

/// What the user typed or chose for one workload (text as typed, so invalid input round-trips too).
struct FormState {
  std::string workload;
  std::string size;                           ///< "16Mi", "1M", "4096", "2^24"
  std::string dtype;                          ///< "f32", "f64", …
  std::map<std::string, std::string> params;  ///< name -> text; missing names take the default
  bool autoBlock = true;
  std::string block = "256";  ///< "256" (1D) or "16x16" (2D)
  bool autoGrid = true;
  std::string grid = "1024";
  std::vector<std::string> impls;  ///< selected implementation ids (cpu-serial always runs)
  int reps = 5;
  int warmup = 1;
  std::uint64_t seed = 42;
  bool traceBlocks = false;  ///< run the instrumented kernels (RunRequest::traceBlocks): blocks on SMs
  /// Hardware counters (launchlab/engine/counters.h ids) measured on one more, untimed run of each GPU implementation
  /// (RunRequest::counters); empty: off. A course experiment's list starts with the counter its lesson is about.
  std::vector<std::string> counters;
  bool operator==(const FormState&) const = default;
};

/// Field keys of FormCheck: "size", "dtype", "param:<name>", "params" (a rule across parameters),
/// "block", "grid", "impls", "reps", "warmup", "form" (anything else).
struct FormCheck {
  std::map<std::string, std::string> errors;    ///< field -> one-line reason; Run is disabled while non-empty
  std::map<std::string, std::string> warnings;  ///< field -> advice that does not block a run
  std::optional<RunRequest> request;            ///< the request, when there is no error
  bool ok() const { return errors.empty(); }
  /// "field: reason" of the first error, "" when valid.
  std::string firstError() const;
};

/// The form as the text every front end hands the shared parser (request.h). Parameters left out take their
/// defaults; an empty size or dtype is an error there, not "the default".
RequestText requestTextOf(const FormState& form);

/// The workload's defaults: default size and dtype, default parameters, auto launch, every implementation.
FormState defaultForm(const Workload& w);
/// Default text of one parameter ("0.5", "256", or the default choice).
std::string defaultParamText(const ParamSpec& spec);
/// Compact text for a size that parseSize reads back: 16777216 -> "16Mi", 1000000 -> "1M", 1000003 -> "1000003".
std::string sizeText(std::uint64_t n);

/// Checks every field in place (size, dtype, each parameter, block and grid against the device limits,
/// repetitions), then asks the engine about the whole request. Never throws. When the form ticks "my-kernel",
/// `kernel` (the kernel editor's file) becomes the request's user kernel; without one, my-kernel is left out.
FormCheck checkForm(const FormState& form, const Backend& backend, const UserKernel* kernel = nullptr);

/// The largest size <= the workload's default whose run stays well under a second on one CPU core
/// (estimated from bytesMoved and flops at about 1 GB/s and 0.5 GFLOP/s for `passes` passes), and that the
/// workload accepts. Used for the first run a new user sees.
std::uint64_t chooseQuickSize(const Workload& w, int passes, double budgetSeconds = 0.6);

/// Host bytes a run keeps when it keeps inputs and outputs of `implCount` implementations.
double keptBytesEstimate(const Workload& w, std::uint64_t n, DType dtype, const ParamValues& params, int implCount);
/// Decides whether a run may keep its arrays: true when the estimate fits in `capBytes`. Sets `note`
/// (for the log) when it does not.
bool mayKeepArrays(double estimateBytes, double capBytes, std::string& note);
/// The memory policy of a run: it keeps its inputs and outputs only when they fit keptBytesCap of the available host
/// memory; `note` says why not.
bool mayKeepArraysOf(const Workload& w, const RunRequest& req, std::string& note);
/// The memory cap for kept arrays: a quarter of the available host memory, at most 8 GiB, at least 256 MiB.
double keptBytesCap(std::size_t availableBytes);

}  // namespace launchlab::ui
