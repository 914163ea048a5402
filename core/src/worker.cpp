#include "launchlab/worker.h"

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
#include <thread>

#include "launchlab/errors.h"
#include "launchlab/io/wire.h"
#include "posix_io.h"

extern char** environ;

namespace launchlab {

namespace {

/// Reads up to `n` bytes, retrying after signals and short reads; returns how many arrived before the end of the
/// stream or an error.
std::size_t readAll(int fd, char* p, std::size_t n) {
  std::size_t got = 0;
  while (got < n) {
    const ssize_t r = ::read(fd, p + got, n - got);
    if (r < 0 && errno == EINTR) continue;
    if (r <= 0) break;
    got += std::size_t(r);
  }
  return got;
}

bool writeFrame(int fd, char type, const std::string& payload) {
  char head[9];
  head[0] = type;
  std::uint64_t n = payload.size();
  std::memcpy(head + 1, &n, 8);
  return posix::writeAll(fd, head, 9) == 0 && posix::writeAll(fd, payload.data(), payload.size()) == 0;
}

enum class FrameRead { Ok, End, Truncated, TooLarge };

// The payload grows as its bytes arrive, so a length that the stream does not back (a broken or hostile peer)
// costs a truncated frame, not an allocation of that size; a length over `maxBytes` is refused before any read.
// The stream may end between frames (End), not inside one (Truncated).
FrameRead readFrame(int fd, char& type, std::string& payload, std::uint64_t maxBytes) {
  constexpr std::uint64_t kChunk = std::uint64_t(64) << 20;
  char head[9];
  const std::size_t got = readAll(fd, head, 9);
  if (got == 0) return FrameRead::End;
  if (got < 9) return FrameRead::Truncated;
  type = head[0];
  std::uint64_t n = 0;
  std::memcpy(&n, head + 1, 8);
  payload.clear();
  if (n > maxBytes) return FrameRead::TooLarge;
  while (payload.size() < n) {
    const std::size_t have = payload.size();
    const std::size_t step = std::size_t(std::min<std::uint64_t>(n - have, kChunk));
    payload.resize(have + step);
    if (readAll(fd, payload.data() + have, step) != step) return FrameRead::Truncated;
  }
  return FrameRead::Ok;
}

bool readFrame(int fd, char& type, std::string& payload) {
  return readFrame(fd, type, payload, std::numeric_limits<std::uint64_t>::max()) == FrameRead::Ok;
}

/// Why a frame from the parent cannot be served, or "" for a good one.
std::string malformed(FrameRead got, char type) {
  if (got == FrameRead::TooLarge) return "a frame over " + std::to_string(kMaxRequestFrameBytes) + " bytes";
  if (got == FrameRead::Truncated) return "a truncated frame (the input ended inside it)";
  if (type != 'C' && type != 'I' && type != 'K' && type != 'R')
    return "a frame of unknown type " + std::to_string(int(static_cast<unsigned char>(type)));
  return {};
}

RunResult failed(const RunRequest& req, std::string reason) {
  RunResult r;
  r.status = Status::Failed;
  r.workload = req.workload;
  r.reason = std::move(reason);
  r.timestamp = nowIso8601();
  return r;
}

}  // namespace

namespace {

/// What the reader thread hands the serving thread. Shared (not on serveWorker's stack): the detached reader may
/// outlive serveWorker when it returns while the reader is still blocked in read().
struct Inbox {
  CancelToken token;
  std::mutex mutex;
  std::condition_variable cv;
  std::deque<std::pair<char, std::string>> queue;  ///< 'I', 'R', or '!' (a malformed frame: its reason)
  bool closed = false;
};

/// The reader thread: turns cancel frames into the token at once; other frames queue for the serving thread.
void readFrames(const std::shared_ptr<Inbox>& box, int inFd) {
  char type = 0;
  std::string payload;
  for (;;) {
    const FrameRead got = readFrame(inFd, type, payload, kMaxRequestFrameBytes);
    if (got == FrameRead::End) break;
    if (const std::string why = malformed(got, type); !why.empty()) {
      // One error reply, then the worker ends cleanly (the stream cannot be trusted further).
      std::lock_guard<std::mutex> lock(box->mutex);
      box->queue.emplace_back('!', "worker: malformed input: " + why);
      break;
    }
    if (type == 'C') {
      box->token.cancel();
      continue;
    }
    std::lock_guard<std::mutex> lock(box->mutex);
    box->queue.emplace_back(type, std::move(payload));
    box->cv.notify_one();
  }
  std::lock_guard<std::mutex> lock(box->mutex);
  box->closed = true;
  if (box->queue.empty() || box->queue.back().first != '!') box->token.cancel();
  box->cv.notify_one();
}

/// Runs one request frame and answers it. Returns false when the worker must stop with `exitCode`.
bool serveRun(Engine& engine, const std::string& payload, CancelToken& token, int outFd, int& exitCode) {
  RunResult result;
  try {
    const RunRequest req = wire::decodeRequest(payload);
    result = engine.run(req, &token, [&](const Progress& p) { writeFrame(outFd, 'P', wire::encodeProgress(p)); });
  } catch (const std::exception& e) {
    result.status = Status::Failed;
    result.reason = std::string("worker: ") + e.what();
  }
  // CUDA needs a new process after a lost context: say so before the result, answer, and exit.
  const bool lost = engine.gpu().contextLost();
  exitCode = lost ? 3 : 0;
  if (lost && !writeFrame(outFd, 'L', {})) return false;
  return writeFrame(outFd, 'Z', wire::encodeResult(result)) && !lost;
}

/// The ceilings of the device named by a 'K' frame's payload ("-1": the current one), measured on it; the device of
/// later requests that name none stays the one it was.
Ceilings ceilingsOf(Engine& engine, const std::string& payload) {
  int device = -1;
  try {
    device = std::stoi(payload);
  } catch (const std::exception&) {
    device = -1;
  }
  GpuRuntime& gpu = engine.gpu();
  const int before = gpu.status().info.index;
  if (device >= 0 && device != before) {
    if (const std::string why = gpu.selectDevice(device); !why.empty()) {
      Ceilings none;
      none.problem = why;
      return none;
    }
  }
  Ceilings c = measureCeilings(gpu);
  if (device >= 0 && device != before) gpu.selectDevice(before);
  return c;
}

/// The reader thread's owner: joined when the reader has finished (end of input, or a malformed frame) by the time
/// serveWorker returns, so nothing it holds outlives the call; detached otherwise (it is blocked in read() on a
/// parent that is still there, and the worker process ends right after).
class ReaderThread {
 public:
  ReaderThread(const std::shared_ptr<Inbox>& box, int inFd) : m_box(box), m_thread([box, inFd] { readFrames(box, inFd); }) {}
  ~ReaderThread() {
    bool finished = false;
    {
      std::lock_guard<std::mutex> lock(m_box->mutex);
      finished = m_box->closed;
    }
    if (finished) m_thread.join();
    else m_thread.detach();
  }
  ReaderThread(const ReaderThread&) = delete;
  ReaderThread& operator=(const ReaderThread&) = delete;

 private:
  std::shared_ptr<Inbox> m_box;
  std::thread m_thread;
};

}  // namespace

int serveWorker(Engine& engine, int inFd, int outFd) {
  ::signal(SIGPIPE, SIG_IGN);
  auto box = std::make_shared<Inbox>();
  const ReaderThread reader(box, inFd);
  for (;;) {
    std::pair<char, std::string> item;
    {
      std::unique_lock<std::mutex> lock(box->mutex);
      box->cv.wait(lock, [&] { return box->closed || !box->queue.empty(); });
      if (box->queue.empty()) return 0;
      item = std::move(box->queue.front());
      box->queue.pop_front();
      if (item.first == 'R') box->token.reset();
    }
    int exitCode = 0;
    if (item.first == '!') {
      RunResult refused;
      refused.status = Status::Failed;
      refused.reason = item.second;
      writeFrame(outFd, 'Z', wire::encodeResult(refused));
      std::unique_lock<std::mutex> lock(box->mutex);  // the reader stops right after a malformed frame: join it
      box->cv.wait(lock, [&] { return box->closed; });
      return 2;
    }
    if (item.first == 'I' && !writeFrame(outFd, 'I', wire::encodeDevice(engine.deviceStatus()))) return 0;
    if (item.first == 'K' && !writeFrame(outFd, 'K', wire::encodeCeilings(ceilingsOf(engine, item.second)))) return 0;
    if (item.first == 'R' && !serveRun(engine, item.second, box->token, outFd, exitCode)) return exitCode;
  }
}

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
  const int rc = posix_spawnp(&out.pid, args[0], &fa, nullptr, args.data(), environ);
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
  return text.substr(begin == std::string::npos ? 0 : begin + 1, end + 1 - (begin == std::string::npos ? 0 : begin + 1));
}

}  // namespace

IsolatedRunner::IsolatedRunner(std::vector<std::string> argv) : IsolatedRunner(WorkerCommand{std::move(argv)}) {}

IsolatedRunner::IsolatedRunner(WorkerCommand command) : m_cmd(std::move(command)) {}

IsolatedRunner::~IsolatedRunner() { stop(); }

bool IsolatedRunner::ensureStarted(std::string& error) {
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
  m_stderrTail.clear();
  m_haveStatus = false;
  ++m_started;
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
  if (m_pid > 0) {
    int st = 0;
    // Closing stdin ends a healthy worker; give it a moment, then make sure.
    for (int i = 0; i < 50 && ::waitpid(m_pid, &st, WNOHANG) == 0; ++i) ::usleep(10000);
    if (::waitpid(m_pid, &st, WNOHANG) == 0) {
      ::kill(m_pid, SIGKILL);
      ::waitpid(m_pid, &st, 0);
    }
  }
  m_pid = -1;
  m_haveStatus = false;
}

std::string IsolatedRunner::reap() {
  std::string how = "ended";
  if (m_pid > 0) {
    int st = 0;
    if (::waitpid(m_pid, &st, 0) == m_pid) {
      if (WIFSIGNALED(st)) how = std::string("was killed by signal ") + std::to_string(WTERMSIG(st)) + " (" + strsignal(WTERMSIG(st)) + ")";
      else if (WIFEXITED(st)) how = "exited with code " + std::to_string(WEXITSTATUS(st));
    }
    m_pid = -1;
  }
  drainStderr();
  if (const std::string said = lastLine(m_stderrTail); !said.empty()) how += ": \"" + said + "\"";
  stop();
  return how;
}

std::string IsolatedRunner::ask(char type, const std::string& payload, std::string& reply, const std::string& what) {
  std::string err;
  if (!ensureStarted(err)) return err;
  char got = 0;
  if (!writeFrame(m_toWorker, type, payload) || !readFrame(m_fromWorker, got, reply) || got != type)
    return m_cmd.name + " " + reap() + " before reporting " + what;
  return {};
}

DeviceStatus IsolatedRunner::deviceStatus() {
  if (m_haveStatus) return m_status;
  DeviceStatus s;
  std::string payload;
  if (s.reason = ask('I', {}, payload, "the device"); !s.reason.empty()) return s;
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
  if (none.problem = ask('K', std::to_string(device), payload, "the ceilings"); !none.problem.empty()) return none;
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
  std::string err;
  if (!ensureStarted(err)) return failed(req, err);
  if (!writeFrame(m_toWorker, 'R', wire::encodeRequest(req))) {
    // The worker died between runs: start a new one and try once more.
    reap();
    if (!ensureStarted(err)) return failed(req, err);
    if (!writeFrame(m_toWorker, 'R', wire::encodeRequest(req)))
      return failed(req, m_cmd.name + " " + reap() + " before it could take the request");
  }
  bool cancelSent = false;
  // The watchdog of a student's kernel: a worker silent for longer than its time limit is stopped.
  const double limitS = req.userKernel ? req.userKernel->timeLimitS : 0;
  auto lastHeard = std::chrono::steady_clock::now();
  for (;;) {
    // Forward a cancel as soon as it is asked for, even while progress frames keep arriving.
    if (cancel && cancel->cancelled() && !cancelSent) {
      writeFrame(m_toWorker, 'C', {});
      cancelSent = true;
    }
    pollfd p{m_fromWorker, POLLIN, 0};
    int ready = ::poll(&p, 1, 20);
    if (ready < 0 && errno != EINTR) return failed(req, std::string("poll: ") + std::strerror(errno));
    drainStderr();
    if (ready <= 0 && limitS > 0 &&
        std::chrono::duration<double>(std::chrono::steady_clock::now() - lastHeard).count() > limitS) {
      ::kill(m_pid, SIGKILL);
      reap();
      return failed(req, std::string(kMyKernel) + " did not finish within the time limit of " + formatSeconds(limitS) +
                             " (a kernel that never ends?): " + m_cmd.name +
                             " was stopped; a fresh worker starts with the next run");
    }
    if (ready <= 0) continue;
    lastHeard = std::chrono::steady_clock::now();
    char type = 0;
    std::string payload;
    if (!readFrame(m_fromWorker, type, payload)) {
      const std::string how = reap();
      return failed(req, m_cmd.name + " " + how + " during the run; a fresh worker starts with the next run");
    }
    try {
      if (auto r = take(type, payload, progress)) return std::move(*r);
    } catch (const BadInput& e) {
      stop();  // out of step with us: the next run starts a fresh one
      return failed(req, m_cmd.name + " sent a malformed message (" + e.what() +
                             "); a fresh worker starts with the next run");
    }
  }
}

std::optional<RunResult> IsolatedRunner::take(char type, const std::string& payload, const ProgressFn& progress) {
  if (type == 'P') {
    const Progress p = wire::decodeProgress(payload);
    if (progress) progress(p);
  } else if (type == 'L') {
    m_retiring = true;  // its CUDA context is lost: it exits after this result
  } else if (type == 'Z') {
    RunResult r = wire::decodeResult(payload);
    if (m_retiring) {
      reap();
      m_retiring = false;
    }
    return r;
  }
  return std::nullopt;
}

}  // namespace launchlab
