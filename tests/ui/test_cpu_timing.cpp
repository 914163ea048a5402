// CPU parallel timed through the window's path measures what launchlab-cli measures: the same request, in this
// process, once through the engine as the CLI calls it and once through the window (its controller and backend,
// offscreen, the run started by Run as a user starts it). The two are measurements of the same work, compared with
// each other (the fastest repetition of each, robust to a busy machine), never with a wall-clock bound.
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <cstdio>

#include "app/gui_wiring.h"
#include "launchlab/engine.h"
#include "launchlab/kernels.h"
#include "ui/controller.h"
#include "ui/param_panel.h"
#include "window_helpers.h"

using namespace launchlab;
using namespace launchlab::ui;

namespace {

RunRequest smallParallelRun() {
  RunRequest r;
  r.workload = "atomic_counter";
  r.n = 512;
  r.impls = {"cpu-serial", "cpu-parallel"};
  r.reps = 50;
  r.warmup = 1;
  return r;
}

double fastestCpuMs(const RunResult& r, const std::string& impl) {
  const ImplResult* i = r.find(impl);
  if (!i || i->status != Status::Ok) return -1;
  const auto it = i->phases.find(Phase::Cpu);
  return it == i->phases.end() ? -1 : it->second.minMs;
}

double medianCpuMs(const RunResult& r, const std::string& impl) {
  const ImplResult* i = r.find(impl);
  return i ? i->computeMedianMs() : -1;
}

}  // namespace

class TestCpuTiming : public QObject {
  Q_OBJECT

 private slots:
  void theWindowsCpuParallelTimeIsTheClis() {
    const RunRequest req = smallParallelRun();
    // The CLI's path: the engine on this thread, no progress callback.
    auto registry = app::builtInWorkloads();
    Engine engine(*registry, kernels::makeDefaultGpuRuntime());
    const RunResult cli = engine.run(req);
    QCOMPARE(cli.status, Status::Ok);

    // The window's path: Run pressed in a shown window, on the backend the app chooses.
    QTemporaryDir dir;
    auto window = ui::test::openWindow(app::makeEngineBackend(), dir.filePath("presets"));
    QVERIFY(QTest::qWaitForWindowExposed(window.get()));
    window->selectWorkload("atomic_counter");
    FormState f = window->paramPanel()->form();
    f.size = "512";
    f.impls = req.impls;
    f.reps = req.reps;
    f.warmup = req.warmup;
    window->paramPanel()->setForm(f);
    QVERIFY(ui::test::runAndWait(*window));
    const RunResult& gui = window->lastOutcome()->result;
    QCOMPARE(gui.status, Status::Ok);
    QCOMPARE(gui.n, cli.n);

    const double cliMin = fastestCpuMs(cli, "cpu-parallel"), guiMin = fastestCpuMs(gui, "cpu-parallel");
    std::printf("cpu-parallel, n = 512: CLI path min %.6f ms median %.6f ms; window path min %.6f ms median %.6f ms\n",
                cliMin, medianCpuMs(cli, "cpu-parallel"), guiMin, medianCpuMs(gui, "cpu-parallel"));
    QVERIFY(cliMin > 0 && guiMin > 0);
    QVERIFY2(guiMin <= 2 * cliMin, qPrintable(QString("window %1 ms, CLI %2 ms").arg(guiMin).arg(cliMin)));
  }
};

QTEST_MAIN(TestCpuTiming)
#include "test_cpu_timing.moc"
