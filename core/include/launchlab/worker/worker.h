#pragma once
/// Process isolation for GPU work. A kernel fault such as an illegal address destroys the CUDA context of the
/// process it happens in, and CUDA offers no in-process recovery. A long-lived front end (the GUI) therefore runs
/// its jobs in a worker process (`launchlab-cli worker`) through IsolatedRunner: when a fault kills the worker's
/// context, or the worker dies, the run comes back as a failed result with the reason, and the next run starts a
/// fresh worker (a fresh context on a reset device).
///
/// Protocol (frames: io/frames.h; payloads: launchlab::wire messages). The worker starts with a hello frame that
/// names the protocol's version; the parent skips anything before it (a remote shell's banner: shown as program
/// output) and refuses another version with one message. Parent → worker: 'I' (device status?), 'K' (the roofline's
/// ceilings of device N? payload: N in decimal, -1 for the current one), 'R' (run request), 'C' (cancel the request
/// sent before it: a cancel is never lost, however early). Worker → parent: 'H' (hello), 'I' (device status), 'K'
/// (ceilings, measured there), 'P' (progress), 'O' (what the run's code printed to stdout, e.g. a kernel's printf),
/// 'L' (this worker's CUDA context is lost: it exits after the result), 'Z' (result).
///
/// The frames never share a stream with anything that prints: the worker process (serveWorkerProcess) keeps its
/// stdout for frames on a private descriptor and points fd 1 at a pipe that it forwards as 'O' frames. Over SSH the
/// frames still travel on ssh's stdout, which only the remote shell's start-up files can write to before the hello.
#include <sys/types.h>

#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "launchlab/engine/cancel.h"
#include "launchlab/engine/engine.h"
#include "launchlab/explorer/roofline.h"

namespace launchlab {

namespace frames {
class FrameReader;  // io/frames.h
}

/// The largest frame the worker reads from its parent (requests are small: a request with its parameters and input
/// file names). A larger frame, one of unknown type, or one cut short by the end of the input gets one failed
/// result in reply and the worker exits with code 2.
inline constexpr std::uint64_t kMaxRequestFrameBytes = std::uint64_t(1) << 20;

/// The program output a run keeps (what its code printed, e.g. a kernel's printf); more is counted, not kept.
inline constexpr std::size_t kMaxProgramOutputBytes = std::size_t(64) << 10;

/// The worker side: says hello on outFd, serves frames from inFd, answers on outFd, until EOF or until a sticky GPU
/// error has lost the CUDA context (then it answers the run in flight and exits). What arrives on programOutputFd
/// (when >= 0; non-blocking) is forwarded as program output, all of a run's before its result. Returns the process
/// exit code (0, 2 after a malformed frame, or 3 after a lost context).
int serveWorker(Engine& engine, int inFd, int outFd, int programOutputFd = -1);
/// `launchlab-cli worker`: serveWorker on stdin, with the frames on a private copy of stdout and fd 1 pointed at a
/// pipe of program output, so that whatever prints cannot corrupt the frames.
int serveWorkerProcess(Engine& engine);

/// A worker that waits in a queue before it starts (a Slurm job step, slurm.h): what it waits for, and how to give up
/// its place. IsolatedRunner asks while the worker has not said hello; its start time limit counts from when the
/// worker stops waiting.
class QueueWatch {
 public:
  virtual ~QueueWatch() = default;
  /// "" when the worker is not (or no longer) waiting, else one line for the user ("waiting for a GPU: job 4711
  /// PENDING (Resources)"). `stderrText`: what the worker's command printed on stderr so far (captured).
  virtual std::string waiting(const std::string& stderrText) = 0;
  /// Gives up the queued or running job: called before the worker's command is stopped by force, since killing the
  /// command alone can leave the job in the queue.
  virtual void release(const std::string& stderrText) = 0;
  /// The machine the worker runs or last ran on, as the queue knows it ("" when it does not): names the node of a
  /// worker lost before any of its results could.
  virtual std::string where() { return {}; }
};

/// The most bytes a worker's result for `req` can legitimately hold: its inputs and every implementation's outputs
/// when the request keeps them (the workload's shapes at the request's size and dtype), block traces when it asks
/// for them, and a margin for the rest. 0 (no bound but this machine's memory) when the request does not resolve
/// here: an input file only the worker can read, or a request the worker refuses in a small answer.
std::uint64_t resultBytesBound(const Registry& registry, const RunRequest& req);

/// How to start a worker: the command, what to call it in messages, whether its stderr is captured (its last lines
/// then end the reason of a failed start or run: ssh's "Connection refused", "Permission denied (publickey)"), and
/// the host it runs on when that is not this machine (remote.h).
struct WorkerCommand {
  std::vector<std::string> argv;  ///< argv[0] is found on PATH when it has no '/'
  std::string name = "the GPU worker";
  bool captureStderr = false;
  std::string remoteHost;  ///< "" = this machine
  /// "NAME=value" entries the process gets on top of this one's environment (a local worker: the remote commands'
  /// own environment is the server's), e.g. OMP_NUM_THREADS from cpuThreadsBesideTheWindow.
  std::vector<std::string> env;
  /// A worker that has not said hello, or answered the device query, within this is stopped (a connection that
  /// never answers); the start of a local worker takes well under a second, a GPU's first query a few.
  double startTimeoutS = 60;
  /// A worker that has not answered a cancel within this is stopped (a worker stuck in a frame or silent).
  double cancelGraceS = 3;
  /// Set for a worker that may wait in a queue before it starts (slurm.h); null for one that starts at once.
  std::shared_ptr<QueueWatch> queue;
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
  /// Runs a request in the worker. Never throws: a worker that cannot start, dies, goes silent past a cancel, or
  /// sends a malformed message, a non-frame or more than this process can hold gives one failed result (and the
  /// next run starts a fresh worker). What the run printed is kept for takeProgramOutput().
  /// Cancellation is forwarded; progress is relayed (called on this thread).
  RunResult run(const RunRequest& req, const CancelToken* cancel = nullptr, const ProgressFn& progress = {});
  /// What the worker's code printed since the last call (a kernel's printf; before the first run, a remote shell's
  /// banner), capped at kMaxProgramOutputBytes with a note of what was left out: the program's output, for the user.
  std::string takeProgramOutput();
  /// Ends whatever this runner waits for, for good (any thread): the worker is stopped and every call from then on
  /// fails at once. For a front end that is closing while a worker is silent.
  void abort() { m_abort = true; }
  /// The largest result the worker may send for a request (a result frame announcing more is refused from its
  /// header): resultBytesBound over the caller's workloads. Without one (or 0), half of this machine's memory.
  void setResultCap(std::function<std::uint64_t(const RunRequest&)> cap) { m_resultCap = std::move(cap); }
  /// Called with each new line of a worker that waits in a queue (WorkerCommand::queue), and with "" once it runs.
  /// During run() the lines also go to its progress function (Progress::waiting).
  void setWaitingFn(std::function<void(const std::string&)> fn) { m_waitingFn = std::move(fn); }
  /// How many workers were started so far (1 after the first run; more after faults).
  int workersStarted() const { return m_started; }
  pid_t workerPid() const { return m_pid; }
  const WorkerCommand& command() const { return m_cmd; }

 private:
  bool ensureStarted(std::string& error);
  /// Sends a frame of `type` and reads the worker's answer of the same type into `reply`: "" or why not (the worker
  /// could not start, or ended before reporting `what`).
  std::string ask(char type, const std::string& payload, std::string& reply, const std::string& what, double limitS);
  /// Writes a frame without blocking for longer than `limitS` (the worker may not be reading): false when it could
  /// not.
  bool send(char type, const std::string& payload, double limitS);
  /// Waits up to `ms` for the worker's bytes and takes them: "" or why the stream ended or cannot be trusted.
  std::string pump(int ms);
  /// The next frame the worker sent, waiting up to `ms` for more bytes; false with `why` "" when none yet.
  bool nextFrame(char& type, std::string& payload, int ms, std::string& why);
  /// What ended the stream while whole frames were still to be taken: said once they are.
  std::string m_pendingWhy;
  std::string awaitHello();
  RunResult runLoop(const RunRequest& req, const CancelToken* cancel, const ProgressFn& progress);
  /// After the user kernel was stopped for its time limit (`why`): the rest of `req` in a fresh worker, with the
  /// kernel's row failed for that reason.
  RunResult runWithoutUserKernel(const RunRequest& req, const std::string& why, const CancelToken* cancel,
                                 const ProgressFn& progress);
  void keepOutput(std::string_view text);
  void stop();
  std::string reap();  ///< waits for a dead worker; describes how it ended (with its last stderr line when captured)
  void drainStderr();  ///< keeps the tail of a captured stderr (so a chatty worker never blocks on a full pipe)
  /// Handles one frame of a run: relays progress, notes a lost context, returns the result. Throws BadInput for a
  /// malformed payload.
  std::optional<RunResult> take(char type, const std::string& payload, const ProgressFn& progress);
  std::string kill(const std::string& why);  ///< stops a worker that misbehaves; `why` and how it ended

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
  std::unique_ptr<frames::FrameReader> m_reader;
  std::string m_output;  ///< program output since the last result (capped: kMaxProgramOutputBytes)
  std::uint64_t m_outputDropped = 0;
  std::atomic<bool> m_abort{false};
  std::map<int, Ceilings> m_ceilings;
  std::function<void(const std::string&)> m_waitingFn;
  std::function<std::uint64_t(const RunRequest&)> m_resultCap;
  /// The frames taken from the worker now (frames::FrameReader::expect): what was asked and what comes with it.
  struct Expected {
    std::string types = "O";
    std::uint64_t maxResult = 0;
    std::string asked = "before it was asked anything";
  };
  Expected m_expected;
  /// From now on, and for a worker started for the question about to be asked (its answer may come with the hello).
  void expectFrames(Expected e);
  std::string m_runningImpl;                   ///< the implementation the worker's last progress named
  bool m_kernelTimedOut = false;               ///< the last runLoop stopped the worker for the user kernel's time limit
  const CancelToken* m_startCancel = nullptr;  ///< the run's cancel while its worker starts (a queued job)
  const ProgressFn* m_startProgress = nullptr;  ///< the run's progress while its worker starts
};

}  // namespace launchlab
