// Backends: the in-process engine and the worker-process one (launchlab-cli worker) give the same results;
// cancel reaches the worker; the window's choice of backend says why.
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <atomic>
#include <cstdio>
#include <filesystem>
#include <thread>

#include "app/gui_wiring.h"
#include "launchlab/kernels.h"
#include "models/backend.h"
#include "runs/controller.h"
#include "runs/local_backend.h"
#include "window/banner.h"
#include "window/main_window.h"
#include "window/param_panel.h"
#include "window_helpers.h"

using namespace launchlab;
using namespace launchlab::ui;

namespace {
/// A worker that misbehaves in `mode` (tests/helpers/fake_worker.cpp) on its first start only, then is the real one.
WorkerCommand misbehavingOnce(const std::string& mode, const std::string& onceFile) {
  std::filesystem::remove(onceFile);
  WorkerCommand c;
  c.argv = {LAUNCHLAB_FAKE_WORKER_PATH, mode, LAUNCHLAB_CLI_PATH, onceFile};
  c.cancelGraceS = 0.2;
  return c;
}
std::string tempPath(const char* tag) {
  return (std::filesystem::temp_directory_path() / (std::string("ll_backend_") + tag + std::to_string(::getpid())))
      .string();
}
/// The first CUDA row of the window's Implementations list: whether it is marked off here (greyed, "Skipped on
/// this machine" with the reason in its tip) and whether the note that CUDA variants are skipped is shown.
struct CudaRow {
  bool found = false, off = false, noteShown = false;
  QString tip;
};
CudaRow firstCudaRow(MainWindow& w, const Backend& b) {
  CudaRow row;
  ParamPanel* panel = w.desk().paramPanel();
  const Workload* workload = b.registry().find(panel->form().workload);
  for (const auto& impl : workload ? workload->impls() : std::vector<ImplSpec>{}) {
    auto* box =
        impl.isGpu() ? qobject_cast<QCheckBox*>(panel->editor("impl:" + QString::fromStdString(impl.id))) : nullptr;
    if (!box) continue;
    row.found = true;
    row.tip = box->toolTip();
    row.off = box->styleSheet().contains("palette(mid)") && row.tip.contains("Skipped on this machine");
    break;
  }
  for (const QLabel* l : panel->findChildren<QLabel*>())
    row.noteShown = row.noteShown || (l->text().startsWith("CUDA variants are skipped") && l->isVisibleTo(panel));
  return row;
}
RunRequest smallRun() {
  RunRequest r;
  r.workload = "vector_add";
  r.n = 5000;
  r.reps = 2;
  r.impls = {"cpu-serial", "cpu-parallel"};
  r.keepInputs = r.keepOutputs = true;
  return r;
}
}  // namespace

class TestBackend : public QObject {
  Q_OBJECT
 private slots:
  void workerGivesTheSameResultsAsTheEngine() {
    auto isolatedPtr = app::makeIsolatedBackend(LAUNCHLAB_CLI_PATH);
    auto localPtr = app::makeEngineBackend();
    IsolatedBackend& isolated = *isolatedPtr;
    EngineBackend& local = *localPtr;
    QCOMPARE(isolated.registry().ids(), local.registry().ids());
    QCOMPARE(isolated.deviceStatus().available, local.deviceStatus().available);
    QCOMPARE(isolated.launchLimits().maxThreadsPerBlock, local.launchLimits().maxThreadsPerBlock);
    RunRequest bad = smallRun();
    bad.launch.block = Dim3{2048, 1, 1};
    QVERIFY(!isolated.validate(bad).empty());

    const RunResult a = isolated.run(smallRun(), nullptr, {});
    const RunResult b = local.run(smallRun(), nullptr, {});
    QVERIFY2(a.status == Status::Ok, a.reason.c_str());
    QCOMPARE(a.impls.size(), b.impls.size());
    QCOMPARE(a.inputs.size(), std::size_t(2));
    const auto& oa = a.find("cpu-parallel")->outputs.at(0);
    const auto& ob = b.find("cpu-parallel")->outputs.at(0);
    QCOMPARE(oa.size(), ob.size());
    QVERIFY(std::equal(oa.view<float>().begin(), oa.view<float>().end(), ob.view<float>().begin()));
    QCOMPARE(isolated.workersStarted(), 1);
  }

  void cancelReachesTheWorker() {
    auto isolatedPtr = app::makeIsolatedBackend(LAUNCHLAB_CLI_PATH);
    IsolatedBackend& isolated = *isolatedPtr;
    RunRequest r = smallRun();
    r.n = 1 << 22;
    r.reps = 10000;
    r.keepInputs = r.keepOutputs = false;
    CancelToken cancel;
    std::atomic<int> reports{0};
    std::thread stopper([&] {
      while (reports.load() == 0) std::this_thread::sleep_for(std::chrono::milliseconds(2));
      cancel.cancel();
    });
    const RunResult res = isolated.run(r, &cancel, [&](const Progress&) { ++reports; });
    stopper.join();
    QVERIFY(res.status == Status::Failed);
    QVERIFY2(res.reason.find("cancel") != std::string::npos, res.reason.c_str());  // not run to the end
  }

  void backendChoiceIsExplained() {
    std::string note;
    auto b = app::makeBackend("", false, note);
    QVERIFY(b);
    QVERIFY(!note.empty());
    if (!kernels::builtWithCuda())
      QVERIFY(note.find("CPU-only build") != std::string::npos);
    else
      QVERIFY(note.find("no GPU worker") != std::string::npos);
    if (!kernels::builtWithCuda()) return;
    // With a worker, nothing is asked on this (the GUI) thread: the device is pending until the controller asks.
    b = app::makeBackend(LAUNCHLAB_CLI_PATH, false, note);
    QVERIFY(dynamic_cast<LocalBackend*>(b.get()));
    QVERIFY(b->deviceQueryPending());
    QVERIFY2(note.find("worker process") != std::string::npos, note.c_str());
  }

  // The local worker is asked for its GPU on the compute thread; when it has none, runs stay in this process
  // (nothing can fault) and give the results the engine gives; when it has one, they go to the worker.
  void theLocalWorkerIsAskedOffTheGuiThread() {
    if (!kernels::builtWithCuda()) QSKIP("a CPU-only build has no GPU worker");
    std::string note;
    auto b = app::makeBackend(LAUNCHLAB_CLI_PATH, false, note);
    auto* local = dynamic_cast<LocalBackend*>(b.get());
    QVERIFY(local);
    RunController controller(b);
    QSignalSpy changed(&controller, &RunController::deviceStatusChanged);
    QVERIFY(changed.wait(60000));  // failure guard only
    QVERIFY(!b->deviceQueryPending());
    const DeviceStatus s = b->deviceStatus();
    QCOMPARE(local->inProcess(), !s.available);
    QCOMPARE(b->runsInLocalWorker(), s.available);
    if (!s.available)
      QVERIFY2(s.reason.find("the GPU worker reports no usable GPU") != std::string::npos, s.reason.c_str());
    QSignalSpy finished(&controller, &RunController::runFinished);
    controller.startRun(smallRun());
    QVERIFY(finished.wait(60000));
    const auto outcome = finished.at(0).at(1).value<std::shared_ptr<const RunOutcome>>();
    QVERIFY2(outcome->result.status == Status::Ok, outcome->result.reason.c_str());
    const RunResult engine = app::makeEngineBackend()->run(smallRun(), nullptr, {});
    QCOMPARE(outcome->result.impls.size(), engine.impls.size());
    for (std::size_t i = 0; i < engine.impls.size(); ++i)
      QVERIFY(outcome->result.impls[i].outputs == engine.impls[i].outputs);
  }

  // The device answers while the window is on stage (presentation mode): its banner waits for the desk, so the
  // stage keeps its room.
  void aDeviceThatAnswersOnStageKeepsTheStageClear() {
    WorkerCommand c;
    c.argv = {LAUNCHLAB_FAKE_WORKER_PATH, "silent", LAUNCHLAB_CLI_PATH};
    c.startTimeoutS = 0.3;
    auto worker = std::make_shared<IsolatedBackend>(c, app::builtInWorkloads(), true);
    auto b = std::make_shared<LocalBackend>(worker, [] { return app::makeEngineBackend(); });
    QTemporaryDir dir;
    auto w = ui::test::openWindow(b, dir.filePath("presets"));
    w->stage().setPresentationMode(true);
    QVERIFY(!w->desk().deviceBanner()->isVisible());
    QTRY_VERIFY_WITH_TIMEOUT(!b->deviceQueryPending(), 60000);  // failure guard only
    QCoreApplication::processEvents();
    QVERIFY(!w->desk().deviceBanner()->isVisible());
    w->stage().setPresentationMode(false);
    QVERIFY(w->desk().deviceBanner()->isVisible());
  }

  // The Implementations list takes the CUDA rows' state from the device answer the banner shows, also when it
  // arrives after the window was built: a worker with a GPU makes them available, one without keeps them off
  // with its reason.
  void theImplementationListFollowsALateDeviceAnswer() {
    if (!kernels::builtWithCuda()) QSKIP("a CPU-only build has no CUDA implementations to offer");
    for (const bool gpu : {true, false}) {
      WorkerCommand c;
      c.argv = {LAUNCHLAB_FAKE_WORKER_PATH, gpu ? "gpu" : "silent-run", LAUNCHLAB_CLI_PATH};
      auto worker = std::make_shared<IsolatedBackend>(c, app::builtInWorkloads(), true);
      // Without a GPU the local backend would run here, on whatever this machine has: the worker's answer stays.
      std::shared_ptr<Backend> b = worker;
      if (gpu) b = std::make_shared<LocalBackend>(worker, [] { return app::makeEngineBackend(); });
      QTemporaryDir dir;
      auto w = ui::test::openWindow(b, dir.filePath("presets"));
      const CudaRow before = firstCudaRow(*w, *b);
      QVERIFY(before.found);
      QVERIFY(before.off && before.noteShown);                    // not known yet: asked on the compute thread
      QTRY_VERIFY_WITH_TIMEOUT(!b->deviceQueryPending(), 60000);  // failure guard only
      QCoreApplication::processEvents();
      QCOMPARE(b->deviceStatus().available, gpu);
      const CudaRow after = firstCudaRow(*w, *b);
      QCOMPARE(after.off, !gpu);
      QCOMPARE(after.noteShown, !gpu);
      if (!gpu) QVERIFY2(after.tip.contains("a fake worker has no GPU"), qPrintable(after.tip));
    }
  }

  // A worker that never says hello: the window's backend is built at once, and the device query's limit ends the
  // wait on the compute thread.
  void aSilentLocalWorkerDoesNotHoldTheWindow() {
    WorkerCommand c;
    c.argv = {LAUNCHLAB_FAKE_WORKER_PATH, "silent", LAUNCHLAB_CLI_PATH};
    c.startTimeoutS = 0.3;
    auto worker = std::make_shared<IsolatedBackend>(c, app::builtInWorkloads(), true);
    auto b = std::make_shared<LocalBackend>(worker, [] { return app::makeEngineBackend(); });
    QVERIFY(b->deviceQueryPending());
    QCOMPARE(worker->workersStarted(), 0);
    RunController controller(b);
    QSignalSpy changed(&controller, &RunController::deviceStatusChanged);
    QVERIFY(changed.wait(60000));  // failure guard only
    QVERIFY(b->inProcess());       // no GPU reported: the runs stay here
    QVERIFY2(b->deviceStatus().reason.find("did not say hello within 0.3 s") != std::string::npos,
             b->deviceStatus().reason.c_str());
  }

  // A worker that writes a stray line mid-run costs that run, as one failed result the window shows; the next run
  // (a fresh worker) works: live mode goes on.
  void aStrayLineCostsOneRunAndRunsGoOn() {
    const std::string once = tempPath("stray");
    auto backend = std::make_shared<IsolatedBackend>(misbehavingOnce("stray", once), app::builtInWorkloads());
    RunController controller(backend);
    QSignalSpy finished(&controller, &RunController::runFinished);
    RunRequest r = smallRun();
    r.impls = {"cpu-serial"};
    controller.startRun(r);
    QVERIFY(finished.wait(60000));  // failure guard only
    auto first = finished.at(0).at(1).value<std::shared_ptr<const RunOutcome>>();
    QVERIFY(first->result.status == Status::Failed);
    QVERIFY2(first->result.reason.find("not a frame: 'hello from thread 0'") != std::string::npos,
             first->result.reason.c_str());
    controller.startRun(r);
    QVERIFY(finished.wait(60000));
    auto second = finished.at(1).at(1).value<std::shared_ptr<const RunOutcome>>();
    QVERIFY2(second->result.status == Status::Ok, second->result.reason.c_str());
    QCOMPARE(backend->workersStarted(), 2);
    std::filesystem::remove(once);
  }

  // A worker that goes silent mid-run: a cancel ends the job (the worker is stopped after its grace period), and
  // a controller destroyed in the middle of such a run returns (the window exits).
  void aSilentWorkerNeitherHoldsACancelNorTheExit() {
    const std::string once = tempPath("silent");
    auto backend = std::make_shared<IsolatedBackend>(misbehavingOnce("silent-run", once), app::builtInWorkloads());
    {
      RunController controller(backend);
      QSignalSpy cancelled(&controller, &RunController::jobCancelled);
      QSignalSpy progress(&controller, &RunController::progress);
      controller.startRun(smallRun());
      QVERIFY(progress.wait(60000));  // the run is in the worker, which has gone silent (failure guard only)
      controller.cancel();
      QVERIFY(cancelled.wait(60000));
    }
    QCOMPARE(backend->workersStarted(), 1);
    QVERIFY(backend->workerPid() <= 0);  // stopped
    std::filesystem::remove(once);
    auto again = std::make_shared<IsolatedBackend>(misbehavingOnce("silent-run", once), app::builtInWorkloads());
    {
      RunController controller(again);
      QSignalSpy progress(&controller, &RunController::progress);
      controller.startRun(smallRun());
      QVERIFY(progress.wait(60000));
    }  // the destructor cancels and waits for the compute thread: it must come back
    QVERIFY(again->workerPid() <= 0);
    std::filesystem::remove(once);
  }

  // A remote server is asked for its device on the compute thread, not while the window is built: until it
  // answers (or its start-up limit passes) the device says it is being asked, then the controller announces it.
  void aSilentRemoteIsAskedOffTheGuiThreadWithALimit() {
    WorkerCommand c;
    c.argv = {LAUNCHLAB_FAKE_WORKER_PATH, "silent", LAUNCHLAB_CLI_PATH};
    c.name = "the GPU worker on lab-gpu (over SSH)";
    c.remoteHost = "lab-gpu";
    c.startTimeoutS = 0.3;
    auto remote = std::make_shared<IsolatedBackend>(c, app::builtInWorkloads(), true);
    QVERIFY(remote->deviceQueryPending());
    QVERIFY(!remote->deviceStatus().available);
    QCOMPARE(remote->deviceStatus().reason, std::string("asking lab-gpu for its GPU"));
    QCOMPARE(remote->workersStarted(), 0);  // nothing was started on this thread
    RunController controller(remote);
    QSignalSpy changed(&controller, &RunController::deviceStatusChanged);
    QVERIFY(changed.wait(60000));  // failure guard only
    QVERIFY(!remote->deviceQueryPending());
    const std::string why = remote->deviceStatus().reason;
    QVERIFY2(why.find("did not say hello within 0.3 s") != std::string::npos, why.c_str());
  }
};

QTEST_MAIN(TestBackend)
#include "test_backend.moc"
