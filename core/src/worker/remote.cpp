#include "launchlab/worker/remote.h"

#include <algorithm>
#include <cctype>

#include "launchlab/worker/subprocess.h"

namespace launchlab {

namespace {

bool safeChar(char c, const std::string& extra) {
  return std::isalnum(static_cast<unsigned char>(c)) || extra.find(c) != std::string::npos;
}

bool allSafe(const std::string& s, const std::string& extra) {
  return std::all_of(s.begin(), s.end(), [&](char c) { return safeChar(c, extra); });
}

/// A port of 1 to 65535 written in decimal digits, or 0.
int readPort(const std::string& s) {
  if (s.empty() || s.size() > 5 || !allSafe(s, "") ||
      !std::all_of(s.begin(), s.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); }))
    return 0;
  const int p = std::stoi(s);
  return p >= 1 && p <= 65535 ? p : 0;
}

/// Splits "host:port" or "[v6]:port" into host and port text.
std::string splitPort(const std::string& hostPort, std::string& host, std::string& port) {
  if (!hostPort.empty() && hostPort.front() == '[') {
    const auto close = hostPort.find(']');
    if (close == std::string::npos) return "missing ']' after an IPv6 address";
    host = hostPort.substr(1, close - 1);
    const std::string rest = hostPort.substr(close + 1);
    if (!rest.empty() && rest.front() != ':') return "unexpected text after ']'";
    port = rest.empty() ? "" : rest.substr(1);
    if (!rest.empty() && port.empty()) return "an empty port";
    return allSafe(host, ":.") ? "" : "not an IPv6 address in brackets";
  }
  const auto colon = hostPort.rfind(':');
  if (colon != std::string::npos && hostPort.find(':') != colon)
    return "more than one ':' (an IPv6 address goes in brackets, [::1]:22; a host takes one port)";
  host = hostPort.substr(0, colon);
  port = colon == std::string::npos ? "" : hostPort.substr(colon + 1);
  if (colon != std::string::npos && port.empty()) return "an empty port";
  return {};
}

}  // namespace

std::string parseRemoteTarget(const std::string& text, RemoteTarget& out) {
  if (text.empty()) return "empty host (expected [user@]host[:port])";
  if (!allSafe(text, "@.-_:[]")) return "not [user@]host[:port]: only letters, digits and . - _ @ : [ ] may appear";
  const std::string what = "'" + text + "' is not [user@]host[:port]: ";
  const auto at = text.find('@');
  if (at != std::string::npos && text.find('@', at + 1) != std::string::npos) return what + "more than one '@'";
  RemoteTarget t = out;
  t.user = at == std::string::npos ? "" : text.substr(0, at);
  std::string port;
  if (const std::string why = splitPort(text.substr(at == std::string::npos ? 0 : at + 1), t.host, port); !why.empty())
    return what + why;
  if (at != std::string::npos && (t.user.empty() || t.user.front() == '-' || !allSafe(t.user, ".-_")))
    return what + "a user name of letters, digits and . - _ (not starting with '-')";
  if (t.host.empty()) return what + (at == std::string::npos ? "an empty host" : "no host after '@'");
  if (t.host.front() == '-') return what + "a host name that does not start with '-'";
  t.port = port.empty() ? 0 : readPort(port);
  if (!port.empty() && t.port == 0) return what + "the port must be a number from 1 to 65535";
  out = t;
  return {};
}

std::string checkRemoteCli(const std::string& path) {
  if (path.empty() || path.front() == '-' || !allSafe(path, "_./~+-"))
    return "not a path of letters, digits and _ . / ~ + - (not starting with '-')";
  return {};
}

WorkerCommand remoteWorkerCommand(const RemoteTarget& target, const std::string& sshCommand) {
  WorkerCommand c;
  c.argv = splitWords(sshCommand);
  if (c.argv.empty()) c.argv.push_back("ssh");
  // -T: no terminal (a binary stream); BatchMode: never ask for a password on a terminal the window lacks.
  for (const char* a : {"-T", "-o", "BatchMode=yes", "-o", "ConnectTimeout=10", "-o", "ServerAliveInterval=5"})
    c.argv.push_back(a);
  if (target.port) c.argv.insert(c.argv.end(), {"-p", std::to_string(target.port)});
  c.argv.insert(c.argv.end(), {"--", target.destination(), target.cli, "worker"});
  c.name = "the GPU worker on " + target.host + " (over SSH)";
  c.captureStderr = true;
  c.remoteHost = target.host;
  return c;
}

}  // namespace launchlab
