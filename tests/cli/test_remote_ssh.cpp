// A remote GPU over SSH, against a real sshd on 127.0.0.1 with throwaway keys: a run through
// `ssh 127.0.0.1 launchlab-cli worker` equals an in-process one; sshd killed mid-run costs one failed run with ssh's
// reason, a run while it is down fails with one clear reason, and the next run after it is back connects again.
// Skips (saying why) without sshd, ssh or ssh-keygen; LAUNCHLAB_REQUIRE_SSHD=1 (CI) turns that skip into a failure.
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <thread>

#include "launchlab/engine/engine.h"
#include "launchlab/kernels.h"
#include "launchlab/worker/remote.h"

using namespace launchlab;
namespace fs = std::filesystem;

namespace {

const char* kSshd = "/usr/sbin/sshd";

bool onPath(const char* tool) {
  return std::system((std::string("command -v ") + tool + " >/dev/null 2>&1").c_str()) == 0;
}

int freePort() {
  const int s = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t len = sizeof a;
  ::bind(s, reinterpret_cast<sockaddr*>(&a), sizeof a);
  ::getsockname(s, reinterpret_cast<sockaddr*>(&a), &len);
  ::close(s);
  return ntohs(a.sin_port);
}

bool accepts(int port) {
  const int s = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_port = htons(std::uint16_t(port));
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  const bool ok = ::connect(s, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0;
  ::close(s);
  return ok;
}

/// The processes whose parent is `pid` (from /proc; processes may come and go while it reads).
std::vector<pid_t> childrenOf(pid_t pid) {
  std::vector<pid_t> out;
  std::error_code ec;
  for (fs::directory_iterator it("/proc", ec), end; !ec && it != end; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    if (name.empty() || name.find_first_not_of("0123456789") != std::string::npos) continue;
    std::ifstream stat(it->path() / "stat");
    const std::string text((std::istreambuf_iterator<char>(stat)), {});
    const auto close = text.rfind(')');
    int ppid = 0;
    char state = 0;
    if (close != std::string::npos && std::sscanf(text.c_str() + close + 1, " %c %d", &state, &ppid) == 2 &&
        ppid == pid)
      out.push_back(pid_t(std::atoi(name.c_str())));
  }
  return out;
}

/// sshd on 127.0.0.1 in a temporary folder: its own host key, one throwaway user key authorised for this user.
class LoopbackSshd {
 public:
  std::string setUp() {
    dir_ = fs::temp_directory_path() / ("launchlab-sshd-" + std::to_string(::getpid()));
    fs::create_directories(dir_);
    const std::string d = dir_.string();
    const std::string keygen = "ssh-keygen -q -t ed25519 -N '' -f ";
    if (std::system((keygen + d + "/host_key && " + keygen + d + "/user_key && cp " + d + "/user_key.pub " + d +
                     "/authorized_keys")
                        .c_str()) != 0)
      return "ssh-keygen failed";
    if (::geteuid() == 0) fs::create_directories("/run/sshd");  // sshd's privilege separation folder
    port_ = freePort();
    std::ofstream(dir_ / "sshd_config") << "Port " << port_ << "\nListenAddress 127.0.0.1\nHostKey " << d
                                        << "/host_key\nAuthorizedKeysFile " << d << "/authorized_keys\nPidFile " << d
                                        << "/sshd.pid\nPasswordAuthentication no\nKbdInteractiveAuthentication no\n"
                                           "PermitRootLogin prohibit-password\nStrictModes no\nUsePAM no\n";
    return start();
  }
  std::string start() {
    std::fflush(nullptr);  // the child must not write the test's buffered output a second time
    pid_ = ::fork();
    if (pid_ == 0) {
      // Nothing of the test's own streams: a leftover sshd must not hold ctest's output pipe open.
      const std::string log = (dir_ / "sshd.log").string();
      if (!std::freopen("/dev/null", "r", stdin) || !std::freopen(log.c_str(), "a", stdout) || ::dup2(1, 2) < 0)
        ::_exit(127);
      const std::string cfg = (dir_ / "sshd_config").string();
      ::execl(kSshd, kSshd, "-D", "-e", "-f", cfg.c_str(), static_cast<char*>(nullptr));
      ::_exit(127);
    }
    for (int i = 0; i < 500 && !accepts(port_); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(10));
    return accepts(port_) ? ""
                          : "sshd did not listen on 127.0.0.1:" + std::to_string(port_) + " (see " +
                                (dir_ / "sshd.log").string() + ")";
  }
  /// Kills sshd and its sessions at once: the connection drops as a crashed or rebooted server drops it.
  void kill() {
    if (pid_ <= 0) return;
    std::vector<pid_t> all{pid_};
    for (std::size_t i = 0; i < all.size(); ++i)
      for (pid_t c : childrenOf(all[i])) all.push_back(c);
    for (pid_t p : all) ::kill(p, SIGKILL);
    ::waitpid(pid_, nullptr, 0);
    pid_ = -1;
  }
  ~LoopbackSshd() {
    kill();
    std::error_code ec;
    fs::remove_all(dir_, ec);
  }
  int port() const { return port_; }
  /// The ssh command of LAUNCHLAB_SSH for this server: the throwaway key, no known_hosts, no user config.
  std::string ssh() const {
    return "ssh -F /dev/null -i " + (dir_ / "user_key").string() +
           " -o IdentitiesOnly=yes -o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null -o LogLevel=ERROR";
  }

 private:
  fs::path dir_;
  int port_ = 0;
  pid_t pid_ = -1;
};

RunRequest request(std::uint64_t n, int reps) {
  RunRequest r;
  r.workload = "vector_add";
  r.n = n;
  r.reps = reps;
  r.seed = 3;
  r.impls = {"cpu-serial", "cpu-parallel"};
  r.keepInputs = r.keepOutputs = true;
  return r;
}

}  // namespace

TEST(RemoteSsh, LoopbackRunsLikeLocalAndSurvivesADroppedConnection) {
  std::string missing;
  for (const char* tool : {"ssh", "ssh-keygen"})
    if (!onPath(tool)) missing += std::string(missing.empty() ? "" : ", ") + tool;
  if (::access(kSshd, X_OK) != 0) missing += std::string(missing.empty() ? "" : ", ") + kSshd;
  if (!missing.empty()) {
    if (const char* req = std::getenv("LAUNCHLAB_REQUIRE_SSHD"); req && std::string(req) == "1")
      FAIL() << "LAUNCHLAB_REQUIRE_SSHD=1 but missing: " << missing;
    GTEST_SKIP() << "no OpenSSH server to test against (missing: " << missing << "; apt-get install openssh-server)";
  }
  LoopbackSshd sshd;
  ASSERT_EQ(sshd.setUp(), "");

  RemoteTarget target;
  ASSERT_EQ(parseRemoteTarget("127.0.0.1:" + std::to_string(sshd.port()), target), "");
  target.cli = LAUNCHLAB_CLI_PATH;
  IsolatedRunner runner(remoteWorkerCommand(target, sshd.ssh()));
  const DeviceStatus status = runner.deviceStatus();
  EXPECT_TRUE(status.available || !status.reason.empty());

  // Same result as this process computes.
  const RunResult remote = runner.run(request(20011, 2));
  ASSERT_EQ(remote.status, Status::Ok) << remote.reason;
  Registry reg;
  kernels::registerAllWorkloads(reg);
  Engine engine(reg, kernels::makeDefaultGpuRuntime());
  const RunResult local = engine.run(request(20011, 2));
  ASSERT_EQ(remote.impls.size(), local.impls.size());
  for (std::size_t k = 0; k < local.impls.size(); ++k) {
    ASSERT_EQ(remote.impls[k].outputs.size(), 1u);
    EXPECT_EQ(std::memcmp(remote.impls[k].outputs[0].data(), local.impls[k].outputs[0].data(),
                          local.impls[k].outputs[0].bytes()),
              0);
  }

  // The server goes away mid-run: one failed run that says so.
  bool killed = false;
  const RunResult dropped = runner.run(request(1 << 22, 100000), nullptr, [&](const Progress&) {
    if (!killed) sshd.kill();
    killed = true;
  });
  EXPECT_TRUE(killed);
  EXPECT_EQ(dropped.status, Status::Failed);
  EXPECT_NE(dropped.reason.find("on 127.0.0.1 (over SSH)"), std::string::npos) << dropped.reason;
  EXPECT_NE(dropped.reason.find("during the run"), std::string::npos) << dropped.reason;

  std::printf("dropped mid-run: %s\n", dropped.reason.c_str());

  // While it is down: one failed run with ssh's reason.
  const RunResult down = runner.run(request(1000, 1));
  EXPECT_EQ(down.status, Status::Failed);
  EXPECT_NE(down.reason.find("Connection refused"), std::string::npos) << down.reason;

  std::printf("while down: %s\n", down.reason.c_str());

  // Back up: the next run connects again.
  ASSERT_EQ(sshd.start(), "");
  const RunResult again = runner.run(request(20011, 2));
  ASSERT_EQ(again.status, Status::Ok) << again.reason;
  EXPECT_EQ(std::memcmp(again.impls[0].outputs[0].data(), local.impls[0].outputs[0].data(),
                        local.impls[0].outputs[0].bytes()),
            0);
}
