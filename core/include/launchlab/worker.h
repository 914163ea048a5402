#pragma once
/// Process isolation for GPU work. A kernel fault such as an illegal address destroys the CUDA context of the
/// process it happens in, and CUDA offers no in-process recovery. A long-lived front end (the GUI) therefore runs
/// its jobs in a worker process (`launchlab-cli worker`) through IsolatedRunner: when a fault kills the worker's
/// context, or the worker dies, the run comes back as a failed result with the reason, and the next run starts a
/// fresh worker (a fresh context on a reset device).
///
/// Protocol over the worker's stdin/stdout: frames of [type: 1 byte][length: 8 bytes LE][payload]. Parent → worker:
/// 'I' (device status?), 'K' (the roofline's ceilings of device N? payload: N in decimal, -1 for the current one),
/// 'R' (run request), 'C' (cancel the run in flight). Worker → parent: 'I' (device status), 'K' (ceilings, measured
/// there), 'P' (progress), 'L' (this worker's CUDA context is lost: it exits after the result), 'Z' (result).
/// Payloads are launchlab::wire messages.
#include <sys/types.h>

#include <map>
#include <optional>
#include <cstdint>
#include <string>
#include <vector>

#include "launchlab/cancel.h"
#include "launchlab/engine.h"
#include "launchlab/roofline.h"

namespace launchlab {

/// The largest frame the worker reads from its parent (requests are small: a request with its parameters and input
/// file names). A larger frame, one of unknown type, or one cut short by the end of the input gets one failed
/// result in reply and the worker exits with code 2.
inline constexpr std::uint64_t kMaxRequestFrameBytes = std::uint64_t(1) << 20;

/// The worker side: serves frames from inFd, answers on outFd, until EOF or until a sticky GPU error has lost
/// the CUDA context (then it answers the run in flight and exits). Returns the process exit code (0, or 3 after
/// a lost context).
int serveWorker(Engine& engine, int inFd, int outFd);

/// How to start a worker: the command, what to call it in messages, whether its stderr is captured (its last lines
/// then end the reason of a failed start or run: ssh's "Connection refused", "Permission denied (publickey)"), and
/// the host it runs on when that is not this machine (remote.h).
struct WorkerCommand {
  std::vector<std::string> argv;  ///< argv[0] is found on PATH when it has no '/'
  std::string name = "the GPU worker";
  bool captureStderr = false;
  std::string remoteHost;  ///< "" = this machine
};

/// The parent side. Not thread-safe: use from one thread (the GUI's compute thread).
class IsolatedRunner {
 public:
  /// argv[0] is the worker executable (e.g. the path of launchlab-cli), the rest its arguments ("worker").
  explicit IsolatedRunner(std::vector<std::string> argv);
  explicit IsolatedRunner(WorkerCommand command);
  ~IsolatedRunner();
  IsolatedRunner(const IsolatedRunner&) = delete;
  IsolatedRunner& operator=(const IsolatedRunner&) = delete;

  /// The worker's view of the device (starts the worker if needed; cached until the worker is replaced).
  DeviceStatus deviceStatus();
  /// The roofline's ceilings of device `device` (-1: the worker's current one), measured by the worker on the GPU
  /// once per device for the life of this runner; invalid ceilings (gpuName: why) when the worker cannot answer.
  Ceilings ceilings(int device = -1);
  /// Runs a request in the worker. Never throws: a worker that cannot start, dies or sends a malformed message gives
  /// a failed result.
  /// Cancellation is forwarded; progress is relayed (called on this thread).
  RunResult run(const RunRequest& req, const CancelToken* cancel = nullptr, const ProgressFn& progress = {});
  /// How many workers were started so far (1 after the first run; more after faults).
  int workersStarted() const { return m_started; }
  pid_t workerPid() const { return m_pid; }
  const WorkerCommand& command() const { return m_cmd; }

 private:
  bool ensureStarted(std::string& error);
  /// Sends a frame of `type` and reads the worker's answer of the same type into `reply`: "" or why not (the worker
  /// could not start, or ended before reporting `what`).
  std::string ask(char type, const std::string& payload, std::string& reply, const std::string& what);
  void stop();
  std::string reap();  ///< waits for a dead worker; describes how it ended (with its last stderr line when captured)
  void drainStderr();  ///< keeps the tail of a captured stderr (so a chatty worker never blocks on a full pipe)
  /// Handles one frame of a run: relays progress, notes a lost context, returns the result. Throws BadInput for a
  /// malformed payload.
  std::optional<RunResult> take(char type, const std::string& payload, const ProgressFn& progress);

  WorkerCommand m_cmd;
  pid_t m_pid = -1;
  int m_errFromWorker = -1;
  std::string m_stderrTail;
  int m_toWorker = -1;
  int m_fromWorker = -1;
  int m_started = 0;
  bool m_haveStatus = false;
  bool m_retiring = false;
  DeviceStatus m_status;
  std::map<int, Ceilings> m_ceilings;
};

}  // namespace launchlab
