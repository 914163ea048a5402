#pragma once
// A flood of HTTP requests from one host (127.0.0.1) at the class poll's server: plain blocking sockets on threads of
// their own, so that the thread under test (the window's) does none of the clients' work. Every connection's waits
// are bounded (send and receive timeouts), so a flood ends whatever the server does.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include <QByteArray>
#include <QFile>
#include <atomic>
#include <cstdint>
#include <thread>
#include <vector>

namespace launchlab::test {

/// The status of the reply to `bytes`, sent on a connection of its own to 127.0.0.1:`port`: 0 when the server closed
/// the connection without a status line (a request cut off), -1 when it did not accept the connection.
inline int floodRequest(quint16 port, const QByteArray& bytes, int timeoutMs = 3000) {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  if (fd < 0) return -1;
  const timeval tv{timeoutMs / 1000, (timeoutMs % 1000) * 1000};
  ::setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
  ::setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_port = htons(port);
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (::connect(fd, reinterpret_cast<const sockaddr*>(&a), sizeof a) != 0) {
    ::close(fd);
    return -1;
  }
  for (qsizetype sent = 0; sent < bytes.size();) {
    const ssize_t n = ::send(fd, bytes.constData() + sent, std::size_t(bytes.size() - sent), MSG_NOSIGNAL);
    if (n <= 0) break;  // cut off mid-request: the reply, if any, says how
    sent += n;
  }
  // The status line and the headers, then as many body bytes as Content-Length says (or until the server closes).
  QByteArray in;
  char buf[4096];
  qsizetype want = -1;
  while (want < 0 || in.size() < want) {
    const ssize_t n = ::recv(fd, buf, sizeof buf, 0);
    if (n <= 0) break;
    in.append(buf, qsizetype(n));
    const qsizetype end = in.indexOf("\r\n\r\n");
    if (want < 0 && end >= 0) {
      const qsizetype at = in.toLower().indexOf("content-length:");
      const qsizetype len = at < 0 ? 0 : in.mid(at + 15, in.indexOf("\r\n", at) - at - 15).trimmed().toLongLong();
      want = end + 4 + len;
    }
  }
  ::close(fd);
  return in.startsWith("HTTP/1.1 ") ? in.mid(9, 3).toInt() : 0;
}

/// `count` requests, `clients` at a time (each client one connection after another); request i is `make(i)`, its
/// reply's status goes to statuses[i]. Runs on threads of its own; `done` turns true when every reply is in.
class Flood {
 public:
  template <typename Make>
  Flood(quint16 port, int count, int clients, Make make) : statuses(std::size_t(count), -2) {
    m_threads.reserve(std::size_t(clients));
    for (int c = 0; c < clients; ++c)
      m_threads.emplace_back([this, port, count, clients, c, make] {
        for (int i = c; i < count; i += clients) statuses[std::size_t(i)] = floodRequest(port, make(i));
        if (++m_finished == clients) done = true;
      });
  }
  ~Flood() {
    for (auto& t : m_threads) t.join();
  }
  Flood(const Flood&) = delete;
  Flood& operator=(const Flood&) = delete;

  std::vector<int> statuses;  ///< read them once `done`
  std::atomic<bool> done{false};

 private:
  std::atomic<int> m_finished{0};
  std::vector<std::thread> m_threads;
};

/// This process's resident memory in bytes (Linux's /proc/self/statm); 0 where it cannot be read.
inline std::int64_t residentBytes() {
  QFile f("/proc/self/statm");
  if (!f.open(QIODevice::ReadOnly)) return 0;
  const QList<QByteArray> fields = f.readAll().split(' ');
  return fields.size() > 1 ? fields[1].toLongLong() * std::int64_t(::sysconf(_SC_PAGESIZE)) : 0;
}

}  // namespace launchlab::test
