#pragma once
/// Who else uses the GPU. Through NVML (the driver's libnvidia-ml.so.1, opened at run time: no header or library is
/// needed to build, and a machine without the driver runs as before), a run of GPU implementations samples the GPU's
/// compute processes, utilisation and clocks just before and just after its work; a result measured while another
/// process used the GPU is flagged (RunResult::sharing), since its timings include the other process's share.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace launchlab {

struct GpuProcess {
  unsigned pid = 0;
  std::uint64_t usedMemoryBytes = 0;  ///< 0 when NVML cannot tell
  std::string name;                   ///< its command (/proc/PID/comm), "" when not visible here (another container)
  bool operator==(const GpuProcess&) const = default;
};

/// One look at the GPU.
struct GpuSample {
  bool ok = false;
  std::string problem;                ///< when not ok: "NVML not available: <reason>", or the call that failed
  std::vector<GpuProcess> processes;  ///< every compute process on the GPU (this one included, when it has a context)
  int gpuUtilPercent = -1, memUtilPercent = -1;  ///< over NVML's last sample period; -1 unknown
  int smClockMHz = -1, memClockMHz = -1;         ///< -1 unknown
  bool operator==(const GpuSample&) const = default;
};

/// What a run knows about the GPU's other users. `checked` is false for runs that used no GPU (nothing sampled).
struct GpuSharing {
  bool checked = false;
  GpuSample before, after;
  bool shared = false;  ///< another process used the GPU around the run (sharingRule)
  std::string note;     ///< why it is flagged, or why nothing is known ("NVML not available: …"); "" when clean
  bool operator==(const GpuSharing&) const = default;
};

/// Utilisation of the GPU before the run, when no other process is visible (processes of other containers are not),
/// from which the GPU counts as busy with someone else's work: this process has not launched anything yet then.
inline constexpr int kBusyBeforePercent = 10;

/// The flagging rule: shared when a compute process other than `self` and `parent` (the window whose worker this is:
/// it holds a context but waits for the result) is on the GPU before or after the run, or the GPU was at least
/// kBusyBeforePercent busy just before the run started. Fills `shared` and `note`.
GpuSharing sharingRule(GpuSample before, GpuSample after, unsigned self, unsigned parent);

/// One line for people: "GPU users: pid 4242 (python3, 1.2 GiB)" or "GPU users: none besides this one".
std::string gpuUsersLine(const GpuSample& s, unsigned self);

/// Reads the GPU through NVML. Thread-compatible; the library is opened once, on the first sample.
class GpuMonitor {
 public:
  virtual ~GpuMonitor() = default;
  /// The GPU at PCI bus id `pciBusId` ("" = NVML's device 0).
  virtual GpuSample sample(const std::string& pciBusId) = 0;
};

/// NVML from libnvidia-ml.so.1 (or $LAUNCHLAB_NVML_LIBRARY): when it cannot be opened or initialised every sample
/// says so ("NVML not available: libnvidia-ml.so.1: cannot open shared object file…").
std::shared_ptr<GpuMonitor> makeNvmlMonitor();

}  // namespace launchlab
