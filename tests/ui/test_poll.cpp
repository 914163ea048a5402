// The class poll without a window: its answer rules and tally (QtCore), its page, and its HTTP server on loopback
// with raw clients, hostile ones included (every request bounded in count and time).
#include <QSignalSpy>
#include <QTcpSocket>
#include <QTest>
#include <memory>
#include <vector>

#include "poll/poll_page.h"
#include "poll/poll_server.h"

using namespace launchlab::ui::poll;

namespace {

Question ratioQuestion() {
  Question q;
  q.text = "How many times slower is the strided kernel?";
  q.unit = "×";
  q.logScale = true;
  q.min = 0.01;
  q.max = 1000;
  return q;
}

QByteArray token(int i) { return QByteArray::number(i, 16).rightJustified(32, '0'); }

QByteArray answerBody(const QByteArray& t, const QByteArray& a) { return "{\"t\":\"" + t + "\",\"a\":" + a + "}"; }

struct Reply {
  int status = 0;  // 0: the connection was closed without a status line
  QByteArray body;
};

// One request on its own connection; the server runs on its own thread, so blocking here is fine.
Reply rawRequest(quint16 port, const QByteArray& bytes) {
  QTcpSocket s;
  s.connectToHost(QHostAddress::LocalHost, port);
  if (!s.waitForConnected(3000)) return {};
  s.write(bytes);
  s.waitForBytesWritten(3000);
  QByteArray in;
  while (s.waitForReadyRead(3000)) {
    in += s.readAll();
    const int end = in.indexOf("\r\n\r\n");
    if (end < 0) continue;
    const int at = in.toLower().indexOf("content-length:");
    const int len = at < 0 ? 0 : in.mid(at + 15, in.indexOf("\r\n", at) - at - 15).trimmed().toInt();
    if (in.size() >= end + 4 + len) break;
  }
  Reply r;
  if (!in.startsWith("HTTP/1.1 ")) return r;
  r.status = in.mid(9, 3).toInt();
  r.body = in.mid(in.indexOf("\r\n\r\n") + 4);
  return r;
}

Reply get(quint16 port, const QByteArray& path) {
  return rawRequest(port, "GET " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n");
}

Reply post(quint16 port, const QByteArray& path, const QByteArray& body) {
  return rawRequest(port, "POST " + path +
                              " HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                              "Connection: close\r\nContent-Length: " +
                              QByteArray::number(body.size()) + "\r\n\r\n" + body);
}

quint16 portOf(const QString& url) { return quint16(QUrl(url).port()); }

}  // namespace

class TestPoll : public QObject {
  Q_OBJECT

 private slots:
  void answersAreCheckedAgainstTheQuestion() {
    const Question q = ratioQuestion();
    QVERIFY(parseAnswer(q, answerBody(token(1), "3.5")).error.isEmpty());
    QCOMPARE(parseAnswer(q, answerBody(token(1), "3.5")).value, 3.5);
    QVERIFY(!parseAnswer(q, answerBody(token(1), "5000")).error.isEmpty());   // above max
    QVERIFY(!parseAnswer(q, answerBody(token(1), "\"4\"")).error.isEmpty());  // a string
    QVERIFY(!parseAnswer(q, answerBody("nothex", "4")).error.isEmpty());
    QVERIFY(!parseAnswer(q, "not json").error.isEmpty());
    QVERIFY(!parseAnswer(q, "[1,2]").error.isEmpty());
    Question c;
    c.kind = Question::Kind::Choice;
    c.choices = {"32", "128", "512", "1024"};
    QVERIFY(parseAnswer(c, answerBody(token(1), "3")).error.isEmpty());
    QVERIFY(!parseAnswer(c, answerBody(token(1), "4")).error.isEmpty());
    QVERIFY(!parseAnswer(c, answerBody(token(1), "1.5")).error.isEmpty());
  }

  void oneAnswerPerDeviceAndBoundedRate() {
    Tally t;
    QCOMPARE(t.submit(token(1), 2, 0), Tally::Outcome::Accepted);
    QCOMPARE(t.submit(token(1), 3, kMinSubmitGapMs - 1), Tally::Outcome::TooSoon);
    QCOMPARE(t.submit(token(1), 4, kMinSubmitGapMs), Tally::Outcome::Replaced);
    QCOMPARE(t.count(), 1);
    QCOMPARE(t.values(), std::vector<double>{4});
    for (int i = 2; i <= kMaxDevices; ++i) t.submit(token(i), 1, 0);
    QCOMPARE(t.count(), kMaxDevices);
    QCOMPARE(t.submit(token(kMaxDevices + 1), 1, 0), Tally::Outcome::Full);
  }

  void afterTheRevealTheAnswersAreFinal() {
    Tally t;
    QCOMPARE(t.submit(token(1), 2, 0), Tally::Outcome::Accepted);
    t.close();
    QVERIFY(t.closed());
    QCOMPARE(t.submit(token(1), 3, 10 * kMinSubmitGapMs), Tally::Outcome::Closed);  // no change of mind
    QCOMPARE(t.submit(token(2), 3, 10 * kMinSubmitGapMs), Tally::Outcome::Closed);  // no late answer
    QCOMPARE(t.values(), std::vector<double>{2});
  }

  void summaryBinsMedianAndShareClose() {
    const Question q = ratioQuestion();
    const std::vector<double> v{1, 2, 4, 8, 100};
    const Summary s = summarize(q, v, [](double x) { return x >= 2 && x <= 8; });
    QCOMPARE(s.answers, 5);
    QCOMPARE(*s.median, 4.0);
    QCOMPARE(*s.shareClose, 0.6);
    int total = 0;
    for (const auto& b : s.bins) total += b.count;
    QCOMPARE(total, 5);
    QCOMPARE(s.bins.front().lo, 1.0);  // log bins span the answers themselves
    QVERIFY(std::abs(s.bins.back().hi - 100.0) < 1e-9);
    QCOMPARE(s.bins[1].lo / s.bins[0].lo, s.bins[2].lo / s.bins[1].lo);  // equal ratios: log-spaced
    Question c;
    c.kind = Question::Kind::Choice;
    c.choices = {"a", "b", "c"};
    const Summary sc = summarize(c, {1, 1, 2});
    QCOMPARE(sc.bins.size(), std::size_t(3));
    QCOMPARE(sc.bins[1].count, 2);
    QCOMPARE(*sc.median, 1.0);  // the most chosen
    QVERIFY(!sc.shareClose);
  }

  void csvQuotesTheQuestion() {
    Question q = ratioQuestion();
    q.text = "Say \"how\", then why";
    Tally t;
    t.submit(token(7), 2.5, 42);
    const QString csv = t.csv(q, 4.8);
    QCOMPARE(csv.split('\n')[1], QString("\"Say \"\"how\"\", then why\",%1,\"2.5\",4.8,42").arg(QString(token(7))));
  }

  void csvNamesTheMeasuredChoice() {
    Question c;
    c.text = "Which is fastest?";
    c.kind = Question::Kind::Choice;
    c.choices = {"cuda-naive", "cuda-tiled"};
    Tally t;
    t.submit(token(3), 0, 5);
    QCOMPARE(t.csv(c, 1.0).split('\n')[1],
             QString("\"Which is fastest?\",%1,\"cuda-naive\",\"cuda-tiled\",5").arg(QString(token(3))));
  }

  void thePageEscapesEveryString() {
    Question q = ratioQuestion();
    q.text = "<script>alert(1)</script> & \"quotes\"";
    q.unit = "</script><script>alert(2)</script>";
    const QByteArray page = pageHtml(q, "ABCDE");
    QVERIFY(!page.contains("<script>alert"));
    QVERIFY(page.contains("&lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;quotes&quot;"));
    QVERIFY(page.size() < 30 * 1024);
    QVERIFY(!page.contains("src=") && !page.contains("href="));  // nothing fetched from elsewhere
  }

  void theServerAnswersItsThreeRequestsAndNothingElse() {
    PollHost host;
    QString error;
    const auto url = host.start(ratioQuestion(), QHostAddress::LocalHost, 0, &error);
    QVERIFY2(url, qPrintable(error));
    const quint16 port = portOf(*url);
    const QByteArray code = host.code().toLatin1();
    QVERIFY(url->startsWith("http://127.0.0.1:"));
    const Reply page = get(port, "/" + code);
    QCOMPARE(page.status, 200);
    QVERIFY(page.body.contains("How many times slower"));
    QCOMPARE(get(port, "/WRONG").status, 403);
    QCOMPARE(get(port, "/WRONG/answer").status, 403);
    QCOMPARE(get(port, "/" + code + "/nope").status, 404);
    QCOMPARE(get(port, "/a/b/c").status, 404);
    QCOMPARE(get(port, "/" + code + "/answer").status, 405);
    QSignalSpy counted(&host, &PollHost::countChanged);
    QCOMPARE(post(port, "/" + code + "/answer", answerBody(token(1), "3")).status, 204);
    QCOMPARE(post(port, "/" + code + "/answer", answerBody(token(1), "4")).status, 429);  // too soon
    QCOMPARE(post(port, "/" + code + "/answer", answerBody(token(2), "1e9")).status, 400);
    QCOMPARE(post(port, "/" + code + "/answer", "{\"t\":").status, 400);
    QTRY_COMPARE(counted.count(), 1);
    QCOMPARE(counted.last().at(0).toInt(), 1);
    const Reply st = get(port, "/" + code + "/status");
    QCOMPARE(st.status, 200);
    QVERIFY(st.body.contains("\"answers\":1"));
    host.stop();
    QCOMPARE(get(port, "/" + code).status, 0);  // nothing listens once the poll ends
  }

  void oversizedAndSlowRequestsAreCutOff() {
    PollHost host;
    QString error;
    Limits limits;
    limits.idleMs = 200;
    limits.connectionMs = 600;
    const auto url = host.start(ratioQuestion(), QHostAddress::LocalHost, 0, &error, limits);
    QVERIFY2(url, qPrintable(error));
    const quint16 port = portOf(*url);
    const QByteArray code = host.code().toLatin1();
    // A body over 1 KiB: refused, never tallied.
    const QByteArray big = answerBody(token(3), "3" + QByteArray(2000, ' '));
    QCOMPARE(post(port, "/" + code + "/answer", big).status, 413);
    // Headers over 8 KiB (and the connection's 16 KiB): refused or cut, never served.
    const QByteArray longHeader = "GET /" + code + " HTTP/1.1\r\nX-Pad: " + QByteArray(9000, 'a') + "\r\n\r\n";
    QVERIFY(rawRequest(port, longHeader).status != 200);
    const QByteArray flood = "GET /" + code + " HTTP/1.1\r\nX-Pad: " + QByteArray(40000, 'a') + "\r\n\r\n";
    QCOMPARE(rawRequest(port, flood).status, 0);
    // A sender that stops mid-header is disconnected by the idle limit; one that trickles, by the connection limit.
    QTcpSocket idle;
    idle.connectToHost(QHostAddress::LocalHost, port);
    QVERIFY(idle.waitForConnected(3000));
    idle.write("GET /");
    QTRY_COMPARE_WITH_TIMEOUT(idle.state(), QAbstractSocket::UnconnectedState, 3000);
    QTcpSocket slow;
    slow.connectToHost(QHostAddress::LocalHost, port);
    QVERIFY(slow.waitForConnected(3000));
    for (int i = 0; i < 40 && slow.state() == QAbstractSocket::ConnectedState; ++i) {
      slow.write("a");
      slow.waitForBytesWritten(100);
      QTest::qWait(50);
    }
    QCOMPARE(slow.state(), QAbstractSocket::UnconnectedState);
    QCOMPARE(host.count(), 0);
  }

  /// A request past the connection's byte cap ends at the cap, whatever the time limits: the server reads a request
  /// inside a transaction, so its socket buffer fills at the cap and would otherwise wait for the idle limit.
  void anOversizedRequestEndsAtTheByteCapNotAtATimeLimit() {
    PollHost host;
    QString error;
    Limits limits;
    limits.idleMs = limits.connectionMs = 600000;
    const auto url = host.start(ratioQuestion(), QHostAddress::LocalHost, 0, &error, limits);
    QVERIFY2(url, qPrintable(error));
    QTcpSocket s;
    s.connectToHost(QHostAddress::LocalHost, portOf(*url));
    QVERIFY(s.waitForConnected(3000));
    s.write("GET /" + host.code().toLatin1() + " HTTP/1.1\r\nX-Pad: " + QByteArray(limits.maxConnectionBytes, 'a') +
            "\r\n\r\n");
    QTRY_COMPARE_WITH_TIMEOUT(s.state(), QAbstractSocket::UnconnectedState, 10000);
    QVERIFY(!s.readAll().startsWith("HTTP/1.1 200"));
  }

  void connectionsAreBoundedAndTheClassAnswersAtOnce() {
    PollHost host;
    QString error;
    Limits limits;
    limits.maxConnections = 40;
    const auto url = host.start(ratioQuestion(), QHostAddress::LocalHost, 0, &error, limits);
    QVERIFY2(url, qPrintable(error));
    const quint16 port = portOf(*url);
    const QByteArray code = host.code().toLatin1();
    // 40 idle connections fill the server; the 41st is closed at once.
    std::vector<std::unique_ptr<QTcpSocket>> held;
    for (int i = 0; i < 40; ++i) {
      held.push_back(std::make_unique<QTcpSocket>());
      held.back()->connectToHost(QHostAddress::LocalHost, port);
      QVERIFY(held.back()->waitForConnected(3000));
    }
    QTest::qWait(100);
    QCOMPARE(get(port, "/" + code).status, 0);
    held.clear();
    QTRY_COMPARE(get(port, "/" + code).status, 200);
    // 30 devices answering at once (each its own connection, all open before any is answered).
    std::vector<std::unique_ptr<QTcpSocket>> clients;
    QSignalSpy counted(&host, &PollHost::countChanged);
    for (int i = 0; i < 30; ++i) {
      clients.push_back(std::make_unique<QTcpSocket>());
      clients.back()->connectToHost(QHostAddress::LocalHost, port);
    }
    for (int i = 0; i < 30; ++i) {
      auto& c = *clients[std::size_t(i)];
      QVERIFY(c.waitForConnected(3000));
      const QByteArray body = answerBody(token(100 + i), QByteArray::number(i + 1));
      c.write("POST /" + code + "/answer HTTP/1.1\r\nHost: x\r\nContent-Length: " + QByteArray::number(body.size()) +
              "\r\n\r\n" + body);
    }
    for (auto& c : clients) {
      QVERIFY(c->waitForReadyRead(3000));
      QVERIFY(c->readAll().startsWith("HTTP/1.1 204"));
    }
    QTRY_COMPARE(host.count(), 30);
    QTRY_VERIFY(!counted.isEmpty() && counted.last().at(0).toInt() == 30);
    const auto values = host.values();
    QCOMPARE(values.size(), std::size_t(30));
  }

  void aQrCodeForTheAddress() {
    const QImage img = qrImage("http://192.168.1.20:8080/ABCDE", 4);
    QVERIFY(!img.isNull());
    QCOMPARE(img.width(), img.height());
    QCOMPARE(img.pixelColor(0, 0), QColor(Qt::white));          // the quiet zone
    QCOMPARE(img.pixelColor(4 * 4, 4 * 4), QColor(Qt::black));  // a finder pattern's corner
  }
};

QTEST_GUILESS_MAIN(TestPoll)
#include "test_poll.moc"
