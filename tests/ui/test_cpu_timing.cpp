// CPU parallel timed in the window measures what launchlab-cli measures. launchlab-cli runs alone; the window runs
// the engine on its compute thread beside its own work: it draws (the running state when Run is pressed, the whole
// window at start-up) on the GUI thread, and its renderer computes large plots' geometry on a thread of its own.
// The same request goes through the window's path (the controller and the backend the app chooses, offscreen) with
// that work reproduced, and through launchlab-cli; the fastest repetition of each (steady on a busy machine) must
// agree within 2x. Two measurements of the same work compared with each other, never with a wall-clock bound.
#include <QProcess>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>
#include <cmath>
#include <functional>
#include <vector>

#include "app/gui_wiring.h"
#include "launchlab/io/run_file.h"
#include "launchlab/plot_geometry.h"
#include "ui/runs/controller.h"

using namespace launchlab;
using namespace launchlab::ui;

namespace {

/// A run whose every repetition is a few microseconds of CPU-parallel work: what the artefact hit hardest.
RunRequest smallParallelRun() {
  RunRequest r;
  r.workload = "atomic_counter";
  r.n = 512;
  r.impls = {"cpu-parallel"};
  r.reps = 200;
  r.warmup = 5;
  return r;
}

double fastestCpuMs(const RunResult& r, const std::string& impl) {
  const ImplResult* i = r.find(impl);
  if (!i || i->status != Status::Ok) return -1;
  const auto it = i->phases.find(Phase::Cpu);
  return it == i->phases.end() ? -1 : it->second.minMs;
}

}  // namespace

/// launchlab-cli's fastest repetition of the request, as a user runs it.
double cliFastestMs(const RunRequest& req) {
  QTemporaryDir dir;
  const QString saved = dir.filePath("cli.llrun");
  QProcess cli;
  cli.start(LAUNCHLAB_CLI_PATH, {"run", QString::fromStdString(req.workload), "--n", QString::number(*req.n), "--impl",
                                 QString::fromStdString(req.impls.front()), "--reps", QString::number(req.reps),
                                 "--warmup", QString::number(req.warmup), "--save-run", saved});
  if (!cli.waitForFinished(120000) || cli.exitCode() != 0) return -1;
  return fastestCpuMs(runfile::load(saved.toStdString()), req.impls.front());
}

void compare(double windowMs, double cliMs) {
  qInfo("cpu-parallel, n = 512, fastest of 200 repetitions: launchlab-cli %.2f us, the window %.2f us", cliMs * 1000,
        windowMs * 1000);
  QVERIFY(cliMs > 0 && windowMs > 0);
  QVERIFY2(windowMs <= 2 * cliMs,
           qPrintable(QString("the window %1 us, launchlab-cli %2 us").arg(windowMs * 1000).arg(cliMs * 1000)));
}

class TestCpuTiming : public QObject {
  Q_OBJECT

  /// The window's path: its controller over the backend the app chooses on this machine; `meanwhile` runs on this
  /// (the GUI) thread right after Run, as the window's own reaction to it does.
  static double windowFastestMs(const RunRequest& req, const std::function<void()>& meanwhile = {}) {
    std::string note;
    RunController controller(app::makeBackend({}, true, note));
    QSignalSpy finished(&controller, &RunController::runFinished);
    controller.startRun(req);
    if (meanwhile) QMetaObject::invokeMethod(&controller, meanwhile, Qt::QueuedConnection);
    if (!finished.wait(120000)) return -1;
    return fastestCpuMs(finished.at(0).at(1).value<std::shared_ptr<const RunOutcome>>()->result, req.impls.front());
  }

 private slots:
  // The renderer has drawn a large waveform on its own thread, and stays (idle) for the next frame.
  void afterTheRendererDrewALargePlot() {
    const RunRequest req = smallParallelRun();
    const double cliMs = cliFastestMs(req);
    QThread renderer;
    QObject onRenderer;
    onRenderer.moveToThread(&renderer);
    renderer.start();
    std::vector<float> wave(std::size_t(1) << 17);
    for (std::size_t i = 0; i < wave.size(); ++i) wave[i] = float(std::sin(double(i) * 0.001));
    std::vector<geom::Vertex2> columns(4 * 1024);
    QMetaObject::invokeMethod(
        &onRenderer, [&] { geom::m4Vertices(wave.data(), DType::F32, 0, wave.size(), 1024, columns.data()); },
        Qt::BlockingQueuedConnection);
    const double windowMs = windowFastestMs(req);
    renderer.quit();
    renderer.wait();
    compare(windowMs, cliMs);
  }

  // Run pressed: the window draws its running state (at start-up, the whole window) on the GUI thread, here a
  // few hundred milliseconds of work, while the run is starting.
  void whileTheWindowDrawsTheRunsStart() {
    const RunRequest req = smallParallelRun();
    const double cliMs = cliFastestMs(req);
    const double windowMs = windowFastestMs(req, [] {
      volatile unsigned sink = 0;
      for (unsigned i = 0; i < 300000000u; ++i) sink = sink + 1;
    });
    compare(windowMs, cliMs);
  }
};

QTEST_MAIN(TestCpuTiming)
#include "test_cpu_timing.moc"
