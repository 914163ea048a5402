// The worker's side of the protocol (worker.h): a hello, then one request at a time, cancellable by the frame that
// follows it, with what the run's own code prints forwarded as program output.
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <unistd.h>

#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstring>
#include <deque>
#include <memory>
#include <mutex>
#include <string_view>
#include <thread>

#include "launchlab/worker/frames.h"
#include "launchlab/worker/wire.h"
#include "launchlab/worker/worker.h"
#include "posix_io.h"

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

enum class FrameRead { Ok, End, Truncated, TooLarge };

// The payload grows as its bytes arrive, so a length that the stream does not back (a broken or hostile parent)
// costs a truncated frame, not an allocation of that size; a length over the cap is refused before any read.
// The stream may end between frames (End), not inside one (Truncated).
FrameRead readRequestFrame(int fd, char& type, std::string& payload) {
  char head[9];
  const std::size_t got = readAll(fd, head, 9);
  if (got == 0) return FrameRead::End;
  if (got < 9) return FrameRead::Truncated;
  type = head[0];
  std::uint64_t n = 0;
  std::memcpy(&n, head + 1, 8);
  payload.clear();
  if (n > kMaxRequestFrameBytes) return FrameRead::TooLarge;
  payload.resize(std::size_t(n));
  return readAll(fd, payload.data(), payload.size()) == payload.size() ? FrameRead::Ok : FrameRead::Truncated;
}

/// Why a frame from the parent cannot be served, or "" for a good one.
std::string malformed(FrameRead got, char type) {
  if (got == FrameRead::TooLarge) return "a frame over " + std::to_string(kMaxRequestFrameBytes) + " bytes";
  if (got == FrameRead::Truncated) return "a truncated frame (the input ended inside it)";
  if (type != 'C' && type != 'I' && type != 'K' && type != 'R')
    return "a frame of unknown type " + std::to_string(int(static_cast<unsigned char>(type)));
  return {};
}

/// The one writer of frames to the parent: progress and results (serving thread) and program output (forwarder
/// thread) never cut into each other's frames.
class FrameWriter {
 public:
  explicit FrameWriter(int fd) : m_fd(fd) {}
  bool write(char type, std::string_view payload) {
    const std::string f = frames::encode(type, payload);
    const std::lock_guard<std::mutex> lock(m_mutex);
    return posix::writeAll(m_fd, f.data(), f.size()) == 0;
  }

 private:
  int m_fd;
  std::mutex m_mutex;
};

/// Forwards what the run's code writes to fd 1 (a kernel's printf, a library's chatter), which the worker process
/// points at a pipe, as 'O' frames. Reading and sending one chunk happen under one lock, so after flush() every
/// byte written before it has been sent, before the result that follows.
class OutputForwarder {
 public:
  OutputForwarder(int fd, FrameWriter& writer) : m_fd(fd), m_writer(writer) {
    if (m_fd < 0 || ::pipe2(m_wake, O_CLOEXEC) != 0) return;
    m_thread = std::thread([this] { loop(); });
  }
  ~OutputForwarder() {
    if (!m_thread.joinable()) return;
    ::close(m_wake[1]);  // wakes the loop: it ends
    m_thread.join();
    ::close(m_wake[0]);
  }
  OutputForwarder(const OutputForwarder&) = delete;
  OutputForwarder& operator=(const OutputForwarder&) = delete;
  void flush() {
    std::fflush(stdout);
    if (m_fd >= 0) pump();
  }

 private:
  void pump() {
    const std::lock_guard<std::mutex> lock(m_mutex);
    char buf[65536];
    for (ssize_t r; (r = ::read(m_fd, buf, sizeof buf)) != 0;) {
      if (r < 0 && errno == EINTR) continue;
      if (r < 0) return;  // EAGAIN: all sent
      m_writer.write('O', std::string_view(buf, std::size_t(r)));
    }
  }
  void loop() {
    for (;;) {
      pollfd p[2] = {{m_fd, POLLIN, 0}, {m_wake[0], POLLIN, 0}};
      if (::poll(p, 2, -1) < 0 && errno != EINTR) return;
      if (p[1].revents) return;
      if (p[0].revents) pump();
    }
  }

  int m_fd;
  FrameWriter& m_writer;
  int m_wake[2] = {-1, -1};
  std::mutex m_mutex;
  std::thread m_thread;
};

/// What the reader thread hands the serving thread.
struct Item {
  char type = 0;  ///< 'I', 'K', 'R', or '!' (a malformed frame: its reason in payload)
  std::string payload;
  std::shared_ptr<CancelToken> token;  ///< a request's own token
};

/// Shared (not on serveWorker's stack): the detached reader may outlive serveWorker when it returns while the
/// reader is still blocked in read().
struct Inbox {
  std::mutex mutex;
  std::condition_variable cv;
  std::deque<Item> queue;
  std::shared_ptr<CancelToken> current;  ///< the token of the last request read: what a cancel frame cancels
  bool closed = false;
};

/// The reader thread. Each request gets a fresh token here, in stream order, and a cancel cancels the token of the
/// request before it: a cancel right behind its request is never lost, even when the serving thread has not
/// picked the request up yet.
void readFrames(const std::shared_ptr<Inbox>& box, int inFd) {
  char type = 0;
  std::string payload;
  for (;;) {
    const FrameRead got = readRequestFrame(inFd, type, payload);
    if (got == FrameRead::End) break;
    std::lock_guard<std::mutex> lock(box->mutex);
    if (const std::string why = malformed(got, type); !why.empty()) {
      // One error reply, then the worker ends cleanly (the stream cannot be trusted further).
      box->queue.push_back({'!', "worker: malformed input: " + why, nullptr});
      break;
    }
    if (type == 'C') {
      if (box->current) box->current->cancel();
      continue;
    }
    if (type == 'R') box->current = std::make_shared<CancelToken>();
    box->queue.push_back({type, std::move(payload), type == 'R' ? box->current : nullptr});
    box->cv.notify_one();
  }
  std::lock_guard<std::mutex> lock(box->mutex);
  box->closed = true;
  if (box->current) box->current->cancel();  // the parent is gone: stop the run
  box->cv.notify_one();
}

/// The run's progress as frames: when an implementation starts (the parent's watchdog of a student's kernel counts
/// from its first), then at most every kProgressInterval. A frame for each repetition of a few microseconds would
/// wake the parent, and the window drawing it, beside the timed repetitions, on the cores they need.
constexpr std::chrono::milliseconds kProgressInterval{50};

ProgressFn progressFrames(FrameWriter& out) {
  using Clock = std::chrono::steady_clock;
  return [&out, sent = Clock::time_point(), impl = -1](const Progress& p) mutable {
    const auto now = Clock::now();
    if (p.implIndex == impl && now - sent < kProgressInterval) return;
    impl = p.implIndex;
    sent = now;
    out.write('P', wire::encodeProgress(p));
  };
}

/// Runs one request frame and answers it. Returns false when the worker must stop with `exitCode`.
bool serveRun(Engine& engine, const Item& item, FrameWriter& out, OutputForwarder& output, int& exitCode) {
  RunResult result;
  try {
    const RunRequest req = wire::decodeRequest(item.payload);
    result = engine.run(req, item.token.get(), progressFrames(out));
  } catch (const std::exception& e) {
    result.status = Status::Failed;
    result.reason = std::string("worker: ") + e.what();
  }
  output.flush();  // the run's printed output goes before its result
  // CUDA needs a new process after a lost context: say so before the result, answer, and exit.
  const bool lost = engine.gpu().contextLost();
  exitCode = lost ? 3 : 0;
  if (lost && !out.write('L', {})) return false;
  return out.write('Z', wire::encodeResult(result)) && !lost;
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
  ReaderThread(const std::shared_ptr<Inbox>& box, int inFd)
      : m_box(box), m_thread([box, inFd] { readFrames(box, inFd); }) {}
  ~ReaderThread() {
    bool finished = false;
    {
      std::lock_guard<std::mutex> lock(m_box->mutex);
      finished = m_box->closed;
    }
    if (finished)
      m_thread.join();
    else
      m_thread.detach();
  }
  ReaderThread(const ReaderThread&) = delete;
  ReaderThread& operator=(const ReaderThread&) = delete;

 private:
  std::shared_ptr<Inbox> m_box;
  std::thread m_thread;
};

/// Serves queued frames until the input ends or a frame says stop; the process exit code.
int serveFrames(Engine& engine, Inbox& box, FrameWriter& out, OutputForwarder& output) {
  for (;;) {
    Item item;
    {
      std::unique_lock<std::mutex> lock(box.mutex);
      box.cv.wait(lock, [&] { return box.closed || !box.queue.empty(); });
      if (box.queue.empty()) return 0;
      item = std::move(box.queue.front());
      box.queue.pop_front();
    }
    int exitCode = 0;
    if (item.type == '!') {
      RunResult refused;
      refused.status = Status::Failed;
      refused.reason = item.payload;
      out.write('Z', wire::encodeResult(refused));
      std::unique_lock<std::mutex> lock(box.mutex);  // the reader stops right after a malformed frame: join it
      box.cv.wait(lock, [&] { return box.closed; });
      return 2;
    }
    if (item.type == 'I' && !out.write('I', wire::encodeDevice(engine.deviceStatus()))) return 0;
    if (item.type == 'K' && !out.write('K', wire::encodeCeilings(ceilingsOf(engine, item.payload)))) return 0;
    if (item.type == 'R' && !serveRun(engine, item, out, output, exitCode)) return exitCode;
  }
}

}  // namespace

int serveWorker(Engine& engine, int inFd, int outFd, int programOutputFd) {
  ::signal(SIGPIPE, SIG_IGN);
  FrameWriter out(outFd);
  if (!out.write('H', std::string(frames::kHelloMagic) + std::to_string(frames::kProtocolVersion))) return 0;
  OutputForwarder output(programOutputFd, out);
  auto box = std::make_shared<Inbox>();
  const ReaderThread reader(box, inFd);
  return serveFrames(engine, *box, out, output);
}

int serveWorkerProcess(Engine& engine) {
  std::fflush(stdout);
  // Frames leave on a private copy of the process's stdout; fd 1 itself becomes the program's output, so nothing
  // that prints (a kernel's printf, a library) can reach the frame stream.
  const int frameFd = ::fcntl(1, F_DUPFD_CLOEXEC, 3);
  if (frameFd < 0) return 1;
  int output[2] = {-1, -1};
  if (::pipe2(output, O_CLOEXEC) == 0) {
    const bool moved = ::dup2(output[1], 1) == 1;
    ::close(output[1]);
    if (moved) {
      ::fcntl(output[0], F_SETFL, O_NONBLOCK);
      std::setvbuf(stdout, nullptr, _IOLBF, 0);
      return serveWorker(engine, 0, frameFd, output[0]);
    }
    ::close(output[0]);
  }
  ::dup2(2, 1);  // no pipe: printed output goes where the worker's stderr goes, still never into the frames
  return serveWorker(engine, 0, frameFd, -1);
}

}  // namespace launchlab
