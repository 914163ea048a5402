#pragma once
/// Results are values: every run, including a failed or skipped one, returns a RunResult with a reason.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "launchlab/engine/array.h"
#include "launchlab/engine/counters.h"
#include "launchlab/engine/device.h"
#include "launchlab/engine/gpu_sharing.h"
#include "launchlab/engine/launch_config.h"
#include "launchlab/explorer/block_trace.h"
#include "launchlab/explorer/occupancy.h"

namespace launchlab {

enum class Status { Ok, Skipped, Failed };
std::string_view statusName(Status s);

/// Timed phases. GPU implementations fill H2D, Kernel, D2H (CUDA events); CPU ones fill Cpu (steady clock).
/// Total is derived per repetition (sum of the phases of that repetition).
enum class Phase { H2D, Kernel, D2H, Cpu, Total };
std::string_view phaseName(Phase p);

struct PhaseStats {
  double medianMs = 0, minMs = 0, maxMs = 0;
  int samples = 0;
  bool operator==(const PhaseStats&) const = default;
};
PhaseStats summarize(std::vector<double> samplesMs);

/// The mismatching indices a verification records (the first ones found); a result read with more is refused.
inline constexpr std::size_t kMaxFirstMismatches = 16;

struct Verification {
  enum class Outcome { Pass, Fail, Reference, Demonstration, NotChecked };
  Outcome outcome = Outcome::NotChecked;
  double maxAbsError = 0;
  double maxRelError = 0;
  std::uint64_t mismatches = 0;
  std::uint64_t compared = 0;
  std::vector<std::uint64_t> firstMismatches;  ///< up to kMaxFirstMismatches flat indices (for highlighting)
  std::string note;  ///< e.g. "tolerance |d| <= 1e-7 + 1e-5|ref|" or the demonstration's lesson
  bool passed() const { return outcome != Outcome::Fail; }
  bool operator==(const Verification&) const = default;
};
std::string_view outcomeName(Verification::Outcome o);

/// A GPU output left on the device for another process (RunRequest::exportDeviceOutputs): the CUDA IPC handle of
/// the exporting process's buffer. Valid until that process's next run on the device (which reuses or frees the
/// buffer) or its exit; whoever opens it reads it before asking for the next run.
struct DeviceOutput {
  std::string name;
  DType dtype = DType::F32;
  std::vector<std::size_t> shape;
  std::uint64_t bytes = 0;
  int device = 0;         ///< CUDA ordinal in the exporting process
  std::string ipcHandle;  ///< cudaIpcMemHandle_t's 64 bytes, hex-encoded
  /// Where the output starts in the memory the handle opens (small allocations share a block; the handle opens the
  /// whole block at its start).
  std::uint64_t offset = 0;
  bool operator==(const DeviceOutput&) const = default;
};

struct ImplResult {
  std::string implId;
  std::string title;
  bool gpu = false;
  bool demonstration = false;
  Status status = Status::Ok;
  std::string reason;  ///< why skipped/failed
  /// GPU: it ended in a sticky CUDA error (an illegal address, a launch failure…) that cost its process the CUDA
  /// context. Such a fault can leave OpenGL in other processes drawing wrong frames (ui/gl/gl_views.h checks).
  bool cudaFault = false;
  std::optional<LaunchConfig> launch;  ///< GPU: the configuration actually launched
  std::string launchNote;              ///< e.g. "auto grid: 4224 blocks = 132 SMs x 32 resident"
  std::map<Phase, PhaseStats> phases;
  double bytesMoved = 0;    ///< by the timed kernel (or CPU loop), read + write
  double flops = 0;         ///< 0 when not meaningful
  double bandwidthGBs = 0;  ///< bytesMoved / median kernel (or cpu) time
  double gflops = 0;
  double speedupTotal = 0;                ///< cpu-serial median total / this median total
  double speedupCompute = 0;              ///< cpu-serial median / this kernel (or cpu) median
  std::map<std::string, double> metrics;  ///< workload-specific numbers (e.g. "lost_updates")
  /// The value of every one-element output by output name (e.g. monte_carlo_pi's "pi"): the answer
  /// itself, kept whether or not the outputs are.
  std::map<std::string, double> scalars;
  Verification verification;
  std::vector<HostArray> outputs;             ///< kept when the request asks for them
  std::vector<DeviceOutput> deviceOutputs;    ///< GPU, when the request asks to export them (RunRequest)
  std::vector<ApiOccupancy> kernelOccupancy;  ///< GPU: the CUDA API's occupancy of each kernel launched (in-process)
  /// GPU, when the request asked for a block trace and the implementation is instrumented: every block of its
  /// traced launch (the last timed repetition), times relative to the earliest start
  /// (launchlab/explorer/block_trace.h).
  std::vector<BlockRecord> blockTrace;
  /// GPU, when the request asked for counters (RunRequest::counters): measured on a separate, untimed run.
  std::optional<ImplCounters> counters;

  double computeMedianMs() const;  ///< Kernel median for GPU, Cpu median for CPU
  double totalMedianMs() const;
  /// Its verification is a lesson to announce (in amber, with its note): an expected outcome that happened, i.e.
  /// a demonstration whose result differs, or a correct launch whose workload declared what it teaches (surplus
  /// threads masked). A demonstration that matched this time teaches nothing to announce.
  bool showsLesson() const;
  bool operator==(const ImplResult&) const = default;
};

/// The Slurm job step a run was measured in (slurm.h); all empty outside a job.
struct SlurmPlacement {
  std::string jobId, stepId, node;
  std::string gpus;  ///< the GPU indices the step was given ("" when Slurm gave none)
  bool inJob() const { return !jobId.empty(); }
  bool operator==(const SlurmPlacement&) const = default;
};

struct RunResult {
  Status status = Status::Ok;  ///< Failed when the request itself failed (bad input, no memory)
  std::string reason;
  std::string workload;
  std::string dtype;
  std::uint64_t n = 0;
  std::uint64_t seed = 0;
  int warmup = 0, reps = 0;
  std::map<std::string, std::string> params;  ///< resolved values as text
  /// The launch the request asked for (unset: auto) and whether it traced blocks: with the fields above, what
  /// "run it again" needs to measure the same launch (each implementation's `launch` is what it resolved to).
  LaunchRequest requestedLaunch;
  bool traceBlocks = false;
  std::string timestamp;  ///< ISO 8601 UTC
  DeviceStatus device;
  std::string host;               ///< CPU model and thread count
  SlurmPlacement slurm;           ///< the job, node and GPUs when it ran in a Slurm job
  GpuSharing sharing;             ///< the GPU's other users around the run (runs that used the GPU)
  std::vector<HostArray> inputs;  ///< kept when the request asks for them
  std::vector<ImplResult> impls;
  /// true when no implementation failed or failed verification.
  bool allPassed() const;
  /// true when an implementation ended in a CUDA fault (ImplResult::cudaFault), here or in the worker.
  bool cudaFault() const;
  const ImplResult* find(std::string_view implId) const;
  /// Every member, arrays included (their bytes); doubles compare by value, so a NaN makes results unequal.
  bool operator==(const RunResult&) const = default;
};

}  // namespace launchlab
