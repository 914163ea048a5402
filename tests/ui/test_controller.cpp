// The controller with a fake backend: results by signal, progress, cancel at the next repetition, stale
// results dropped, superseded jobs not run, sweeps, and an event loop that keeps turning (events handled while a
// run is busy).
#include <QElapsedTimer>
#include <QSignalSpy>
#include <QTest>
#include <QTimer>

#include "fakes.h"
#include "runs/controller.h"

using namespace launchlab;
using namespace launchlab::ui;

class TestController : public QObject {
  Q_OBJECT

  static RunRequest request(int reps, std::uint64_t seed = 1) {
    RunRequest r;
    r.workload = "fake";
    r.n = 1000;
    r.reps = reps;
    r.seed = seed;
    return r;
  }

 private slots:
  void deliversResultWithProgress() {
    auto backend = std::make_shared<test::FakeBackend>();
    RunController c(backend);
    QSignalSpy started(&c, &RunController::jobStarted);
    QSignalSpy finished(&c, &RunController::runFinished);
    QSignalSpy progress(&c, &RunController::progress);
    QSignalSpy busy(&c, &RunController::busyChanged);
    const quint64 id = c.startRun(request(5));
    QVERIFY(c.busy());
    QCOMPARE(started.count(), 1);
    QVERIFY(finished.wait(5000));
    QCOMPARE(finished.count(), 1);
    QCOMPARE(finished.at(0).at(0).toULongLong(), id);
    auto outcome = finished.at(0).at(1).value<std::shared_ptr<const RunOutcome>>();
    QVERIFY(outcome);
    QCOMPARE(outcome->result.n, std::uint64_t(1000));
    QVERIFY(outcome->seconds > 0);  // measured (durations are the benchmarks' business)
    QVERIFY(progress.count() >= 1);
    const double last = progress.last().at(1).toDouble();
    QVERIFY(last > 0.0 && last <= 1.0);
    QCOMPARE(busy.count(), 2);
    QCOMPARE(busy.at(0).at(0).toBool(), true);
    QCOMPARE(busy.at(1).at(0).toBool(), false);
    QVERIFY(!c.busy());
    QVERIFY(!backend->ranOnGuiThread);
  }

  // Repetitions of microseconds report progress each: the window is told at most every 100 ms (it redraws for each
  // signal, and that drawing must not share the cores with the timed repetitions), and still told.
  void progressSignalsComeAtABoundedRate() {
    auto backend = std::make_shared<test::FakeBackend>();
    backend->stepMs = 0;
    RunController c(backend);
    QSignalSpy finished(&c, &RunController::runFinished);
    QSignalSpy progress(&c, &RunController::progress);
    QElapsedTimer wall;
    wall.start();
    c.startRun(request(20000));
    QVERIFY(finished.wait(30000));
    const qint64 ms = wall.elapsed();
    QCOMPARE(backend->repsDone.load(), 20000);
    QVERIFY(progress.count() >= 1);
    QVERIFY2(progress.count() <= ms / 100 + 2,
             qPrintable(QString("%1 progress signals in %2 ms").arg(progress.count()).arg(ms)));
  }

  void cancelStopsAtNextRepetition() {
    auto backend = std::make_shared<test::FakeBackend>();
    backend->stepMs = 20;
    RunController c(backend);
    QSignalSpy cancelled(&c, &RunController::jobCancelled);
    QSignalSpy finished(&c, &RunController::runFinished);
    QSignalSpy progress(&c, &RunController::progress);
    const quint64 id = c.startRun(request(100000));  // half an hour if the cancel were lost
    QVERIFY(progress.wait(30000));
    c.cancel();
    QVERIFY(cancelled.wait(30000));
    QCOMPARE(cancelled.at(0).at(0).toULongLong(), id);
    QCOMPARE(finished.count(), 0);
    QVERIFY(backend->repsDone < 100000);  // stopped at a repetition, not at the end
    QVERIFY(!c.busy());
  }

  void staleResultIsDropped() {
    auto backend = std::make_shared<test::FakeBackend>();
    backend->ignoreCancel = true;  // job A finishes normally even though B superseded it
    RunController c(backend);
    QSignalSpy finished(&c, &RunController::runFinished);
    QSignalSpy stale(&c, &RunController::staleDropped);
    const quint64 a = c.startRun(request(3, 11));
    QTest::qWait(5);  // A is running
    const quint64 b = c.startRun(request(3, 22));
    QVERIFY(finished.wait(5000));
    if (stale.isEmpty()) QVERIFY(stale.wait(1000));
    QCOMPARE(stale.count(), 1);
    QCOMPARE(stale.at(0).at(0).toULongLong(), a);
    QCOMPARE(finished.count(), 1);
    QCOMPARE(finished.at(0).at(0).toULongLong(), b);
    auto outcome = finished.at(0).at(1).value<std::shared_ptr<const RunOutcome>>();
    QCOMPARE(outcome->result.seed, std::uint64_t(22));
  }

  void supersededJobThatHasNotStartedDoesNotRun() {
    auto backend = std::make_shared<test::FakeBackend>();
    backend->stepMs = 30;
    RunController c(backend);
    QSignalSpy finished(&c, &RunController::runFinished);
    c.startRun(request(5, 1));
    QTest::qWait(10);
    c.startRun(request(5, 2));  // queued behind the first, superseded before it starts
    const quint64 last = c.startRun(request(2, 3));
    QVERIFY(finished.wait(5000));
    QCOMPARE(finished.last().at(0).toULongLong(), last);
    QTest::qWait(50);
    for (const auto& r : backend->requests()) QVERIFY(r.seed != 2);
    QCOMPARE(finished.count(), 1);
  }

  void sweepReportsEveryPointWithOnlyThatImplementation() {
    auto backend = std::make_shared<test::FakeBackend>();
    backend->stepMs = 1;
    RunController c(backend);
    QSignalSpy points(&c, &RunController::sweepPoint);
    QSignalSpy done(&c, &RunController::sweepFinished);
    RunRequest base = request(2);
    base.keepOutputs = base.keepInputs = true;
    const std::vector<Dim3> blocks = {{32, 1, 1}, {64, 1, 1}, {1024, 1, 1}};
    c.startSweep(base, "cuda-x", blocks);
    QVERIFY(done.wait(5000));
    QCOMPARE(done.at(0).at(1).toBool(), false);
    QCOMPARE(points.count(), 3);
    for (int i = 0; i < 3; ++i) {
      QCOMPARE(points.at(i).at(1).toInt(), i);
      QCOMPARE(points.at(i).at(2).toInt(), 3);
      const auto p = points.at(i).at(3).value<SweepPoint>();
      QCOMPARE(p.threads, blocks[std::size_t(i)].count());
      QVERIFY(p.status == Status::Ok);
      QVERIFY(p.kernelMs > 0);
    }
    const auto reqs = backend->requests();
    QCOMPARE(reqs.size(), std::size_t(3));
    for (std::size_t i = 0; i < 3; ++i) {
      QCOMPARE(reqs[i].impls, std::vector<std::string>{"cuda-x"});
      QVERIFY(reqs[i].launch.block == blocks[i]);
      QVERIFY(!reqs[i].keepOutputs && !reqs[i].keepInputs);
    }
  }

  void sweepCancelStopsBetweenPoints() {
    auto backend = std::make_shared<test::FakeBackend>();
    backend->stepMs = 20;
    RunController c(backend);
    QSignalSpy points(&c, &RunController::sweepPoint);
    QSignalSpy done(&c, &RunController::sweepFinished);
    c.startSweep(request(3), "cuda-x", sweepBlocks(1));
    QVERIFY(points.wait(3000));
    c.cancel();
    QVERIFY(done.wait(3000));
    QCOMPARE(done.at(0).at(1).toBool(), true);
    QVERIFY(points.count() < 32);
  }

  void postProcessRunsOnTheComputeThread() {
    auto backend = std::make_shared<test::FakeBackend>();
    RunController c(backend);
    std::atomic<bool> onGui{true};
    QThread* gui = QThread::currentThread();
    c.setPostProcess([&](RunOutcome& o) {
      onGui = QThread::currentThread() == gui;
      o.result.reason = "post-processed";
    });
    QSignalSpy finished(&c, &RunController::runFinished);
    c.startRun(request(1));
    QVERIFY(finished.wait(3000));
    QVERIFY(!onGui);
    QCOMPARE(finished.at(0).at(1).value<std::shared_ptr<const RunOutcome>>()->result.reason,
             std::string("post-processed"));
  }

  void eventLoopKeepsTurningDuringARun() {
    // The run happens off the GUI thread: an event posted after startRun is handled while the run is still busy,
    // before its result (a run on the GUI thread would have finished inside startRun).
    auto backend = std::make_shared<test::FakeBackend>();
    backend->stepMs = 10;
    RunController c(backend);
    QSignalSpy finished(&c, &RunController::runFinished);
    QSignalSpy progress(&c, &RunController::progress);
    int handledWhileBusy = 0, progressSeen = 0;
    c.startRun(request(30));
    QTimer::singleShot(0, &c, [&] { handledWhileBusy += c.busy() && finished.isEmpty(); });
    connect(&c, &RunController::progress, this,
            [&] { QTimer::singleShot(0, &c, [&] { progressSeen += finished.isEmpty(); }); });
    QVERIFY(finished.wait(30000));
    QCoreApplication::processEvents();
    QCOMPARE(handledWhileBusy, 1);
    QVERIFY(progressSeen >= 1);
    QVERIFY(!backend->ranOnGuiThread);
  }

  void destructionWhileRunningCancelsAndJoins() {
    auto backend = std::make_shared<test::FakeBackend>();
    backend->stepMs = 20;
    {
      RunController c(backend);
      c.startRun(request(1000));
      QTest::qWait(30);
    }
    // Joined (the destructor returned) and cancelled: the job stopped well before its 1000 repetitions.
    QVERIFY(backend->repsDone < 1000);
    const int after = backend->repsDone;
    QTest::qWait(50);
    QCOMPARE(int(backend->repsDone), after);  // nothing runs on after the controller is gone
  }
};

QTEST_MAIN(TestController)
#include "test_controller.moc"
