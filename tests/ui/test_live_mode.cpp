// Live mode: on the fake backend, every frame gets the next seed, one run at a time, stopping cancels
// the frame in flight, a failed frame stops it with one message, another job stops it, and the event loop keeps
// turning; the implementation it picks; in the window (real engine, CPU), the Live toggle draws frames with the
// overlay and Esc stops it.
#include <QAction>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>
#include <cmath>

#include "app/gui_wiring.h"
#include "fakes.h"
#include "gl/live_mode.h"
#include "plots/outputs_pane.h"
#include "runs/controller.h"
#include "window/main_window.h"
#include "window/param_panel.h"
#include "window_helpers.h"

using namespace launchlab;
using namespace launchlab::ui;

namespace {
RunRequest baseRequest() {
  RunRequest r;
  r.workload = "fake";
  r.n = 1000;
  r.reps = 5;  // live frames run once
  r.warmup = 2;
  r.seed = 100;
  r.impls = {"cuda-x"};
  return r;
}
LiveMode::RequestFn fixedRequest() {
  return [](QString&) { return std::optional<RunRequest>(baseRequest()); };
}
/// Waits until `spy` holds `count` signals (false on timeout).
bool waitFor(QSignalSpy& spy, int count, int timeoutMs = 5000) {
  QElapsedTimer t;
  t.start();
  while (spy.count() < count && t.elapsed() < timeoutMs) spy.wait(50);
  return spy.count() >= count;
}
}  // namespace

class TestLiveMode : public QObject {
  Q_OBJECT

 private slots:
  void framesGetTheNextSeedOneRunAtATime() {
    auto backend = std::make_shared<test::FakeBackend>();
    backend->stepMs = 5;
    RunController c(backend);
    LiveMode live(c, fixedRequest());
    int inFlight = 0, most = 0;
    connect(&c, &RunController::jobStarted, this, [&](quint64, JobKind) { most = std::max(most, ++inFlight); });
    connect(&c, &RunController::runFinished, this, [&] { --inFlight; });
    connect(&c, &RunController::jobCancelled, this, [&] { --inFlight; });
    QSignalSpy frames(&live, &LiveMode::frameReady);
    live.start();
    QVERIFY(live.active());
    QVERIFY(waitFor(frames, 6));
    live.stop();
    QVERIFY(!live.active());
    QTRY_VERIFY(!c.busy());
    QCOMPARE(most, 1);  // never a second run queued behind the one in flight
    const auto reqs = backend->requests();
    QVERIFY(reqs.size() >= 6);
    for (std::size_t i = 0; i < reqs.size(); ++i) {
      QCOMPARE(reqs[i].seed, std::uint64_t(100 + i));  // 100, 101, 102, …
      QCOMPARE(reqs[i].reps, 1);
      QCOMPARE(reqs[i].warmup, 0);
      QVERIFY(reqs[i].keepOutputs);
      QCOMPARE(reqs[i].impls, std::vector<std::string>{"cuda-x"});
    }
    const auto last = frames.last().at(1).value<LiveStats>();
    QCOMPARE(last.frames, frames.count());
    QCOMPARE(last.seed, std::uint64_t(100 + frames.count() - 1));
    // The fake's kernel time: block count / 100 ms (auto launch: 1 -> 0.01 ms).
    QCOMPARE(last.kernelMs, 0.01);
    QVERIFY(last.fps > 0);
    // The frame's round trip holds the fake's 5 ms repetition (its run sleeps that long).
    QVERIFY2(last.runMs >= 4.5, qPrintable(liveTimingText(last)));
  }

  void stopCancelsTheFrameInFlightAndNothingFollows() {
    auto backend = std::make_shared<test::FakeBackend>();
    backend->stepMs = 300;  // one repetition per frame: 300 ms
    RunController c(backend);
    LiveMode live(c, fixedRequest());
    QSignalSpy cancelled(&c, &RunController::jobCancelled);
    QSignalSpy stopped(&live, &LiveMode::stopped);
    QSignalSpy frames(&live, &LiveMode::frameReady);
    live.start();
    QTRY_COMPARE(backend->runs.load(), 1);
    live.stop("stopped (Esc)");
    QVERIFY(cancelled.wait(2000));
    QCOMPARE(stopped.count(), 1);
    QVERIFY(stopped.at(0).at(0).toString().startsWith("live mode stopped (Esc) after 0 frames"));
    QTest::qWait(400);
    QCOMPARE(backend->runs.load(), 1);
    QCOMPARE(frames.count(), 0);
  }

  void aFailedFrameStopsLiveModeWithOneMessage() {
    auto backend = std::make_shared<test::FakeBackend>();
    backend->stepMs = 2;
    backend->failRun = 3;
    RunController c(backend);
    LiveMode live(c, fixedRequest());
    QSignalSpy frames(&live, &LiveMode::frameReady);
    QSignalSpy failed(&live, &LiveMode::failed);
    QSignalSpy active(&live, &LiveMode::activeChanged);
    live.start();
    QVERIFY(failed.wait(5000));
    QTest::qWait(100);
    QCOMPARE(failed.count(), 1);
    QCOMPARE(failed.at(0).at(0).toString(), QString("Live mode stopped: fake failure"));
    QCOMPARE(frames.count(), 2);
    QVERIFY(!live.active());
    QCOMPARE(active.count(), 2);
    QCOMPARE(backend->runs.load(), 3);
  }

  void noRequestStopsWithTheReason() {
    auto backend = std::make_shared<test::FakeBackend>();
    RunController c(backend);
    LiveMode live(c, [](QString& why) {
      why = "N: malformed";
      return std::optional<RunRequest>();
    });
    QSignalSpy failed(&live, &LiveMode::failed);
    live.start();
    QCOMPARE(failed.count(), 1);
    QCOMPARE(failed.at(0).at(0).toString(), QString("Live mode stopped: N: malformed"));
    QVERIFY(!live.active());
    QCOMPARE(backend->runs.load(), 0);
  }

  void anotherJobStopsLiveModeAndTheEventLoopTurns() {
    auto backend = std::make_shared<test::FakeBackend>();
    backend->stepMs = 20;
    RunController c(backend);
    LiveMode live(c, fixedRequest());
    QSignalSpy frames(&live, &LiveMode::frameReady);
    int ticks = 0;
    QTimer timer;
    connect(&timer, &QTimer::timeout, this, [&] { ++ticks; });
    timer.start(10);
    live.start();
    QTest::qWait(300);
    QVERIFY(ticks >= 15);  // the GUI thread never waits for a frame
    QVERIFY(frames.count() >= 3);
    QSignalSpy stopped(&live, &LiveMode::stopped);
    RunRequest other = baseRequest();
    other.seed = 7;
    const quint64 id = c.startRun(other);
    QCOMPARE(stopped.count(), 1);
    QVERIFY(stopped.at(0).at(0).toString().contains("stopped by another run"));
    QVERIFY(!live.ownsJob(id));
    QSignalSpy finished(&c, &RunController::runFinished);
    QVERIFY(finished.wait(2000));
    QCOMPARE(finished.last().at(0).toULongLong(), id);
  }

  void picksTheShownImplementationElseAGpuOneElseCpuParallel() {
    auto reg = app::builtInWorkloads();
    const Workload* w = reg->find("monte_carlo_pi");
    QVERIFY(w);
    RunRequest all;  // impls empty: all ticked
    QCOMPARE(liveImplOf(*w, all, "", true), std::string("cuda-philox"));
    QCOMPARE(liveImplOf(*w, all, "", false), std::string("cpu-parallel"));
    QCOMPARE(liveImplOf(*w, all, "cuda-shared-seed", true), std::string("cuda-shared-seed"));
    RunRequest cpu;
    cpu.impls = {"cpu-serial", "cpu-parallel"};
    QCOMPARE(liveImplOf(*w, cpu, "cuda-philox", true), std::string("cpu-parallel"));  // shown but not ticked
    cpu.impls = {"cpu-serial"};
    QCOMPARE(liveImplOf(*w, cpu, "", true), std::string("cpu-serial"));
    const RunRequest f = liveFrameRequest(baseRequest(), "cpu-parallel", 3);
    QCOMPARE(f.seed, std::uint64_t(103));
    QCOMPARE(f.impls, std::vector<std::string>{"cpu-parallel"});
    QVERIFY(!f.verify);  // a frame runs the implementation alone: no cpu-serial reference
    QVERIFY(f.keepOutputs);
  }

  void statsText() {
    LiveStats s;
    s.frames = 57;
    s.fps = 29.84;
    s.kernelMs = 0.8412;
    QCOMPARE(liveStatsText(s), QString("live: 29.8 fps \xC2\xB7 kernel 0.84 ms/frame \xC2\xB7 frame 57"));
    s.runMs = 1.916;
    s.showMs = 0.6149;
    QCOMPARE(liveTimingText(s), QString("last frame: run 1.92 ms (request to outcome) \xC2\xB7 shown in 0.61 ms"));
  }

  void theWindowsToggleDrawsFramesAndEscStops() {
    QTemporaryDir dir;
    auto window = test::openWindow(app::makeEngineBackend(), dir.filePath("presets"));
    window->resize(1280, 720);
    window->selectWorkload("monte_carlo_pi");
    FormState f = window->desk().paramPanel()->form();
    f.size = "64Ki";
    window->desk().paramPanel()->setForm(f);
    QSignalSpy frames(window->live().liveMode(), &LiveMode::frameReady);
    QVERIFY(!window->cancelAction()->isEnabled());
    window->live().liveAction()->trigger();
    QVERIFY(window->live().liveMode()->active());
    QVERIFY(waitFor(frames, 3, 30000));
    QVERIFY(window->cancelAction()->isEnabled());
    QVERIFY(window->live().liveOverlay()->isVisible());
    QVERIFY(window->live().liveOverlay()->text().startsWith("live: "));
    // The running estimate on its own line: "pi = 3.14…" (64Ki samples: within 0.05 of pi).
    const QString estimate = window->live().liveOverlay()->text().section('\n', 1, 1);
    QVERIFY2(estimate.startsWith("pi = "), qPrintable(window->live().liveOverlay()->text()));
    QVERIFY2(std::abs(estimate.mid(5).toDouble() - 3.14159265) < 0.05, qPrintable(estimate));
    QVERIFY(window->results().last());
    // One implementation a frame: the first CUDA variant where the GPU runs them, else the parallel CPU loop.
    const auto& live = window->results().last()->request.impls;
    QCOMPARE(live.size(), std::size_t(1));
    if (window->results().last()->result.device.available)
      QVERIFY2(live[0].rfind("cuda-", 0) == 0, live[0].c_str());
    else
      QCOMPARE(live[0], std::string("cpu-parallel"));
    QVERIFY(window->desk().outputsPane()->placeholder().isEmpty());  // the views show the frame
    // Live mode brings the point cloud to the front: the estimate's bar chart is not where samples rain in.
    QCOMPARE(window->desk().outputsPane()->tabText(window->desk().outputsPane()->currentIndex()), QString("points"));
    window->cancelAction()->trigger();  // Esc
    QVERIFY(!window->live().liveMode()->active());
    QVERIFY(!window->live().liveAction()->isChecked());
    QVERIFY(!window->live().liveOverlay()->isVisible());
    QTRY_VERIFY(!window->controller().busy());
  }
};

QTEST_MAIN(TestLiveMode)
#include "test_live_mode.moc"
