// A worker that stays alive and misbehaves, for the parent side's tests (tests/cli/test_worker_hostile.cpp,
// tests/ui/test_backend.cpp). Usage: fake_worker MODE REAL_CLI [ONCE_FILE]
//   banner       prints a login banner on stdout, then becomes the real worker (REAL_CLI worker)
//   stray        hello; answers the device query; on a request sends one progress frame, then a line of text, and
//                stays alive
//   garbage      endless text on stdout, no hello
//   garbage-run  hello and the device query, then endless text once a request arrives
//   silent       never writes; stays alive until its input ends
//   silent-run   hello and the device query; on a request one progress frame, then silence (cancels ignored)
//   half-frame   hello and the device query; on a request, the first 9 bytes of a result frame and silence
//   huge         hello and the device query; on a request, a result frame header announcing 2^62 bytes
//   old          a hello of protocol version 1
//   z-for-device hello; answers the device query with the header of a 3 GiB result frame, and stays
//   big-result   hello and the device query; on a request, the header of a 512 MiB result frame, and exits
//   slow-cpu     hello and the device query; on a request, progress of cpu-serial, 0.5 s of silence (a long CPU
//                repetition), then an empty result
//   hang-kernel  hello and the device query; on a request, progress of cpu-serial then of my-kernel, then silence
//   gpu          hello; answers the device query with an available (fake) H200; each request gets a failed result
// With ONCE_FILE, only the first start misbehaves (it creates the file); later starts are the real worker, so a
// test can check that the run after the failed one works.
#include <fcntl.h>
#include <unistd.h>

#include <chrono>
#include <cstring>
#include <string>
#include <thread>

#include "launchlab/worker/frames.h"
#include "launchlab/worker/wire.h"

using namespace launchlab;

namespace {

void put(const std::string& bytes) {
  for (std::size_t done = 0; done < bytes.size();) {
    const ssize_t w = ::write(1, bytes.data() + done, bytes.size() - done);
    if (w <= 0) ::_exit(0);  // the parent went away
    done += std::size_t(w);
  }
}

/// Reads one frame from stdin; false at the end of the input.
bool readFrame(char& type, std::string& payload) {
  char head[9];
  std::size_t got = 0;
  while (got < 9) {
    const ssize_t r = ::read(0, head + got, 9 - got);
    if (r <= 0) return false;
    got += std::size_t(r);
  }
  type = head[0];
  std::uint64_t n = 0;
  std::memcpy(&n, head + 1, 8);
  payload.assign(std::size_t(n), '\0');
  for (got = 0; got < n;) {
    const ssize_t r = ::read(0, payload.data() + got, n - got);
    if (r <= 0) return false;
    got += std::size_t(r);
  }
  return true;
}

void waitForEndOfInput() {
  char buf[4096];
  while (::read(0, buf, sizeof buf) > 0) {
  }
  ::_exit(0);
}

/// What the fake says its device is: none, or (withGpu) an H200 that runs nothing.
DeviceStatus fakeDevice(bool withGpu) {
  DeviceStatus s;
  if (!withGpu) {
    s.reason = "a fake worker has no GPU";
    return s;
  }
  s.available = true;
  s.info.name = "NVIDIA H200 (fake)";
  s.info.ccMajor = 9;
  s.info.multiprocessors = 132;
  s.info.limits = DeviceLimits::genericCuda();
  s.info.limits.deviceName = s.info.name;
  s.devices = {s.info};
  return s;
}

/// Answers device queries until a request arrives.
void serveUntilRequest(bool withGpu = false) {
  char type = 0;
  std::string payload;
  while (readFrame(type, payload)) {
    if (type == 'R') return;
    if (type == 'I') put(frames::encode('I', wire::encodeDevice(fakeDevice(withGpu))));
  }
  ::_exit(0);
}

/// A GPU that answers every request with a failed result, for as long as its input lasts.
[[noreturn]] void fakeGpu() {
  for (;;) {
    serveUntilRequest(true);
    RunResult r;
    r.status = Status::Failed;
    r.reason = "a fake GPU worker runs nothing";
    put(frames::encode('Z', wire::encodeResult(r)));
  }
}

void endlessText() {
  const std::string text(4096, 'x');
  for (;;) put("garbage " + text + "\n");
}

/// A progress frame of implementation `impl`.
void progressOf(const std::string& impl) {
  Progress p;
  p.implId = impl;
  p.implCount = 2;
  p.reps = 1;
  put(frames::encode('P', wire::encodeProgress(p)));
}

/// The header of a frame of `type` announcing `length` bytes, none of which follow.
void announce(char type, std::uint64_t length) {
  std::string head = frames::encode(type, {});
  std::memcpy(head.data() + 1, &length, 8);
  put(head);
}

/// The modes about a run's time and a frame's size.
void misbehaveInRun(const std::string& mode) {
  if (mode == "big-result") {
    announce('Z', std::uint64_t(512) << 20);
    ::_exit(0);
  }
  progressOf("cpu-serial");
  if (mode == "hang-kernel") progressOf("my-kernel");
  if (mode == "slow-cpu") {
    std::this_thread::sleep_for(std::chrono::milliseconds(500));
    put(frames::encode('Z', wire::encodeResult(RunResult{})));
  }
}

int misbehave(const std::string& mode) {
  if (mode == "garbage") endlessText();
  if (mode == "silent") waitForEndOfInput();
  if (mode == "old") {
    put(frames::encode('H', std::string(frames::kHelloMagic) + "1"));
    waitForEndOfInput();
  }
  put(frames::hello());
  if (mode == "gpu") fakeGpu();
  if (mode == "z-for-device") {
    char type = 0;
    std::string payload;
    if (readFrame(type, payload)) announce('Z', std::uint64_t(3) << 30);
    waitForEndOfInput();
  }
  serveUntilRequest();
  if (mode == "big-result" || mode == "slow-cpu" || mode == "hang-kernel") {
    misbehaveInRun(mode);
  } else if (mode == "stray" || mode == "silent-run") {
    Progress p;
    p.implId = "cpu-serial";
    p.implCount = 1;
    p.reps = 1;
    put(frames::encode('P', wire::encodeProgress(p)));
    if (mode == "stray") put("hello from thread 0\n");
  } else if (mode == "garbage-run") {
    endlessText();
  } else if (mode == "half-frame") {
    put(frames::encode('Z', std::string(100, 'z')).substr(0, 9));
  } else if (mode == "huge") {
    announce('Z', std::uint64_t(1) << 62);
  }
  waitForEndOfInput();
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) return 2;
  const std::string mode = argv[1];
  if (argc > 3) {
    const int fd = ::open(argv[3], O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0600);
    if (fd < 0) {
      ::execl(argv[2], argv[2], "worker", static_cast<char*>(nullptr));
      return 127;
    }
    ::close(fd);
  }
  if (mode == "banner") {
    put("Welcome to lab-gpu! Last login: today\n");
    ::execl(argv[2], argv[2], "worker", static_cast<char*>(nullptr));
    return 127;
  }
  return misbehave(mode);
}
