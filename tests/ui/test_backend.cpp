// Backends: the in-process engine and the worker-process one (launchlab-cli worker) give the same results;
// cancel reaches the worker; the window's choice of backend says why.
#include <QTest>

#include <atomic>
#include <thread>

#include "app/gui_wiring.h"
#include "launchlab/kernels.h"
#include "ui/backend.h"

using namespace launchlab;
using namespace launchlab::ui;

namespace {
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
    if (!kernels::builtWithCuda()) QVERIFY(note.find("CPU-only build") != std::string::npos);
    else QVERIFY(note.find("no GPU worker") != std::string::npos);
    // With a worker but no GPU, the engine stays in the window's process: nothing can fault.
    b = app::makeBackend(LAUNCHLAB_CLI_PATH, false, note);
    if (!b->deviceStatus().available) QVERIFY(dynamic_cast<EngineBackend*>(b.get()));
  }
};

QTEST_MAIN(TestBackend)
#include "test_backend.moc"
