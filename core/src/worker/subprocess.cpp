#include "launchlab/worker/subprocess.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <sstream>

namespace launchlab {

namespace {

using Clock = std::chrono::steady_clock;

/// Reads `fd` into c.output (at most `keep` bytes; the rest is drained and counted) until the writer closes it, the
/// deadline passes or `cancel` is set; then kills the group `pid`. Closes `fd` and reaps `pid`.
void collect(int fd, pid_t pid, double limitS, std::size_t keep, const CancelToken* cancel, Captured& c) {
  const auto deadline =
      Clock::now() + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(limitS));
  char buf[1 << 16];
  for (;;) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
    c.cancelled = cancel && cancel->cancelled();
    c.timedOut = !c.cancelled && left <= 0;
    if (c.cancelled || c.timedOut) {
      ::kill(-pid, SIGKILL);
      break;
    }
    pollfd p{fd, POLLIN, 0};
    const int slice = int(std::min<long long>(left, cancel ? 50 : 1000));
    if (::poll(&p, 1, slice) < 0 && errno != EINTR) break;
    if (!(p.revents & (POLLIN | POLLHUP | POLLERR))) continue;
    const ssize_t n = ::read(fd, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    const std::size_t take = std::min(std::size_t(n), keep - std::min(keep, c.output.size()));
    c.output.append(buf, take);
    c.dropped += std::size_t(n) - take;
    // A tool that goes on printing (a flood, or garbage in a loop) is stopped once it has printed far more than it
    // can mean: its status then says nothing, and what was kept is all there is.
    if (c.dropped > std::max(keep * 16, kMaxDrainedBytes)) {
      ::kill(-pid, SIGKILL);
      c.flooded = true;
      break;
    }
  }
  ::close(fd);
  int st = 0;
  while (::waitpid(pid, &st, 0) < 0 && errno == EINTR) {
  }
  c.status = !c.timedOut && !c.cancelled && !c.flooded && WIFEXITED(st) ? WEXITSTATUS(st) : -1;
  c.signal = WIFSIGNALED(st) ? WTERMSIG(st) : 0;
}

/// Forks a child in a process group of its own that runs `child` (which must not return) with the write end of a
/// pipe, and collects what it writes (collect()). Nothing starts when the pipe or the fork fails.
template <typename Child>
void startChild(const Child& child, double limitS, std::size_t keep, const CancelToken* cancel, Captured& c) {
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0) return;
  const pid_t pid = ::fork();
  if (pid < 0) {
    ::close(fds[0]);
    ::close(fds[1]);
    return;
  }
  if (pid == 0) {
    ::setpgid(0, 0);
    ::close(fds[0]);
    child(fds[1]);
    ::_exit(127);
  }
  ::setpgid(pid, pid);  // both sides, so that a kill reaches the group whichever runs first
  ::close(fds[1]);
  collect(fds[0], pid, limitS, keep, cancel, c);
}

/// The address space the calling process holds now (/proc/self/statm's first field), 0 if unknown.
std::size_t addressSpaceNow() {
  unsigned long pages = 0;
  FILE* f = std::fopen("/proc/self/statm", "re");
  if (!f) return 0;
  if (std::fscanf(f, "%lu", &pages) != 1) pages = 0;
  std::fclose(f);
  return std::size_t(pages) * std::size_t(::sysconf(_SC_PAGESIZE));
}

}  // namespace

Captured captureCommand(const std::vector<std::string>& argv, double limitS, std::size_t maxOutputBytes,
                        const CancelToken* cancel) {
  Captured c;
  if (argv.empty()) return c;
  std::vector<char*> args;
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  startChild(
      [&](int out) {
        ::dup2(out, 1);  // dup2's copies stay open across exec; `out` itself closes
        ::dup2(out, 2);
        ::execvp(args[0], args.data());
        ::_exit(127);
      },
      limitS, maxOutputBytes, cancel, c);
  return c;
}

Captured runInChild(const std::function<void(int fd)>& body, const ChildLimits& limits, const CancelToken* cancel) {
  Captured c;
  const std::size_t inherited = addressSpaceNow();  // read before fork: the child only sets the limit
  const pid_t parent = ::getpid();
  startChild(
      [&](int out) {
        ::prctl(PR_SET_PDEATHSIG, SIGKILL);  // a parent killed outright takes its child along
        if (::getppid() != parent) ::_exit(1);
        const rlimit none{0, 0};
        ::setrlimit(RLIMIT_CORE, &none);
        if (inherited > 0) {
          const rlimit as{inherited + limits.memoryBytes, inherited + limits.memoryBytes};
          ::setrlimit(RLIMIT_AS, &as);
        }
        ::signal(SIGTERM, SIG_DFL);
        ::signal(SIGPIPE, SIG_DFL);
        try {
          body(out);
        } catch (...) {  // never back into the caller's code in this copy of the process
          ::_exit(125);
        }
        ::_exit(0);
      },
      limits.seconds, limits.outputBytes, cancel, c);
  return c;
}

std::vector<std::string> splitWords(const std::string& text) {
  std::vector<std::string> words;
  std::istringstream in(text);
  for (std::string w; in >> w;) words.push_back(w);
  return words;
}

}  // namespace launchlab
