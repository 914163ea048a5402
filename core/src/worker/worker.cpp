#include "launchlab/worker/worker.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <condition_variable>
#include <cstring>
#include <deque>
#include <limits>
#include <memory>
#include <mutex>
#include <sstream>
#include <string_view>
#include <thread>
#include <utility>

#include "environment.h"
#include "launchlab/engine/errors.h"
#include "launchlab/worker/frames.h"
#include "launchlab/worker/wire.h"
#include "posix_io.h"

extern char** environ;

namespace launchlab {

namespace {

RunResult failed(const RunRequest& req, std::string reason) {
  RunResult r;
  r.status = Status::Failed;
  r.workload = req.workload;
  r.reason = std::move(reason);
  r.timestamp = nowIso8601();
  return r;
}

/// The largest result frame this process accepts: half of its memory (a result that cannot fit is one failed run,
/// not an allocation that fails halfway or calls the OOM killer).
std::uint64_t maxResultBytes() {
  const long pages = ::sysconf(_SC_PHYS_PAGES), size = ::sysconf(_SC_PAGE_SIZE);
  if (pages <= 0 || size <= 0) return std::uint64_t(1) << 32;
  return std::uint64_t(pages) * std::uint64_t(size) / 2;
}

using Clock = std::chrono::steady_clock;
constexpr const char* kClosing = "was not waited for: the front end is closing";
double secondsSince(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

}  // namespace

namespace {

struct Spawned {
  pid_t pid = -1;
  int toWorker = -1, fromWorker = -1, errFromWorker = -1;
};

void closeBoth(int fds[2]) {
  ::close(fds[0]);
  ::close(fds[1]);
}

/// Starts `cmd` with its stdin and stdout (and its stderr, when captured) on pipes; "" or why not.
std::string spawn(WorkerCommand& cmd, Spawned& out) {
  int toChild[2], fromChild[2] = {-1, -1}, errChild[2] = {-1, -1};
  if (::pipe2(toChild, O_CLOEXEC) != 0) return std::string("cannot create pipes: ") + std::strerror(errno);
  if (::pipe2(fromChild, O_CLOEXEC) != 0 || (cmd.captureStderr && ::pipe2(errChild, O_CLOEXEC) != 0)) {
    const int e = errno;
    closeBoth(toChild);
    if (fromChild[0] >= 0) closeBoth(fromChild);
    return std::string("cannot create pipes: ") + std::strerror(e);
  }
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_adddup2(&fa, toChild[0], 0);
  posix_spawn_file_actions_adddup2(&fa, fromChild[1], 1);
  if (cmd.captureStderr) posix_spawn_file_actions_adddup2(&fa, errChild[1], 2);
  std::vector<char*> args;
  for (auto& a : cmd.argv) args.push_back(a.data());
  args.push_back(nullptr);
  const std::vector<char*> envp = detail::environmentWith(cmd.env);
  const int rc = posix_spawnp(&out.pid, args[0], &fa, nullptr, args.data(), const_cast<char**>(envp.data()));
  posix_spawn_file_actions_destroy(&fa);
  ::close(toChild[0]);
  ::close(fromChild[1]);
  if (cmd.captureStderr) ::close(errChild[1]);
  out.toWorker = toChild[1];
  out.fromWorker = fromChild[0];
  out.errFromWorker = errChild[0];
  if (out.errFromWorker >= 0) ::fcntl(out.errFromWorker, F_SETFL, O_NONBLOCK);
  if (rc == 0) return {};
  for (int fd : {out.toWorker, out.fromWorker, out.errFromWorker})
    if (fd >= 0) ::close(fd);
  out = Spawned{};
  return std::strerror(rc);
}

std::string formatSeconds(double s) {
  std::ostringstream o;
  o << s << " s";
  return o.str();
}

/// The last non-empty line of `text`.
std::string lastLine(const std::string& text) {
  std::size_t end = text.find_last_not_of("\r\n");
  if (end == std::string::npos) return {};
  const std::size_t begin = text.rfind('\n', end);
  return text.substr(begin == std::string::npos ? 0 : begin + 1,
                     end + 1 - (begin == std::string::npos ? 0 : begin + 1));
}

}  // namespace

IsolatedRunner::IsolatedRunner(std::vector<std::string> argv) : IsolatedRunner(WorkerCommand{std::move(argv)}) {}

IsolatedRunner::IsolatedRunner(WorkerCommand command) : m_cmd(std::move(command)) {}

IsolatedRunner::~IsolatedRunner() { stop(); }

bool IsolatedRunner::ensureStarted(std::string& error) {
  if (m_abort) {
    error = m_cmd.name + " " + kClosing;
    return false;
  }
  if (m_pid > 0) {
    int st = 0;
    if (::waitpid(m_pid, &st, WNOHANG) == 0) return true;  // still alive
    m_pid = -1;  // it ended since the last run (e.g. after a lost context): start a new one
    stop();
  }
  Spawned s;
  if (const std::string why = spawn(m_cmd, s); !why.empty()) {
    error = "cannot start " + m_cmd.name + " " + m_cmd.argv[0] + ": " + why;
    return false;
  }
  ::signal(SIGPIPE, SIG_IGN);  // a dead worker must not kill the front end on write
  m_pid = s.pid;
  m_toWorker = s.toWorker;
  m_fromWorker = s.fromWorker;
  m_errFromWorker = s.errFromWorker;
  ::fcntl(m_toWorker, F_SETFL, O_NONBLOCK);  // a worker that does not read must not block us (send())
  m_stderrTail.clear();
  m_haveStatus = false;
  m_reader = std::make_unique<frames::FrameReader>(maxResultBytes());
  m_reader->expect(m_expected.types, m_expected.maxResult, m_expected.asked);
  ++m_started;
  error = awaitHello();
  return error.empty();
}

void IsolatedRunner::expectFrames(Expected e) {
  m_expected = std::move(e);
  if (m_reader) m_reader->expect(m_expected.types, m_expected.maxResult, m_expected.asked);
}

std::string IsolatedRunner::awaitHello() {
  auto t0 = Clock::now(), asked = Clock::now();
  std::string why, shown;
  while (!m_reader->greeted()) {
    if (m_abort) return kill(kClosing);
    // A queued job may wait for hours: a cancel ends the wait. A worker that starts at once gets the request and the
    // cancel right behind it instead, as always.
    if (m_cmd.queue && m_startCancel && m_startCancel->cancelled()) return kill("was cancelled before it started");
    if (m_cmd.queue && secondsSince(asked) >= 1) {  // a worker that starts at once is never asked about
      asked = Clock::now();
      const std::string line = m_cmd.queue->waiting(m_stderrTail);
      if (!line.empty()) t0 = Clock::now();  // waiting in a queue is not a start that hangs
      if (line != shown && m_waitingFn) m_waitingFn(line);
      if (line != shown && !line.empty() && m_startProgress && *m_startProgress) {
        Progress p;
        p.waiting = line;
        (*m_startProgress)(p);
      }
      shown = line;
    }
    if (secondsSince(t0) > m_cmd.startTimeoutS)
      return kill("did not say hello within " + formatSeconds(m_cmd.startTimeoutS) +
                  " (a connection that never answers, or a launchlab-cli older than this LaunchLab)");
    if (why = pump(20); !why.empty()) break;
  }
  if (!shown.empty() && m_waitingFn) m_waitingFn("");
  keepOutput(m_reader->takeBanner());
  if (why.empty()) return {};
  const std::string said = m_output.empty() ? "" : "; it printed " + frames::quoted(m_output);
  if (!m_reader->problem().empty()) return kill(m_reader->problem());
  return m_cmd.name + " " + reap() + " before it said hello" + said;
}

void IsolatedRunner::keepOutput(std::string_view text) {
  const std::size_t room = kMaxProgramOutputBytes - std::min(kMaxProgramOutputBytes, m_output.size());
  m_output.append(text.substr(0, room));
  m_outputDropped += text.size() - std::min(text.size(), room);
}

std::string IsolatedRunner::kill(const std::string& why) {
  if (m_pid > 0 && m_cmd.queue) m_cmd.queue->release(m_stderrTail);
  if (m_pid > 0) ::kill(m_pid, SIGKILL);
  const std::string how = reap();
  return m_cmd.name + " " + why + "; it was stopped (" + how + ")";
}

std::string IsolatedRunner::pump(int ms) {
  pollfd p[2] = {{m_fromWorker, POLLIN, 0}, {m_errFromWorker, POLLIN, 0}};
  const int ready = ::poll(p, m_errFromWorker >= 0 ? 2 : 1, ms);
  if (ready < 0 && errno != EINTR) return std::string("poll: ") + std::strerror(errno);
  drainStderr();
  if (ready <= 0 || !p[0].revents) return {};
  char buf[65536];
  const ssize_t r = ::read(m_fromWorker, buf, sizeof buf);
  if (r < 0 && errno == EINTR) return {};
  if (r <= 0) return m_reader->midFrame() ? "ended inside a frame" : "ended";
  m_reader->feed(buf, std::size_t(r));
  return m_reader->problem();
}

bool IsolatedRunner::nextFrame(char& type, std::string& payload, int ms, std::string& why) {
  if (m_reader->next(type, payload)) return true;
  if (!m_pendingWhy.empty()) {
    why = std::exchange(m_pendingWhy, std::string());
    return false;
  }
  why = pump(ms);
  // The frames that came whole before the stream went wrong are taken first; the reason follows them.
  if (!m_reader->next(type, payload)) return false;
  m_pendingWhy = std::exchange(why, std::string());
  return true;
}

bool IsolatedRunner::send(char type, const std::string& payload, double limitS) {
  const std::string f = frames::encode(type, payload);
  const auto t0 = Clock::now();
  for (std::size_t done = 0; done < f.size();) {
    const ssize_t w = ::write(m_toWorker, f.data() + done, f.size() - done);
    if (w > 0)
      done += std::size_t(w);
    else if (w < 0 && errno != EINTR && errno != EAGAIN)
      return false;
    if (done == f.size()) break;
    if (secondsSince(t0) > limitS) return false;
    pollfd p{m_toWorker, POLLOUT, 0};
    ::poll(&p, 1, 20);
    drainStderr();
  }
  return true;
}

void IsolatedRunner::drainStderr() {
  char buf[4096];
  for (ssize_t r; m_errFromWorker >= 0 && (r = ::read(m_errFromWorker, buf, sizeof buf)) != 0;) {
    if (r < 0 && errno == EINTR) continue;
    if (r < 0) break;  // EAGAIN: nothing more for now
    m_stderrTail.append(buf, std::size_t(r));
    if (m_stderrTail.size() > 8192) m_stderrTail.erase(0, m_stderrTail.size() - 4096);
  }
}

void IsolatedRunner::stop() {
  if (m_toWorker >= 0) ::close(m_toWorker);
  if (m_fromWorker >= 0) ::close(m_fromWorker);
  if (m_errFromWorker >= 0) ::close(m_errFromWorker);
  m_toWorker = m_fromWorker = m_errFromWorker = -1;
  m_pendingWhy.clear();
  if (m_pid > 0) {
    int st = 0;
    // Closing stdin ends a healthy worker; give it a moment, then make sure.
    for (int i = 0; i < 50 && ::waitpid(m_pid, &st, WNOHANG) == 0; ++i) ::usleep(10000);
    if (::waitpid(m_pid, &st, WNOHANG) == 0) {
      if (m_cmd.queue) m_cmd.queue->release(m_stderrTail);
      ::kill(m_pid, SIGKILL);
      ::waitpid(m_pid, &st, 0);
    }
  }
  m_pid = -1;
  m_haveStatus = false;
  m_retiring = false;
}

std::string IsolatedRunner::reap() {
  std::string how = "ended";
  if (m_pid > 0) {
    int st = 0;
    // A worker whose stream ended is on its way out; one that stays (a broken or hostile peer) is made to go.
    pid_t done = 0;
    for (int i = 0; i < 200 && (done = ::waitpid(m_pid, &st, WNOHANG)) == 0; ++i) ::usleep(10000);
    if (done == 0) {
      ::kill(m_pid, SIGKILL);
      done = ::waitpid(m_pid, &st, 0);
    }
    if (done == m_pid) {
      if (WIFSIGNALED(st))
        how =
            std::string("was killed by signal ") + std::to_string(WTERMSIG(st)) + " (" + strsignal(WTERMSIG(st)) + ")";
      else if (WIFEXITED(st))
        how = "exited with code " + std::to_string(WEXITSTATUS(st));
    }
    m_pid = -1;
  }
  drainStderr();
  if (const std::string said = lastLine(m_stderrTail); !said.empty()) how += ": \"" + said + "\"";
  stop();
  return how;
}

std::string IsolatedRunner::ask(char type, const std::string& payload, std::string& reply, const std::string& what,
                                double limitS) {
  std::string err;
  expectFrames({std::string(1, type) + "O", 0, "when asked for " + what});
  if (!ensureStarted(err)) return err;
  if (!send(type, payload, limitS)) return kill("did not take the question for " + what);
  const auto t0 = Clock::now();
  for (char got = 0;;) {
    std::string why;
    if (nextFrame(got, reply, 20, why)) {
      if (got == type) return {};
      if (got == 'O') {
        keepOutput(reply);
        continue;
      }
      return kill("sent a frame '" + std::string(1, got) + "' when asked for " + what);
    }
    if (!m_reader->problem().empty()) return kill(m_reader->problem());
    if (!why.empty()) return m_cmd.name + " " + reap() + " before reporting " + what;
    if (m_abort) return kill(kClosing);
    if (secondsSince(t0) > limitS) return kill("did not report " + what + " within " + formatSeconds(limitS));
  }
}

DeviceStatus IsolatedRunner::deviceStatus() {
  if (m_haveStatus) return m_status;
  DeviceStatus s;
  std::string payload;
  if (s.reason = ask('I', {}, payload, "the device", m_cmd.startTimeoutS); !s.reason.empty()) return s;
  try {
    m_status = wire::decodeDevice(payload);
  } catch (const BadInput& e) {
    stop();
    s.reason = m_cmd.name + " sent a malformed device status (" + e.what() + ")";
    return s;
  }
  m_haveStatus = true;
  return m_status;
}

Ceilings IsolatedRunner::ceilings(int device) {
  if (auto it = m_ceilings.find(device); it != m_ceilings.end()) return it->second;
  Ceilings none;
  std::string payload;
  // Measuring takes seconds on a GPU; the limit only ends a worker that never answers.
  if (none.problem = ask('K', std::to_string(device), payload, "the ceilings", 10 * m_cmd.startTimeoutS);
      !none.problem.empty())
    return none;
  try {
    const Ceilings c = wire::decodeCeilings(payload);
    if (c.valid()) m_ceilings[device] = c;
    return c;
  } catch (const BadInput& e) {
    stop();
    none.problem = m_cmd.name + " sent malformed ceilings (" + e.what() + ")";
    return none;
  }
}

RunResult IsolatedRunner::run(const RunRequest& req, const CancelToken* cancel, const ProgressFn& progress) {
  RunResult r;
  m_startCancel = cancel;
  m_startProgress = &progress;
  try {
    r = runLoop(req, cancel, progress);
    if (m_kernelTimedOut) r = runWithoutUserKernel(req, r.reason, cancel, progress);
  } catch (const std::exception& e) {  // e.g. no memory for a result: one failed run, a fresh worker next time
    stop();
    r = failed(req, m_cmd.name + ": " + e.what() + "; a fresh worker starts with the next run");
  }
  m_startCancel = nullptr;
  m_startProgress = nullptr;
  return r;
}

std::string IsolatedRunner::takeProgramOutput() {
  std::string out = std::move(m_output);
  if (m_outputDropped) out += "\n... (" + std::to_string(m_outputDropped) + " more bytes not kept)\n";
  m_output.clear();
  m_outputDropped = 0;
  return out;
}

RunResult IsolatedRunner::runLoop(const RunRequest& req, const CancelToken* cancel, const ProgressFn& progress) {
  const std::uint64_t bound = m_resultCap ? m_resultCap(req) : 0;
  expectFrames({"POLZ", bound ? std::min(bound, maxResultBytes()) : maxResultBytes(), "during a run"});
  std::string err;
  if (!ensureStarted(err)) return failed(req, err);
  const std::string request = wire::encodeRequest(req);
  if (!send('R', request, m_cmd.startTimeoutS)) {
    // The worker died between runs (or does not read): start a new one and try once more.
    kill("");
    if (!ensureStarted(err)) return failed(req, err);
    if (!send('R', request, m_cmd.startTimeoutS))
      return failed(req, kill("did not take the request") + "; a fresh worker starts with the next run");
  }
  std::optional<Clock::time_point> cancelSent;
  // The watchdog of a student's kernel: a worker silent for longer than its time limit while that kernel runs (its
  // progress said so) is stopped. A long repetition of a CPU implementation before it is not the kernel's time.
  const double limitS = req.userKernel ? req.userKernel->timeLimitS : 0;
  auto lastHeard = Clock::now();
  m_runningImpl.clear();
  m_kernelTimedOut = false;
  for (;;) {
    // Forward a cancel as soon as it is asked for, even while frames keep arriving; a worker that does not answer
    // it (stuck, or silent in the middle of a frame) is stopped after the grace period.
    if (cancel && cancel->cancelled() && !cancelSent) {
      send('C', {}, 0);
      cancelSent = Clock::now();
    }
    if (m_abort) return failed(req, "cancelled (" + kill(kClosing) + ")");
    if (cancelSent && secondsSince(*cancelSent) > m_cmd.cancelGraceS)
      return failed(req, "cancelled (" +
                             kill("did not stop within " + formatSeconds(m_cmd.cancelGraceS) + " of the cancel") +
                             "; a fresh worker starts with the next run)");
    if (limitS > 0 && m_runningImpl == kMyKernel && secondsSince(lastHeard) > limitS) {
      kill("");
      m_kernelTimedOut = true;
      return failed(req, std::string(kMyKernel) + " did not finish within the time limit of " + formatSeconds(limitS) +
                             " (a kernel that never ends?): " + m_cmd.name + " was stopped");
    }
    char type = 0;
    std::string payload, why;
    const std::uint64_t before = m_reader->bytesSeen();
    const bool got = nextFrame(type, payload, 20, why);
    if (m_reader->bytesSeen() != before) lastHeard = Clock::now();
    if (got) {  // the frames that came whole before any problem are taken first
      try {
        if (auto r = take(type, payload, progress)) return std::move(*r);
      } catch (const BadInput& e) {
        stop();  // out of step with us: the next run starts a fresh one
        return failed(
            req, m_cmd.name + " sent a malformed message (" + e.what() + "); a fresh worker starts with the next run");
      }
      continue;
    }
    if (!m_reader->problem().empty())
      return failed(req, kill(m_reader->problem()) + "; a fresh worker starts with the next run");
    if (!why.empty())
      return failed(req, m_cmd.name + " " + reap() + " during the run; a fresh worker starts with the next run");
  }
}

RunResult IsolatedRunner::runWithoutUserKernel(const RunRequest& req, const std::string& why, const CancelToken* cancel,
                                               const ProgressFn& progress) {
  m_kernelTimedOut = false;
  RunRequest rest = req;
  std::erase(rest.impls, std::string(kMyKernel));
  // Only the kernel was asked for: nothing else to show, and its reference alone is no answer.
  if (!req.impls.empty() && rest.impls.empty()) return failed(req, why + "; a fresh worker starts with the next run");
  rest.userKernel.reset();
  RunResult r = runLoop(rest, cancel, progress);
  if (r.status != Status::Ok) return failed(req, why + "; the rest of the run, again without it: " + r.reason);
  ImplResult mine;
  mine.implId = std::string(kMyKernel);
  mine.title = userKernelTitle(*req.userKernel);
  mine.gpu = true;
  mine.status = Status::Failed;
  mine.reason = why + "; the other implementations were run again without it";
  r.impls.push_back(std::move(mine));
  return r;
}

std::optional<RunResult> IsolatedRunner::take(char type, const std::string& payload, const ProgressFn& progress) {
  if (type == 'P') {
    const Progress p = wire::decodeProgress(payload);
    m_runningImpl = p.implId;
    if (progress) progress(p);
  } else if (type == 'O') {
    keepOutput(payload);
  } else if (type == 'L') {
    m_retiring = true;  // its CUDA context is lost: it exits after this result
  } else if (type == 'Z') {
    RunResult r = wire::decodeResult(payload);
    if (m_retiring) {
      reap();
      m_retiring = false;
    }
    return r;
  } else {
    throw BadInput(std::string("a frame '") + type + "' during a run");
  }
  return std::nullopt;
}

}  // namespace launchlab
