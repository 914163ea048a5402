// Device imports (ui/device_imports.h). Everywhere: with the controller's device import on, a run that
// keeps its outputs asks the backend to export them and the import runs on the compute thread after that run and
// before the next one; runs that keep nothing, sweeps, and runs after the import is turned off export nothing;
// importing without a GPU (or a handle that is not one) says why and draws from the host copy. On a GPU machine
// whose EGL context sits on the CUDA device (interop): a local worker's GPU outputs are taken from its device memory,
// the GL frame built from them equals the frame built from the host copy byte for byte, and a faulting kernel in the
// worker costs one failed run while the next run's outputs are imported again: drawn by GL as before where the
// driver kept GL working, or, where the fault broke OpenGL for every process (the H200 machine: the next frame
// stalls for seconds and comes out wrong), the GL check catches it and the views say they draw with QCustomPlot.
#include <QSignalSpy>
#include <QTest>
#include <cstring>
#include <mutex>
#include <thread>

#include "app/gui_wiring.h"
#include "fakes.h"
#include "gl/device_imports.h"
#include "gl/gl_views.h"
#include "launchlab/course/exercise.h"
#include "runs/controller.h"
#if LAUNCHLAB_TEST_RENDER
#include "render/gl_interop.h"
#endif

using namespace launchlab;
using namespace launchlab::ui;

namespace {

RunRequest request(bool keep) {
  RunRequest r;
  r.workload = "fake";
  r.impls = {"cuda-x"};
  r.reps = 1;
  r.keepOutputs = keep;
  return r;
}

/// Runs `req` on `c` and waits for its outcome (nullptr on timeout).
std::shared_ptr<const RunOutcome> runAndWait(RunController& c, const RunRequest& req) {
  QSignalSpy finished(&c, &RunController::runFinished);
  c.startRun(req);
  if (!finished.wait(120000)) return nullptr;
  return finished.at(0).at(1).value<std::shared_ptr<const RunOutcome>>();
}

/// An image frame of output `name` of `impl` in `o` (rows x cols int32), a pixel per texel as the window draws it
/// (ui/image_view.cpp), or `pixels`.
GlFrameRequest imageFrame(const std::shared_ptr<const RunOutcome>& o, const std::string& impl, const std::string& name,
                          int rows, int cols, QSize pixels = {}) {
  GlFrameRequest q;
  q.kind = GlDraw::Image;
  q.keep = o;
  for (const auto& a : o->result.find(impl)->outputs)
    if (a.name() == name) q.array = &a;
  q.pixels = pixels.isEmpty() ? QSize(cols, rows) : pixels;
  q.range = q.drawRange = {0, double(cols), double(rows), 0};
  q.cols = cols;
  q.rows = rows;
  q.lo = 0;
  q.hi = 40;
  return q;
}

int differingPixels(const QImage& a, const QImage& b) {
  if (a.size() != b.size() || a.format() != b.format()) return -1;
  int n = 0;
  for (int y = 0; y < a.height(); ++y)
    for (int x = 0; x < a.width(); ++x) n += a.pixel(x, y) != b.pixel(x, y);
  return n;
}

/// The imported bytes read back from this process's device copy equal the host copy's: "" or what differs.
QString importedBytesProblem(const HostArray& host, const void* imported, int ordinal) {
#if LAUNCHLAB_TEST_RENDER
  std::vector<unsigned char> back(host.bytes());
  std::string e = render::useDevice(ordinal);
  if (e.empty()) e = render::copyToHost(back.data(), imported, back.size());
  if (!e.empty()) return QString::fromStdString(e);
  return std::memcmp(back.data(), host.data(), back.size()) == 0
             ? QString()
             : QString("the imported bytes differ from the host copy");
#else
  (void)host, (void)imported, (void)ordinal;
  return {};
#endif
}

}  // namespace

class TestDeviceImports : public QObject {
  Q_OBJECT
 private slots:
  void exportsAndImportsFollowEachRun() {
    auto backend = std::make_shared<test::FakeBackend>();
    backend->stepMs = 1;
    RunController c(backend);
    std::mutex m;
    std::vector<int> runsSeenByImport;
    bool importOnGuiThread = false;
    c.setDeviceImport([&](RunOutcome&) {
      std::lock_guard lock(m);
      runsSeenByImport.push_back(backend->runs.load());
      importOnGuiThread = importOnGuiThread || QThread::currentThread() == backend->guiThread;
    });
    QVERIFY(c.deviceImportOn());
    QVERIFY(runAndWait(c, request(true)));
    QVERIFY(runAndWait(c, request(true)));
    QVERIFY(runAndWait(c, request(false)));  // keeps nothing: nothing to draw, nothing exported
    c.startSweep(request(true), "cuda-x", {Dim3{32, 1, 1}});
    QTRY_VERIFY_WITH_TIMEOUT(!c.busy(), 20000);
    c.setDeviceImport(nullptr);
    QVERIFY(!c.deviceImportOn());
    QVERIFY(runAndWait(c, request(true)));

    const auto reqs = backend->requests();
    QCOMPARE(reqs.size(), std::size_t(5));
    const bool expected[] = {true, true, false, false, false};
    for (std::size_t i = 0; i < reqs.size(); ++i) QCOMPARE(reqs[i].exportDeviceOutputs, expected[i]);
    std::lock_guard lock(m);
    // Each import saw its own run as the last one: no other run started before it was done.
    QCOMPARE(runsSeenByImport, (std::vector<int>{1, 2}));
    QVERIFY(!importOnGuiThread);
  }

  void importingWithoutAGpuSaysWhy() {
    RunResult none;
    QVERIFY(!importDeviceOutputs(none, 0));  // nothing exported: no imports at all
    RunResult r;
    ImplResult i;
    i.implId = "cuda-x";
    i.outputs.emplace_back("out", DType::F32, std::vector<std::size_t>{4});
    i.deviceOutputs.push_back({"out", DType::F32, {4}, 16, 0, std::string(128, 'z')});
    r.impls.push_back(i);
    const auto imports = importDeviceOutputs(r, 0);
    QVERIFY(imports);
    QCOMPARE(imports->count(), std::size_t(0));
    QVERIFY(!imports->find(&r.impls[0].outputs[0]));
    QVERIFY2(imports->note().contains("1 not (") && imports->note().contains("host copy"), qPrintable(imports->note()));
  }

  void aLocalWorkersGpuOutputsAreDrawnFromItsDeviceMemory() {
    const char* env = std::getenv("LAUNCHLAB_CLI_PATH");
    auto backend = std::shared_ptr<Backend>(app::makeIsolatedBackend(env && *env ? env : LAUNCHLAB_CLI_PATH));
    if (!backend->deviceStatus().available) QSKIP("no CUDA device: the worker exports nothing");
    GlViews::instance().configure(true, {});
    QVERIFY(GlViews::instance().waitReady(20000));
    int ordinal = -1;
    if (!GlViews::instance().interop(&ordinal))
      QSKIP(qPrintable("the GL views do not draw through interop here: " + GlViews::instance().pathLine()));
    QVERIFY(backend->runsInLocalWorker());
    RunController c(backend);
    c.setDeviceImport([ordinal](RunOutcome& o) { o.deviceImports = importDeviceOutputs(o.result, ordinal); });
    RunRequest req;
    req.workload = "mandelbrot";
    req.n = 96;
    req.impls = {"cuda-per-pixel"};
    req.reps = 1;
    req.keepOutputs = true;
    req.params = {{"output", "escape-count"}};
    // The imported device bytes are the run's outputs, whatever GL does.
    auto checkImported = [&](const std::shared_ptr<const RunOutcome>& o) {
      QVERIFY(o);
      QVERIFY2(o->result.find("cuda-per-pixel") && o->result.find("cuda-per-pixel")->status == Status::Ok,
               o->result.reason.c_str());
      QVERIFY(o->deviceImports);
      QVERIFY2(o->deviceImports->count() == 2, qPrintable(o->deviceImports->note()));  // iters and rounds
      const HostArray* iters = imageFrame(o, "cuda-per-pixel", "iters", 96, 96).array;
      const QString bytes = importedBytesProblem(*iters, o->deviceImports->find(iters), ordinal);
      QVERIFY2(bytes.isEmpty(), qPrintable(bytes));
    };
    auto checkDrawn = [&](const std::shared_ptr<const RunOutcome>& o) {
      checkImported(o);
      if (QTest::currentTestFailed()) return;
      GlRenderService* service = GlViews::instance().service();
      const GlFrame fromWorker = service->renderNow(imageFrame(o, "cuda-per-pixel", "iters", 96, 96));
      QVERIFY2(fromWorker.error.isEmpty(), qPrintable(fromWorker.error));
      QVERIFY2(fromWorker.dataNote.contains("worker's device memory"), qPrintable(fromWorker.dataNote));
      auto hostOnly = std::make_shared<RunOutcome>(*o);
      hostOnly->deviceImports.reset();
      const GlFrame fromHost = service->renderNow(imageFrame(hostOnly, "cuda-per-pixel", "iters", 96, 96));
      // Small host arrays are drawn by a host upload where interop would be slower (ui/gl_path.h).
      QVERIFY2(fromHost.dataNote.contains("uploaded once") || fromHost.path == "host upload",
               qPrintable(fromHost.path + " / " + fromHost.dataNote));
      QVERIFY(!fromWorker.image.isNull());
      if (fromWorker.image != fromHost.image) {
        qWarning("frames differ in %d of %d pixels; stages of the worker's frame %.2f / %.2f / %.2f / %.2f ms",
                 differingPixels(fromWorker.image, fromHost.image), 96 * 96, fromWorker.stageMs[0],
                 fromWorker.stageMs[1], fromWorker.stageMs[2], fromWorker.stageMs[3]);
        if (const char* dir = std::getenv("LAUNCHLAB_GL_SHOTS")) {
          fromWorker.image.save(QString("%1/import_from_worker.png").arg(dir));
          fromHost.image.save(QString("%1/import_from_host.png").arg(dir));
        }
      }
      QVERIFY(fromWorker.image == fromHost.image);  // the same bytes drawn
      // The same frame magnified (an export larger than the image): drawn twice, the same both times.
      const GlFrame big1 = service->renderNow(imageFrame(o, "cuda-per-pixel", "iters", 96, 96, QSize(200, 200)));
      const GlFrame big2 = service->renderNow(imageFrame(o, "cuda-per-pixel", "iters", 96, 96, QSize(200, 200)));
      if (big1.image != big2.image) {
        qWarning("magnified frames differ in %d pixels", differingPixels(big1.image, big2.image));
        if (const char* dir = std::getenv("LAUNCHLAB_GL_SHOTS")) {
          big1.image.save(QString("%1/import_200_a.png").arg(dir));
          big2.image.save(QString("%1/import_200_b.png").arg(dir));
        }
      }
      QVERIFY(big1.image == big2.image);
    };
    checkDrawn(runAndWait(c, req));
    if (QTest::currentTestFailed()) return;
    // Said in the log: on the GPU machine a frame after the fault below has failed where this one passed.
    qInfo("the first run: imported frame equals the host-copy frame; next, a kernel that faults");

    // A kernel that faults costs one failed run in the worker; the next run is imported and drawn as before.
    const Exercise* ex = findExercise("vector_add");
    QVERIFY(ex);
    RunRequest fault;
    fault.workload = ex->workload;
    fault.impls = {std::string(kMyKernel)};
    fault.reps = 1;
    fault.keepOutputs = true;
    fault.userKernel = UserKernel{ex->id, "fault.cu",
                                  "__global__ void vector_add(const float* x, const float* y, float* out, "
                                  "unsigned long long n) {\n  out[threadIdx.x + (1ull << 40)] = 1.0f;\n}\n",
                                  "", 10};
    const auto failed = runAndWait(c, fault);
    QVERIFY(failed);
    const ImplResult* mine = failed->result.find(std::string(kMyKernel));
    QVERIFY(mine);
    QVERIFY2(mine->status == Status::Failed, mine->reason.c_str());
    QVERIFY(!failed->deviceImports || failed->deviceImports->count() == 0);
    qInfo("the faulting run failed alone; next, a run after the fault");
    const auto after = runAndWait(c, req);
    checkImported(after);
    if (QTest::currentTestFailed()) return;
    // The window asks for a GL check before the next frame after a faulting run (GlViews::watch); here the test
    // asks, as the controller's cudaFault signal would.
    GlViews::instance().checkAfterCudaFault();
    GlRenderService* service = GlViews::instance().service();
    const GlFrame probe =
        service ? service->renderNow(imageFrame(after, "cuda-per-pixel", "iters", 96, 96)) : GlFrame{};
    if (service && probe.error.isEmpty() && GlViews::instance().unhealthy().isEmpty()) {
      checkDrawn(after);
      if (QTest::currentTestFailed()) return;
    } else {
      // The fault broke OpenGL on this machine: the check must have said so, and every view falls back.
      QTRY_VERIFY_WITH_TIMEOUT(!GlViews::instance().unhealthy().isEmpty(), 30000);
      QVERIFY2(GlViews::instance().pathLine().startsWith("QCustomPlot:"), qPrintable(GlViews::instance().pathLine()));
      qInfo("OpenGL broke after the fault, as the GL check says: %s", qPrintable(GlViews::instance().unhealthy()));
    }

    // What an import costs (docs/PERFORMANCE.md): a 64 MiB output, five runs in a row, the times printed.
    RunRequest big;
    big.workload = "vector_add";
    big.n = std::uint64_t(1) << 24;
    big.impls = {"cuda-grid-stride"};
    big.reps = 1;
    big.keepOutputs = true;
    big.verify = false;
    for (int i = 0; i < 5; ++i) {
      const auto o = runAndWait(c, big);
      QVERIFY(o && o->deviceImports);
      QVERIFY2(o->deviceImports->count() == 1, qPrintable(o->deviceImports->note()));
      qInfo("64 MiB output, run %d: %s", i + 1, qPrintable(o->deviceImports->note()));
    }
  }
};

QTEST_MAIN(TestDeviceImports)
#include "test_device_imports.moc"
