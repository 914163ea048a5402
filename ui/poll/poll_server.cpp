#include "poll/poll_server.h"

#include <qrencode.h>

#include <QAbstractHttpServer>
#include <QElapsedTimer>
#include <QHttpServerRequest>
#include <QHttpServerResponder>
#include <QJsonDocument>
#include <QJsonObject>
#include <QMutexLocker>
#include <QNetworkInterface>
#include <QPointer>
#include <QRandomGenerator>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTimer>

#include "poll/poll_page.h"

namespace launchlab::ui::poll {

Tally::Outcome SharedTally::submit(const QByteArray& token, double value, qint64 nowMs, int* count) {
  QMutexLocker lock(&mutex_);
  const auto r = tally_.submit(token, value, nowMs);
  *count = tally_.count();
  return r;
}

int SharedTally::count() const {
  QMutexLocker lock(&mutex_);
  return tally_.count();
}

void SharedTally::close() {
  QMutexLocker lock(&mutex_);
  tally_.close();
}

bool SharedTally::closed() const {
  QMutexLocker lock(&mutex_);
  return tally_.closed();
}

std::vector<double> SharedTally::values() const {
  QMutexLocker lock(&mutex_);
  return tally_.values();
}

QString SharedTally::csv(const Question& q, std::optional<double> measured) const {
  QMutexLocker lock(&mutex_);
  return tally_.csv(q, measured);
}

QString newPollCode(int n) {
  static const char kAlphabet[] = "23456789ABCDEFGHJKMNPQRSTUVWXYZ";
  QString code;
  for (int i = 0; i < n; ++i) code += QChar(kAlphabet[QRandomGenerator::system()->bounded(int(sizeof kAlphabet) - 1)]);
  return code;
}

QHostAddress defaultPollAddress() {
  for (const QNetworkInterface& nif : QNetworkInterface::allInterfaces()) {
    const auto f = nif.flags();
    if (!(f & QNetworkInterface::IsUp) || !(f & QNetworkInterface::IsRunning) || (f & QNetworkInterface::IsLoopBack))
      continue;
    for (const QNetworkAddressEntry& e : nif.addressEntries())
      if (e.ip().protocol() == QAbstractSocket::IPv4Protocol && !e.ip().isLoopback()) return e.ip();
  }
  return QHostAddress(QHostAddress::LocalHost);
}

namespace {

// Accepts at most limits.maxConnections at once and bounds each: bytes read, idle time, whole-connection time.
// The byte count is taken in a readyRead slot connected before the HTTP server's own, so an oversized request is
// dropped before the server buffers it. The server reads a request inside a transaction, which keeps its bytes in
// the socket's buffer until the request is whole: a buffer filled to the cap reads no more, so reaching the cap is
// the end (a request that big can never be whole), not waiting for the idle limit.
class BoundedTcpServer : public QTcpServer {
 public:
  BoundedTcpServer(const Limits& limits, QObject* parent) : QTcpServer(parent), limits_(limits) {}

 protected:
  void incomingConnection(qintptr fd) override {
    auto* s = new QTcpSocket(this);
    if (!s->setSocketDescriptor(fd)) {
      delete s;
      return;
    }
    if (open_ >= limits_.maxConnections) {
      s->abort();
      s->deleteLater();
      return;
    }
    ++open_;
    s->setReadBufferSize(limits_.maxConnectionBytes);
    auto* idle = new QTimer(s);
    idle->setSingleShot(true);
    idle->start(limits_.idleMs);
    // The connection's whole-life limit is a child of the socket, gone with it: a QTimer::singleShot would outlive a
    // closed socket until it fired, every request of a flood holding one (about 650 B each) for the whole limit.
    auto* life = new QTimer(s);
    life->setSingleShot(true);
    life->start(limits_.connectionMs);
    connect(life, &QTimer::timeout, s, [s] { s->abort(); });
    connect(idle, &QTimer::timeout, s, [s] { s->abort(); });
    auto seen = std::make_shared<qint64>(0);
    connect(s, &QTcpSocket::readyRead, s, [this, s, idle, seen] {
      idle->start(limits_.idleMs);
      *seen += s->bytesAvailable();
      if (*seen >= limits_.maxConnectionBytes) {
        s->readAll();  // the server's slot, next, finds nothing to parse
        s->abort();
      }
    });
    auto counted = std::make_shared<bool>(true);
    auto release = [this, counted] {
      if (*counted) --open_;
      *counted = false;
    };
    connect(s, &QTcpSocket::disconnected, this, release);
    connect(s, &QObject::destroyed, this, release);
    addPendingConnection(s);
  }

 private:
  Limits limits_;
  int open_ = 0;
};

using Status = QHttpServerResponder::StatusCode;

class HttpServer : public QAbstractHttpServer {
 public:
  HttpServer(Question q, QString code, std::shared_ptr<SharedTally> tally, Limits limits,
             std::function<void(int)> onCount)
      : q_(std::move(q)),
        code_(std::move(code)),
        page_(pageHtml(q_, code_)),
        tally_(std::move(tally)),
        limits_(limits),
        onCount_(std::move(onCount)) {
    clock_.start();
  }

  std::optional<quint16> listenOn(const QHostAddress& address, quint16 port, QString* error) {
    auto* tcp = new BoundedTcpServer(limits_, this);
    if (!tcp->listen(address, port)) {
      *error = QString("cannot listen on %1:%2: %3").arg(address.toString()).arg(port).arg(tcp->errorString());
      delete tcp;
      return std::nullopt;
    }
    bind(tcp);
    return tcp->serverPort();
  }

 protected:
  bool handleRequest(const QHttpServerRequest& request, QTcpSocket* socket) override {
    auto r = makeResponder(request, socket);
    qint64 headerBytes = request.url().toEncoded().size();
    for (const auto& [k, v] : request.headers()) headerBytes += k.size() + v.size() + 4;
    if (headerBytes > limits_.maxHeaderBytes) return reply(r, "headers too large", Status::RequestHeaderFieldsTooLarge);
    if (request.body().size() > limits_.maxBodyBytes) return reply(r, "body too large", Status::PayloadTooLarge);
    const QStringList parts = request.url().path().split('/', Qt::SkipEmptyParts);
    const QString tail = parts.size() == 2 ? parts[1] : QString();
    const bool known = parts.size() == 1 || (parts.size() == 2 && (tail == "answer" || tail == "status"));
    if (!known) return reply(r, "not found", Status::NotFound);
    if (parts[0] != code_) return reply(r, "this poll has closed or the code is wrong", Status::Forbidden);
    const auto method = request.method();
    if (parts.size() == 1 && method == QHttpServerRequest::Method::Get) return page(r);
    if (tail == "status" && method == QHttpServerRequest::Method::Get) return status(r);
    if (tail == "answer" && method == QHttpServerRequest::Method::Post) return answer(r, request.body());
    return reply(r, "method not allowed", Status::MethodNotAllowed);
  }

  void missingHandler(const QHttpServerRequest& request, QTcpSocket* socket) override {
    auto r = makeResponder(request, socket);
    reply(r, "not found", Status::NotFound);
  }

 private:
  static bool send(QHttpServerResponder& r, const QByteArray& body, const QByteArray& mime, Status st) {
    r.write(body,
            {{"Content-Type", mime},
             {"Cache-Control", "no-store"},
             {"X-Content-Type-Options", "nosniff"},
             {"Referrer-Policy", "no-referrer"},
             {"Content-Security-Policy",
              "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; "
              "connect-src 'self'; base-uri 'none'; form-action 'self'"}},
            st);
    return true;
  }
  static bool reply(QHttpServerResponder& r, const char* text, Status st) {
    return send(r, text, "text/plain; charset=utf-8", st);
  }
  bool page(QHttpServerResponder& r) { return send(r, page_, "text/html; charset=utf-8", Status::Ok); }
  bool status(QHttpServerResponder& r) {
    const QJsonObject o{{"open", !tally_->closed()}, {"answers", tally_->count()}};
    return send(r, QJsonDocument(o).toJson(QJsonDocument::Compact), "application/json", Status::Ok);
  }
  bool answer(QHttpServerResponder& r, const QByteArray& body) {
    const ParsedAnswer a = parseAnswer(q_, body);
    if (!a.error.isEmpty()) return send(r, a.error.toUtf8(), "text/plain; charset=utf-8", Status::BadRequest);
    int count = 0;
    switch (tally_->submit(a.token, a.value, clock_.elapsed(), &count)) {
      case Tally::Outcome::TooSoon:
        return reply(r, "too soon", Status::TooManyRequests);
      case Tally::Outcome::Full:
        return reply(r, "the poll is full", Status::ServiceUnavailable);
      case Tally::Outcome::Closed:
        return reply(r, "this poll has closed", Status::Forbidden);
      case Tally::Outcome::Accepted:
        onCount_(count);
        break;
      case Tally::Outcome::Replaced:
        break;
    }
    return send(r, {}, "text/plain", Status::NoContent);
  }

  Question q_;
  QString code_;
  QByteArray page_;
  std::shared_ptr<SharedTally> tally_;
  Limits limits_;
  std::function<void(int)> onCount_;
  QElapsedTimer clock_;
};

}  // namespace

PollHost::PollHost(QObject* parent) : QObject(parent) {}

PollHost::~PollHost() { stop(); }

std::optional<QString> PollHost::start(const Question& q, const QHostAddress& address, quint16 port, QString* error,
                                       const Limits& limits) {
  stop();
  question_ = q;
  code_ = newPollCode();
  tally_ = std::make_shared<SharedTally>();
  thread_ = new QThread(this);
  thread_->setObjectName("launchlab-poll");
  auto* anchor = new QObject;  // constructs the server on its thread, so its sockets live there
  anchor->moveToThread(thread_);
  thread_->start();
  QPointer<PollHost> self(this);
  auto onCount = [self](int n) {
    QMetaObject::invokeMethod(
        self.data(),
        [self, n] {
          if (self) emit self->countChanged(n);
        },
        Qt::QueuedConnection);
  };
  std::optional<quint16> bound;
  QMetaObject::invokeMethod(
      anchor,
      [&] {
        auto* s = new HttpServer(question_, code_, tally_, limits, onCount);
        bound = s->listenOn(address, port, error);
        if (bound)
          server_ = s;
        else
          delete s;
        anchor->deleteLater();
      },
      Qt::BlockingQueuedConnection);
  if (!bound) {
    stop();
    return std::nullopt;
  }
  const QString host =
      address.protocol() == QAbstractSocket::IPv6Protocol ? '[' + address.toString() + ']' : address.toString();
  url_ = QString("http://%1:%2/%3").arg(host).arg(*bound).arg(code_);
  return url_;
}

void PollHost::stop() {
  if (!thread_) return;
  if (server_)
    QMetaObject::invokeMethod(
        server_, [s = server_] { delete s; }, Qt::BlockingQueuedConnection);
  server_ = nullptr;
  thread_->quit();
  thread_->wait();
  delete thread_;
  thread_ = nullptr;
  url_.clear();
}

QImage qrImage(const QString& text, int scale) {
  const QByteArray utf8 = text.toUtf8();
  QRcode* qr = QRcode_encodeString(utf8.constData(), 0, QR_ECLEVEL_M, QR_MODE_8, 1);
  if (!qr) return {};
  constexpr int kQuiet = 4;
  const int side = (qr->width + 2 * kQuiet) * scale;
  QImage img(side, side, QImage::Format_Grayscale8);
  img.fill(255);
  for (int y = 0; y < qr->width; ++y)
    for (int x = 0; x < qr->width; ++x)
      if (qr->data[y * qr->width + x] & 1)
        for (int dy = 0; dy < scale; ++dy) {
          uchar* row = img.scanLine((y + kQuiet) * scale + dy);
          std::fill_n(row + (x + kQuiet) * scale, scale, uchar(0));
        }
  QRcode_free(qr);
  return img;
}

}  // namespace launchlab::ui::poll
