#include "launchlab/subprocess.h"

#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <sstream>

namespace launchlab {

Captured captureCommand(const std::vector<std::string>& argv, double limitS, std::size_t maxOutputBytes) {
  Captured c;
  if (argv.empty()) return c;
  std::vector<char*> args;
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  int fds[2];
  if (::pipe(fds) != 0) return c;
  const pid_t pid = ::fork();
  if (pid < 0) {
    ::close(fds[0]);
    ::close(fds[1]);
    return c;
  }
  if (pid == 0) {
    ::setpgid(0, 0);
    ::dup2(fds[1], 1);
    ::dup2(fds[1], 2);
    ::close(fds[0]);
    ::close(fds[1]);
    ::execvp(args[0], args.data());
    ::_exit(127);
  }
  ::setpgid(pid, pid);  // both sides, so that the kill below reaches the group whichever runs first
  ::close(fds[1]);
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(limitS);
  char buf[4096];
  for (;;) {
    const auto left =
        std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) {
      c.timedOut = true;
      ::kill(-pid, SIGKILL);
      break;
    }
    pollfd p{fds[0], POLLIN, 0};
    if (::poll(&p, 1, int(std::min<long long>(left.count(), 1000))) < 0 && errno != EINTR) break;
    if (!(p.revents & (POLLIN | POLLHUP))) continue;
    const ssize_t n = ::read(fds[0], buf, sizeof buf);
    if (n <= 0) break;
    const std::size_t room = maxOutputBytes - c.output.size();
    if (std::size_t(n) > room) {
      c.output.append(buf, room);
      c.overflowed = true;
      ::kill(-pid, SIGKILL);
      break;
    }
    c.output.append(buf, std::size_t(n));
  }
  ::close(fds[0]);
  int st = 0;
  ::waitpid(pid, &st, 0);
  c.status = !c.timedOut && !c.overflowed && WIFEXITED(st) ? WEXITSTATUS(st) : -1;
  return c;
}

std::vector<std::string> splitWords(const std::string& text) {
  std::vector<std::string> words;
  std::istringstream in(text);
  for (std::string w; in >> w;) words.push_back(w);
  return words;
}

}  // namespace launchlab
