#pragma once
// The class poll's HTTP server (Qt HTTP Server) and the host the window talks to. The server answers three requests
// and nothing else: GET /<code> (the page), POST /<code>/answer (one answer), GET /<code>/status (the count); a wrong
// code is 403, any other path 404. Every connection is bounded: at most kMaxConnections at once, kMaxConnectionBytes
// read from each (headers of at most 8 KiB and bodies of at most 1 KiB fit), an idle limit and a whole-connection
// limit that ends slow senders. It runs on a thread of its own, so a flood of requests never stalls the window.
#include <QHostAddress>
#include <QImage>
#include <QMutex>
#include <QObject>
#include <QString>
#include <QThread>
#include <memory>
#include <optional>

#include "poll/poll_tally.h"

namespace launchlab::ui::poll {

struct Limits {
  int maxConnections = 64;
  qint64 maxConnectionBytes = 16 * 1024;
  qint64 maxHeaderBytes = 8 * 1024;
  qint64 maxBodyBytes = 1024;
  int idleMs = 5000;
  int connectionMs = 15000;
};

/// The answers, shared by the server's thread (which adds) and the window's (which reads).
class SharedTally {
 public:
  Tally::Outcome submit(const QByteArray& token, double value, qint64 nowMs, int* count);
  int count() const;
  void close();
  bool closed() const;
  std::vector<double> values() const;
  QString csv(const Question& q, std::optional<double> measured) const;

 private:
  mutable QMutex mutex_;
  Tally tally_;
};

/// A random poll code of `n` characters from an alphabet without look-alikes (no 0/O, 1/I/L).
QString newPollCode(int n = 5);

/// The address a poll listens on when none is given: the first IPv4 address of an interface that is up and not a
/// loopback (the room's network), else 127.0.0.1.
QHostAddress defaultPollAddress();

/// The window's side of a poll: starts the server thread, stops it, and relays the answer count.
class PollHost : public QObject {
  Q_OBJECT
 public:
  explicit PollHost(QObject* parent = nullptr);
  ~PollHost() override;

  /// Listens on `address`:`port` (0: any free port) for `q`; the URL to show ("http://ADDRESS:PORT/CODE"), or an
  /// error. A running poll is stopped first.
  std::optional<QString> start(const Question& q, const QHostAddress& address, quint16 port, QString* error,
                               const Limits& limits = {});
  void stop();
  /// The answers are final (the reveal): the server still answers, but a POST is refused with 403 "closed" and the
  /// status says {"open": false}, so a student's page says the poll has closed.
  void close() {
    if (tally_) tally_->close();
  }
  bool running() const { return thread_ != nullptr; }
  QString url() const { return url_; }
  QString code() const { return code_; }
  const Question& question() const { return question_; }
  int count() const { return tally_ ? tally_->count() : 0; }
  std::vector<double> values() const { return tally_ ? tally_->values() : std::vector<double>{}; }
  QString csv(std::optional<double> measured) const { return tally_ ? tally_->csv(question_, measured) : QString(); }

 signals:
  void countChanged(int count);

 private:
  QThread* thread_ = nullptr;
  QObject* server_ = nullptr;  // lives on thread_
  std::shared_ptr<SharedTally> tally_;
  Question question_;
  QString url_, code_;
};

/// The QR code of `text` (libqrencode), one module per `scale` pixels with a 4-module quiet zone; a null image when
/// the text does not fit a QR code.
QImage qrImage(const QString& text, int scale = 8);

}  // namespace launchlab::ui::poll
