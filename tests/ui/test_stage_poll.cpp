// Ask the class on the stage: A (never before) starts the poll for the question on show, loopback clients post
// answers as the students' pages do, the stage shows the live count (never the distribution before the run), the
// run reveals the class's histogram with the measured value, the median and the share within 2× (or right), and
// Page Down, leaving presentation mode or the window's end stops the server. Hostile clients get their refusals and
// change nothing; markup in a question is shown as written; 30 clients answering at once are all counted. Every
// client talks to 127.0.0.1 with bounded waits.
#include <QAction>
#include <QApplication>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QMainWindow>
#include <QScreen>
#include <QSignalSpy>
#include <QTcpSocket>
#include <QTemporaryDir>
#include <QTest>
#include <QUrl>
#include <algorithm>
#include <cmath>
#include <memory>
#include <vector>

#include "app/gui_wiring.h"
#include "launchlab/course/course.h"
#include "models/settings.h"
#include "stage_fixtures.h"
#include "test_poll_flood.h"
#include "window/main_window.h"
#include "window/prediction_store.h"
#include "window/stage.h"
#include "window/stage_controller.h"
#include "window/stage_poll.h"
#include "window/stage_prompt.h"
#include "window/stall_meter.h"

using namespace launchlab;
using namespace launchlab::ui;
using namespace launchlab::test;

namespace {

struct Reply {
  int status = 0;  // 0: no connection, or closed without a status line
  QByteArray body;
};

QByteArray token(int device) { return QByteArray::number(device, 16).rightJustified(32, '0'); }
QByteArray answerBody(int device, const QByteArray& a) { return "{\"t\":\"" + token(device) + "\",\"a\":" + a + "}"; }

QByteArray requestBytes(const QUrl& url, const QByteArray& method, const QByteArray& path, const QByteArray& body) {
  QByteArray r = method + ' ' + path + " HTTP/1.1\r\nHost: " + url.host().toUtf8() + "\r\nConnection: close\r\n";
  if (method == "POST")
    r += "Content-Type: application/json\r\nContent-Length: " + QByteArray::number(body.size()) + "\r\n";
  return r + "\r\n" + body;
}

Reply parse(const QByteArray& in) {
  Reply r;
  if (!in.startsWith("HTTP/1.1 ")) return r;
  r.status = in.mid(9, 3).toInt();
  r.body = in.mid(in.indexOf("\r\n\r\n") + 4);
  return r;
}

/// Whether `in` holds a whole response (its headers and Content-Length bytes of body).
bool complete(const QByteArray& in) {
  const int end = in.indexOf("\r\n\r\n");
  if (end < 0) return false;
  const int at = in.toLower().indexOf("content-length:");
  const int len = at < 0 ? 0 : in.mid(at + 15, in.indexOf("\r\n", at) - at - 15).trimmed().toInt();
  return in.size() >= end + 4 + len;
}

/// One request on its own connection, read until the response is whole or the server closes the connection (the
/// server runs on its own thread, so blocking here is fine).
Reply request(const QUrl& url, const QByteArray& method, const QByteArray& path, const QByteArray& body = {}) {
  QTcpSocket s;
  s.connectToHost(url.host(), quint16(url.port()));
  if (!s.waitForConnected(3000)) return {};
  s.write(requestBytes(url, method, path, body));
  QByteArray in;
  while (!complete(in) && s.waitForReadyRead(3000)) in += s.readAll();
  return parse(in);
}

QByteArray code(const QUrl& url) { return url.path().toUtf8(); }  // "/CODE"

Reply post(const QUrl& url, int device, const QByteArray& answer) {
  return request(url, "POST", code(url) + "/answer", answerBody(device, answer));
}

/// The flood's requests, by index: pages, answers (a new device each), status GETs, wrong codes, unknown paths and
/// headers past every cap, in a fixed order.
enum class Kind { Page, Answer, Status, WrongCode, Unknown, Oversized };
Kind kindOf(int i) {
  static constexpr Kind kOrder[] = {Kind::Page, Kind::Answer, Kind::Status,  Kind::WrongCode,
                                    Kind::Page, Kind::Answer, Kind::Unknown, Kind::Oversized};
  return kOrder[i % 8];
}
QByteArray floodBytes(const QUrl& url, int i) {
  switch (kindOf(i)) {
    case Kind::Page:
      return requestBytes(url, "GET", code(url), {});
    case Kind::Answer:
      return requestBytes(url, "POST", code(url) + "/answer", answerBody(1000 + i, "5"));
    case Kind::Status:
      return requestBytes(url, "GET", code(url) + "/status", {});
    case Kind::WrongCode:
      return requestBytes(url, "GET", "/WRONG", {});
    case Kind::Unknown:
      return requestBytes(url, "GET", code(url) + "/admin", {});
    case Kind::Oversized:
      return "GET " + code(url) + " HTTP/1.1\r\nX-Pad: " + QByteArray(20 * 1024, 'a') + "\r\n\r\n";
  }
  return {};
}
/// The replies a request of its kind may get: an answer past the poll's device cap is refused (503), an oversized
/// request is cut off (no status) or refused.
bool expectedReply(Kind k, int status) {
  switch (k) {
    case Kind::Page:
    case Kind::Status:
      return status == 200;
    case Kind::Answer:
      return status == 204 || status == 503;
    case Kind::WrongCode:
      return status == 403;
    case Kind::Unknown:
      return status == 404;
    case Kind::Oversized:
      return status == 0 || status == 413 || status == 431;
  }
  return false;
}

/// A choice question whose words are markup: the page and the stage must show them as written.
CourseExperiment hostileChoiceExperiment() {
  CourseExperiment e = ratioExperiment("ex-hostile");
  Prediction& p = e.predictions[0];
  p.question = "Which is fastest? <script>alert(1)</script>";
  p.answer = AnswerKind{};
  p.answer.choices = {"cuda-coalesced", "<img src=x onerror=alert(2)>"};
  p.measure = MeasureSpec{};
  p.measure.name = "fastest";
  return e;
}

/// The stage without a window: header, prompt, poll and controller, in presentation mode at 720 px.
struct Stage {
  QWidget root;
  StageHeader* header = new StageHeader(&root);
  StagePrompt* prompt = new StagePrompt(&root);
  StagePoll* poll = new StagePoll(&root);
  QLabel* hints = new QLabel(&root);
  StageController controller{header, prompt, hints, nullptr};
  explicit Stage(bool presentation = true) {
    controller.attachPoll(poll, "127.0.0.1");
    controller.setPresentation(presentation, 720);
  }
};

/// Every visible label of `w` shows its text in at least `px` pixels.
bool labelsAtLeast(const QWidget* w, int px) {
  for (const QLabel* l : w->findChildren<QLabel*>())
    if (l->isVisibleTo(w) && !l->text().isEmpty() && QFontInfo(l->font()).pixelSize() < px) return false;
  return true;
}

/// Why a window is not its screen's size: the shown rows of its central widget and the heights they ask for.
QString rowsOf(const QMainWindow& w) {
  QString out = QString("window %1x%2, at least %3: ").arg(w.width()).arg(w.height()).arg(w.minimumSizeHint().height());
  for (QWidget* x : w.centralWidget()->findChildren<QWidget*>(QString(), Qt::FindDirectChildrenOnly))
    if (x->isVisible())
      out += QString("%1 %2 (at least %3); ").arg(x->objectName()).arg(x->height()).arg(x->minimumSizeHint().height());
  return out;
}
/// Saves the window as `launchlab --screenshot` does: 800 ms after the change, so the layouts, replots and GL
/// frames it queued have landed (a grab at once showed the rows' old places and a plot without its image).
void grabAfterTheFrames(QMainWindow& w, const QString& file) {
  QTest::qWait(800);
  QVERIFY(w.grab().save(file));
}
}  // namespace

class TestStagePoll : public QObject {
  Q_OBJECT
  QTemporaryDir m_dir;

 private slots:
  void neverListensBeforeAAndOnlyOnTheStage() {
    Stage desk(false);
    const CourseExperiment e = ratioExperiment("ex-a");
    desk.controller.setExperiment(&e, "1 / 2", "A", nullptr);
    QVERIFY(!desk.controller.polling());
    QCOMPARE(desk.controller.askTheClass(), QString());  // at the desk: refused, with the reason
    QVERIFY(!desk.controller.polling());
    Stage s;
    s.controller.setExperiment(&e, "1 / 2", "A", nullptr);
    QVERIFY(!s.controller.polling());  // the question alone does not listen
    QVERIFY(s.hints->text().contains("A ask the class"));
    const QUrl url(s.controller.askTheClass());
    QVERIFY(s.controller.polling());
    QCOMPARE(url.host(), QString("127.0.0.1"));
    QCOMPARE(s.poll->urlLabel()->text(), "Answer at " + url.toString());  // the exact address
    QCOMPARE(s.poll->countLabel()->text(), QString("0 answers"));
    QVERIFY(s.controller.exportAnswersAction()->isEnabled());
    // The QR code is a readable size from the back of a room: up to half the height, whole pixels per module.
    const QPixmap qr = s.poll->findChild<QLabel*>("pollQr")->pixmap();
    QVERIFY2(qr.height() >= 720 / 3 && qr.height() <= 720 / 2, qPrintable(QString::number(qr.height())));
    QVERIFY(QFontInfo(s.poll->countLabel()->font()).pixelSize() >= 32);
    QVERIFY(QFontInfo(s.poll->urlLabel()->font()).pixelSize() >= 20);
    // Leaving presentation mode ends the poll.
    s.controller.setPresentation(false, 720);
    QVERIFY(!s.controller.polling());
    QCOMPARE(request(url, "GET", code(url)).status, 0);
  }

  void liveCountThenTheRevealAndPageDownCloses() {
    Stage s;
    const CourseExperiment e = ratioExperiment("ex-a"), next = ratioExperiment("ex-b");
    s.controller.setExperiment(&e, "1 / 2", "A", nullptr);
    const QUrl url(s.controller.askTheClass());
    QSignalSpy counts(s.poll, &StagePoll::countChanged);
    // 4×, 8× (within 2× of the measured 5×) and 50× (not).
    QCOMPARE(post(url, 1, "4").status, 204);
    QCOMPARE(post(url, 2, "8").status, 204);
    QCOMPARE(post(url, 3, "50").status, 204);
    QTRY_COMPARE(s.poll->countLabel()->text(), QString("3 answers"));
    QCOMPARE(counts.count(), 3);
    QVERIFY(s.poll->histogram()->isHidden());  // no distribution before the reveal
    QVERIFY(s.poll->summaryLabel()->isHidden());
    const Reply status = request(url, "GET", code(url) + "/status");
    QCOMPARE(status.status, 200);
    QCOMPARE(QJsonDocument::fromJson(status.body).object().value("answers").toInt(), 3);
    // R: the run reveals the class's answers against the measured value.
    s.controller.run();
    const RunResult r = runOf(0.2, 1.0);
    s.controller.showRun(&r, "n = 4,096", "");
    QVERIFY(s.poll->revealed());
    QVERIFY(!s.poll->histogram()->isHidden());
    const poll::Summary& sum = s.poll->histogram()->summary();
    QCOMPARE(sum.answers, 3);
    QCOMPARE(*sum.median, 8.0);
    QCOMPARE(*sum.shareClose, 2.0 / 3.0);
    QCOMPARE(s.poll->countLabel()->text(), QString("The class: 3 answers"));
    QCOMPARE(s.poll->summaryLabel()->text(), QString("median 8.0\u00D7  \u00B7  67 % within 2\u00D7"));
    s.poll->histogram()->resize(800, 180);
    const auto x = s.poll->histogram()->measuredX();
    QVERIFY(x);  // 5× on a log axis from 4× to 50×: left of the middle
    QVERIFY2(*x > 0 && *x < 400, qPrintable(QString::number(*x)));
    // The answers are final: a late one is refused, the page is told the poll closed, the export still works.
    QCOMPARE(post(url, 4, "5").status, 403);
    QCOMPARE(QJsonDocument::fromJson(request(url, "GET", code(url) + "/status").body).object().value("open"),
             QJsonValue(false));
    const QStringList rows = s.poll->csv().split('\n', Qt::SkipEmptyParts);
    QCOMPARE(rows.size(), 4);
    QCOMPARE(rows[0], QString("question,token,answer,measured,time_ms"));
    // The question quoted (its quotes doubled), the anonymous token, the answer, the measured 5×, the time.
    const QString row1 =
        "\"How many times slower is the strided kernel, \"\"per launch\"\"?\"," + token(1) + ",\"4\",5,";
    QVERIFY2(rows[1].startsWith(row1), qPrintable(rows[1]));
    // Page Down: another experiment, the server stops.
    s.controller.setExperiment(&next, "2 / 2", "B", &r);
    QVERIFY(!s.controller.polling());
    QVERIFY(s.poll->isHidden());
    QCOMPARE(request(url, "GET", code(url)).status, 0);
  }

  void hostileRequestsChangeNothingAndMarkupIsShownAsWritten() {
    Stage s;
    const CourseExperiment e = hostileChoiceExperiment();
    s.controller.setExperiment(&e, "1 / 1", "Hostile", nullptr);
    const QUrl url(s.controller.askTheClass());
    QVERIFY(url.isValid());
    const Reply page = request(url, "GET", code(url));
    QCOMPARE(page.status, 200);
    QVERIFY(page.body.contains("&lt;script&gt;alert(1)&lt;/script&gt;"));
    QVERIFY(!page.body.contains("<script>alert") && !page.body.contains("<img"));
    QCOMPARE(request(url, "GET", "/WRONG").status, 403);
    QCOMPARE(request(url, "POST", "/WRONG/answer", answerBody(1, "0")).status, 403);
    QCOMPARE(request(url, "GET", "/etc/passwd").status, 404);
    QCOMPARE(request(url, "GET", code(url) + "/admin").status, 404);
    QCOMPARE(post(url, 1, "\"cuda-coalesced\"").status, 400);  // a choice is its index, not its name
    QCOMPARE(post(url, 1, "2").status, 400);                   // no such choice
    QCOMPARE(post(url, 1, "0.5").status, 400);
    QCOMPARE(request(url, "POST", code(url) + "/answer", "{\"t\":\"<b>\",\"a\":0}").status, 400);  // no token
    // A body over 1 KiB is refused or cut off; either way nothing is counted.
    const Reply big = request(url, "POST", code(url) + "/answer", answerBody(1, "0") + QByteArray(4096, ' '));
    QVERIFY2(big.status == 413 || big.status == 0, qPrintable(QString::number(big.status)));
    QCOMPARE(s.poll->count(), 0);
    QCOMPARE(post(url, 1, "1").status, 204);  // the second choice, whose name is markup
    QTRY_COMPARE(s.poll->count(), 1);
    s.controller.run();
    const RunResult r = runOf(0.2, 1.0);
    s.controller.showRun(&r, "", "");
    QCOMPARE(s.poll->summaryLabel()->textFormat(), Qt::PlainText);
    QVERIFY2(s.poll->summaryLabel()->text().startsWith("most chose <img src=x onerror=alert(2)>  \u00B7  0 % right"),
             qPrintable(s.poll->summaryLabel()->text()));
    for (const char* name : {"pollUrl", "pollCount", "pollSummary"})
      QCOMPARE(s.poll->findChild<QLabel*>(name)->textFormat(), Qt::PlainText);
    // The measured choice (cuda-coalesced, the fastest) is named in the CSV, quoted as every field with words.
    QVERIFY2(s.poll->csv().contains(",\"<img src=x onerror=alert(2)>\",\"cuda-coalesced\","),
             qPrintable(s.poll->csv()));
  }

  void thirtyClientsAnswerAtOnce() {
    Stage s;
    const CourseExperiment e = ratioExperiment("ex-a");
    s.controller.setExperiment(&e, "1 / 1", "A", nullptr);
    const QUrl url(s.controller.askTheClass());
    constexpr int kClients = 30;
    std::vector<std::unique_ptr<QTcpSocket>> clients;
    for (int i = 0; i < kClients; ++i) {
      clients.push_back(std::make_unique<QTcpSocket>());
      QTcpSocket* c = clients.back().get();
      const QByteArray bytes = requestBytes(url, "POST", code(url) + "/answer", answerBody(100 + i, "5"));
      connect(c, &QTcpSocket::connected, c, [c, bytes] { c->write(bytes); });
      c->connectToHost(url.host(), quint16(url.port()));
    }
    // All 30 connections are open at once before any reply is read; each gets its 204.
    QTRY_VERIFY_WITH_TIMEOUT(std::all_of(clients.begin(), clients.end(),
                                         [](const auto& c) { return c->peek(12).startsWith("HTTP/1.1 204"); }),
                             10000);
    QTRY_COMPARE(s.poll->countLabel()->text(), QString("30 answers"));
    QCOMPARE(s.poll->count(), kClients);
  }

  /// A flood from one host: LAUNCHLAB_POLL_FLOOD requests (1000 unless set; scripts/bench/poll_load.sh sends 10 000),
  /// four clients at a time, pages, answers, status GETs, wrong codes, unknown paths and oversized headers. The stage
  /// keeps drawing: the longest gap of its event loop, measured as --measure-stalls does (Heartbeat, a 5 ms timer on
  /// the GUI thread), is at most 50 ms. Every request gets its reply, answers past the device cap are refused, the
  /// stage counts exactly the accepted ones, and memory grows by no more than the server's caps allow: every
  /// connection it holds at once filled to its byte cap with the page in reply, and every device's answer kept.
  void aFloodFromOneHostKeepsTheStageDrawing() {
    const int asked = qEnvironmentVariableIntValue("LAUNCHLAB_POLL_FLOOD"), count = asked >= 8 ? asked : 1000;
    Stage s;
    const CourseExperiment e = ratioExperiment("ex-a");
    s.controller.setExperiment(&e, "1 / 1", "A", nullptr);
    s.root.resize(1280, 720);
    s.root.show();
    QVERIFY(QTest::qWaitForWindowExposed(&s.root));
    const QUrl url(s.controller.askTheClass());
    const quint16 port = quint16(url.port());
    // One request of each kind but an answer first: the server thread's buffers exist before memory is measured.
    for (int i = 0; i < 8; ++i)
      if (kindOf(i) != Kind::Answer) QVERIFY(expectedReply(kindOf(i), floodRequest(port, floodBytes(url, i))));
    QApplication::processEvents();
    std::int64_t before = residentBytes();
    Heartbeat beat(5);
    beat.start();
    int answers = 0;
    {
      Flood flood(port, count, 4, [url](int i) { return floodBytes(url, i); });
      QTRY_VERIFY_WITH_TIMEOUT(flood.done, 120000);
      beat.stop();
      for (int i = 0; i < count; ++i) {
        const int st = flood.statuses[std::size_t(i)];
        QVERIFY2(expectedReply(kindOf(i), st), qPrintable(QString("request %1: status %2").arg(i).arg(st)));
        answers += st == 204;
      }
    }
    int posted = 0;
    for (int i = 0; i < count; ++i) posted += kindOf(i) == Kind::Answer;
    QCOMPARE(answers, std::min(posted, poll::kMaxDevices));
    QTRY_COMPARE(s.poll->countLabel()->text(), QString("%1 answers").arg(answers));
    qInfo("%d requests: longest event-loop gap %.1f ms (5 ms heartbeat, %d ticks)", count, beat.longestGapMs(),
          beat.ticks());
    QVERIFY2(beat.longestGapMs() <= 50, qPrintable(QString::number(beat.longestGapMs())));
#if defined(__SANITIZE_ADDRESS__)
    // AddressSanitizer keeps freed memory in quarantine (256 MB by default): resident size says nothing of a leak
    // there, which LeakSanitizer checks instead.
    before = 0;
#endif
    if (before > 0) {
      const poll::Limits caps;
      const qint64 page = request(url, "GET", code(url)).body.size();
      constexpr qint64 kAnswerBytes = 256;  // a map node with its 32-digit token and value, with the heap's overhead
      const qint64 bound = caps.maxConnections * (caps.maxConnectionBytes + page) + poll::kMaxDevices * kAnswerBytes;
      const std::int64_t grown = residentBytes() - before;
      qInfo("memory: %lld KiB more after the flood (bound %lld KiB)", static_cast<long long>(grown / 1024),
            static_cast<long long>(bound / 1024));
      QVERIFY2(grown <= bound, qPrintable(QString("grew %1 B, bound %2 B").arg(grown).arg(bound)));
    }
  }

  /// The stage with a poll as a room sees it, on whatever screen the test runs on (scripts/poll_screenshots.sh gives
  /// it a 1280x720 and a 1920x1080 projector and keeps the pictures), as an instructor gets there: Page Down to the
  /// experiment, its question, A; the class answers; R. Text at least 20 px (the count at least 32 px) at 720 px,
  /// scaling with the height; a QR code of at least a third of the height; the window stays the screen's size.
  /// LAUNCHLAB_POLL_SHOTS=DIR writes DIR/<W>x<H>-<experiment>-{asking,reveal}.png; LAUNCHLAB_POLL_AFTER=ID the
  /// experiment before the one asked (default: the one before a number question). One window per process: a second
  /// window would start from the first one's presentation fonts.
  void theStageAsARoomSeesIt() {
    const QString dir = qEnvironmentVariable("LAUNCHLAB_POLL_SHOTS");
    const QString start = qEnvironmentVariable("LAUNCHLAB_POLL_AFTER", "tp32-coverage");
    {
      MainWindowOptions o;
      o.presetFolder = m_dir.filePath("presets");
      o.predictionsFile = "-";
      o.startCourse = start;
      o.forcePresentation = true;
      o.quickRunSeconds = 0.02;
      o.askBind = "127.0.0.1";
      MainWindow w(app::makeEngineBackend(), AppSettings::ephemeral(), o);
      QSignalSpy first(&w, &MainWindow::runDisplayed);
      w.show();
      QVERIFY(QTest::qWaitForWindowExposed(&w));
      QVERIFY(first.wait(60000));
      QTest::keyClick(&w, Qt::Key_PageDown);
      StageController* stage = w.stage().controller();
      QTRY_VERIFY_WITH_TIMEOUT(stage->holdsRun(), 30000);
      const QString id = w.currentCourseExperiment();
      QVERIFY(!stage->polling());
      QTest::keyClick(&w, Qt::Key_A);
      QVERIFY2(stage->polling(), qPrintable(id));
      const Prediction& p = *stage->prediction();
      const QUrl url(stage->poll()->url());
      // Twelve devices: spread over the range (a log range by factors), or over the choices.
      for (int i = 0; i < 12; ++i) {
        const double f = (i % 6 + 0.5) / 6.0;
        const double v = p.answer.isChoice() ? double(i % int(p.answer.choices.size()))
                         : p.answer.logScale ? p.answer.min * std::pow(p.answer.max / p.answer.min, f)
                                             : p.answer.min + (p.answer.max - p.answer.min) * f;
        QCOMPARE(post(url, i + 1, QByteArray::number(v, 'g', 6)).status, 204);
      }
      QTRY_COMPARE(stage->poll()->countLabel()->text(), QString("12 answers"));
      const int h = w.height(), need = std::max(20, h * 20 / 720);
      QApplication::processEvents();
      StagePoll* poll = stage->poll();
      QVERIFY2(labelsAtLeast(poll, need), qPrintable(id));
      QVERIFY(QFontInfo(poll->countLabel()->font()).pixelSize() >= std::max(32, h * 32 / 720));
      const QLabel* qr = poll->findChild<QLabel*>("pollQr");
      QVERIFY2(qr->isVisible() && qr->pixmap().height() >= h / 3, qPrintable(id));
      QVERIFY(w.rect().contains(QRect(poll->mapTo(&w, QPoint(0, 0)), poll->size())));  // nothing cut
      QTRY_COMPARE(w.size(), w.screen()->size());
      const QString size = QString("%1x%2-").arg(w.width()).arg(h);
      if (!dir.isEmpty()) grabAfterTheFrames(w, dir + '/' + size + id + "-asking.png");
      QSignalSpy shown(&w, &MainWindow::runDisplayed);
      QTest::keyClick(&w, Qt::Key_R);
      QVERIFY(shown.wait(60000));
      QTRY_VERIFY(poll->revealed());
      QTRY_VERIFY2(w.size() == w.screen()->size(), qPrintable(rowsOf(w)));  // the answers and the plot fit
      QVERIFY2(labelsAtLeast(poll, need), qPrintable(id));
      QVERIFY(poll->histogram()->isVisible());
      QVERIFY(w.rect().contains(QRect(poll->mapTo(&w, QPoint(0, 0)), poll->size())));
      if (!dir.isEmpty()) grabAfterTheFrames(w, dir + '/' + size + id + "-reveal.png");
      // A again folds the class's answers away, the plot gets its room back; A brings them back.
      QTest::keyClick(&w, Qt::Key_A);
      QVERIFY(poll->isHidden());
      QTest::keyClick(&w, Qt::Key_A);
      QVERIFY(poll->isVisible());
    }
  }

  void theWindowAsksAtOnceWithAsk() {
    MainWindowOptions o;
    o.presetFolder = m_dir.filePath("presets");
    o.predictionsFile = "-";
    o.startCourse = "es-coalescing";
    o.forcePresentation = true;
    o.quickRunSeconds = 0.02;
    o.ask = true;
    o.askBind = "127.0.0.1";
    auto w = std::make_unique<MainWindow>(app::makeEngineBackend(), AppSettings::ephemeral(), o);
    w->show();
    QVERIFY(QTest::qWaitForWindowExposed(w.get()));
    StageController* stage = w->stage().controller();
    QTRY_VERIFY_WITH_TIMEOUT(stage->polling(), 30000);
    QVERIFY(stage->holdsRun());  // the run waits for the class
    StagePoll* poll = stage->poll();
    QVERIFY(poll->isVisible());
    const QUrl url(poll->url());
    QCOMPARE(url.host(), QString("127.0.0.1"));
    QCOMPARE(post(url, 1, "4").status, 204);
    QCOMPARE(post(url, 2, "32").status, 204);
    QTRY_COMPARE(poll->countLabel()->text(), QString("2 answers"));
    QVERIFY(!poll->histogram()->isVisible());
    QSignalSpy shown(w.get(), &MainWindow::runDisplayed);
    QTest::keyClick(w.get(), Qt::Key_R);
    QVERIFY(shown.wait(60000));
    QTRY_VERIFY(poll->revealed());
    QCOMPARE(poll->histogram()->summary().answers, 2);
    QVERIFY(poll->histogram()->isVisible());
    QTest::keyClick(w.get(), Qt::Key_PageDown);
    QTRY_VERIFY(!stage->polling());
    QCOMPARE(post(url, 3, "4").status, 0);
    // The window's end stops the server too (the next experiment's poll, started by A).
    QTRY_VERIFY_WITH_TIMEOUT(stage->holdsRun(), 30000);
    QTest::keyClick(w.get(), Qt::Key_A);
    QVERIFY(stage->polling());
    const QUrl second(poll->url());
    w.reset();
    QCOMPARE(request(second, "GET", code(second)).status, 0);
  }
};

QTEST_MAIN(TestStagePoll)
#include "test_stage_poll.moc"
