#pragma once
/// A remote GPU over SSH: the worker protocol of worker.h over OpenSSH. The command that starts the worker becomes
/// `ssh -T -o BatchMode=yes [-p PORT] [user@]host -- launchlab-cli worker`, so a laptop without an NVIDIA GPU runs
/// its jobs on a lab's GPU server through the same IsolatedRunner: a dropped connection is a worker that died (one
/// failed run with ssh's own message; the next run connects again).
#include <string>
#include <vector>

#include "launchlab/worker/worker.h"

namespace launchlab {

/// Where the remote worker runs: `[user@]host[:port]`, and the path of launchlab-cli on that host.
struct RemoteTarget {
  std::string user;  ///< "" = ssh's default (the local user or ~/.ssh/config)
  std::string host;
  int port = 0;  ///< 0 = ssh's default
  std::string cli = "launchlab-cli";
  /// "user@host" or "host" (what ssh is given), without the port.
  std::string destination() const { return user.empty() ? host : user + "@" + host; }
};

/// Reads `[user@]host[:port]` (an IPv6 address in brackets: `[::1]:2222`) into `out`. Returns "" or one line saying
/// what is wrong (without an option name: the front end says where the text came from). Spaces, control characters, a
/// leading '-' (it would be read as an ssh option) and shell metacharacters are refused.
std::string parseRemoteTarget(const std::string& text, RemoteTarget& out);
/// Checks the remote path of launchlab-cli (letters, digits and `_ . / ~ + -`, not starting with '-'): "" or why not.
std::string checkRemoteCli(const std::string& path);

/// The worker command for `target`. `sshCommand` is the ssh program and any options of its own, split at spaces
/// (LAUNCHLAB_SSH in the front ends, e.g. "ssh -i key -o StrictHostKeyChecking=no"); "" means "ssh". ssh's stderr
/// is captured, so its messages (refused, authentication, command not found) end up in the failed run's reason.
WorkerCommand remoteWorkerCommand(const RemoteTarget& target, const std::string& sshCommand);

}  // namespace launchlab
