// The GL check (canary, ui/gl_render_service.h and ui/gl_views.h) on whatever EGL gives (Mesa llvmpipe here and in
// CI): it passes when GL starts, runs before the frame after a run that ended in a CUDA fault and after a frame
// slower than a second; a wrong or late check puts every GL view on QCustomPlot with the reason under the plot until
// the process ends, and no frame drawn after it is shown. A failed check is for good in a process, so the functions
// that make one run alone (ctest names each; run in one process they skip once GL is off). The GPU function
// reproduces the real case: a kernel that faults in the worker, then GL views.
#include <QSignalSpy>
#include <QTest>
#include <atomic>
#include <cmath>

#include "app/gui_wiring.h"
#include "fakes.h"
#include "gl/gl_views.h"
#include "gl_view_data.h"
#include "launchlab/course/exercise.h"
#include "plots/qcp_view_base.h"
#include "runs/controller.h"

using namespace launchlab;
using namespace launchlab::ui;

namespace {

const QString kWrongAfterFault =
    "QCustomPlot: OpenGL gave a wrong test frame after a CUDA fault; plots are drawn by "
    "QCustomPlot until LaunchLab restarts";

using test::outcome;

struct Shown {
  std::unique_ptr<OutputView> view;
  QcpViewBase* base = nullptr;
  GlLayer* gl = nullptr;
};

Shown show(PlotKind kind, const std::shared_ptr<RunOutcome>& o) {
  ViewData d = test::dataFor(kind, o);
  Shown s;
  s.view = createQcpOutputView(kind, nullptr);
  s.base = dynamic_cast<QcpViewBase*>(s.view.get());
  s.gl = s.base->glLayer();
  auto* plot = qobject_cast<QCustomPlot*>(s.view->widget());
  plot->resize(480, 320);
  plot->show();
  s.view->setData(d);
  return s;
}

/// Asks the view for a new frame of the same data.
void redraw(Shown& s) {
  s.gl->dataChanged();
  qobject_cast<QCustomPlot*>(s.view->widget())->replot();
}

RunRequest fakeRequest() {
  RunRequest r;
  r.workload = "fake";
  r.impls = {"cuda-x"};
  r.reps = 1;
  return r;
}

const PlotKind kKinds[] = {PlotKind::Waveform, PlotKind::Histogram, PlotKind::Image, PlotKind::Points};

}  // namespace

class TestGlCanary : public QObject {
  Q_OBJECT
  std::shared_ptr<RunOutcome> m_outcome = outcome();

  /// GL views on and trusted; false (the function skips) without EGL, or when an earlier function turned GL off.
  bool glOn(QString& why) {
    GlViews::instance().configure(true, {});
    if (!GlViews::instance().waitReady(20000)) {
      why = "the GL context did not start in 20 s";
      return false;
    }
    why = GlViews::instance().pathLine();
    if (!GlViews::instance().unhealthy().isEmpty())
      why = "an earlier function in this process turned GL views off: run this one alone (" + why + ")";
    return GlViews::instance().state() == GlViews::State::Ready;
  }

  /// Waits until `s` shows a frame (after `redraw` or its first data).
  static bool frameShown(Shown& s, bool ask) {
    QSignalSpy shown(s.gl, &GlLayer::frameShown);
    if (ask) redraw(s);
    return shown.wait(20000);
  }

 private slots:
  void cleanup() { GlRenderService::setTestHooks({}); }

  void passesWhenGlStarts() {
    QString why;
    if (!glOn(why)) QSKIP(qPrintable(why));
    QVERIFY(GlViews::instance().canariesChecked() >= 1);
    QVERIFY2(GlViews::instance().lastCanary().startsWith("OpenGL drew its test frame right when it started ("),
             qPrintable(GlViews::instance().lastCanary()));
  }

  void aSlowFrameIsCheckedBeforeItIsShown() {
    QString why;
    if (!glOn(why)) QSKIP(qPrintable(why));
    Shown s = show(PlotKind::Waveform, m_outcome);
    QVERIFY(frameShown(s, false));
    // The next frame is taken to have lasted 1.5 s (no GPU here to stall); the ones after it keep their time.
    auto slow = std::make_shared<std::atomic<int>>(1);
    GlRenderService::setTestHooks({.frameMs = [slow](double ms) { return slow->fetch_sub(1) > 0 ? 1500.0 : ms; }});
    QStringList order;
    QObject ctx;
    connect(&GlViews::instance(), &GlViews::canaryChecked, &ctx, [&](const QString& line) { order << line; });
    connect(s.gl, &GlLayer::frameShown, &ctx, [&] { order << "frame"; });
    QVERIFY(frameShown(s, true));
    QVERIFY2(order.size() >= 2, qPrintable(order.join(" | ")));
    QVERIFY2(order[0].startsWith("OpenGL drew its test frame right after a 1.5 s frame ("), qPrintable(order[0]));
    QCOMPARE(order[1], QString("frame"));
    QCOMPARE(GlViews::instance().state(), GlViews::State::Ready);
    // A frame of normal speed is not checked.
    const int checks = GlViews::instance().canariesChecked();
    QVERIFY(frameShown(s, true));
    QCOMPARE(GlViews::instance().canariesChecked(), checks);
  }

  void aCudaFaultInARunIsCheckedAndOtherFailuresAreNot() {
    QString why;
    if (!glOn(why)) QSKIP(qPrintable(why));
    auto backend = std::make_shared<test::FakeBackend>();
    backend->stepMs = 1;
    backend->failRun = 1;   // fails, but not as a CUDA fault
    backend->faultRun = 2;  // its implementation ends in a CUDA fault
    RunController c(backend);
    GlViews::instance().watch(c);
    QSignalSpy checks(&GlViews::instance(), &GlViews::canaryChecked);
    QSignalSpy finished(&c, &RunController::runFinished);
    QStringList order;
    QObject ctx;
    connect(&c, &RunController::cudaFault, &ctx, [&] { order << "fault"; });
    connect(&c, &RunController::runFinished, &ctx, [&] { order << "result"; });
    const quint64 wantedBefore = GlViews::instance().canaryWanted();
    c.startRun(fakeRequest());
    QVERIFY(finished.wait(10000));
    QTest::qWait(100);
    QCOMPARE(checks.count(), 0);
    QCOMPARE(GlViews::instance().canaryWanted(), wantedBefore);
    c.startRun(fakeRequest());
    QVERIFY(finished.wait(10000));
    QCOMPARE(order, (QStringList{"result", "fault", "result"}));  // the fault is known before its result is shown
    QVERIFY(GlViews::instance().canaryWanted() > wantedBefore);
    if (checks.isEmpty()) QVERIFY(checks.wait(20000));
    const QString line = checks.at(0).at(0).toString();
    QVERIFY2(line.startsWith("OpenGL drew its test frame right after a CUDA fault ("), qPrintable(line));
    QVERIFY(checks.at(0).at(1).toBool());
    // GL stays trusted: the next frame is drawn after the check and shown.
    Shown s = show(PlotKind::Histogram, m_outcome);
    QVERIFY(frameShown(s, false));
    QVERIFY(s.gl->active());
  }

  /// The exact wording under each plot; nothing GL draws is shown after the check failed; turning OpenGL plots off
  /// and on does not bring GL back.
  void aWrongTestFrameAfterAFaultTurnsEveryGlViewOff() {
    QString why;
    if (!glOn(why)) QSKIP(qPrintable(why));
    std::vector<Shown> views;
    for (PlotKind kind : kKinds) {
      views.push_back(show(kind, m_outcome));
      QVERIFY(frameShown(views.back(), false));
    }
    // The next check reads back one pixel changed, as a broken driver would draw it.
    GlRenderService::setTestHooks({.canaryReadback = [](std::vector<std::uint8_t>& px) { px[4 * 100] ^= 0xff; }});
    auto backend = std::make_shared<test::FakeBackend>();
    backend->stepMs = 1;
    backend->faultRun = 1;
    RunController c(backend);
    GlViews::instance().watch(c);
    QSignalSpy changed(&GlViews::instance(), &GlViews::changed);
    QSignalSpy faults(&c, &RunController::cudaFault);
    c.startRun(fakeRequest());
    QVERIFY(faults.wait(10000));
    std::vector<int> framesBefore;
    for (Shown& s : views) framesBefore.push_back(s.gl->framesShown());
    for (Shown& s : views) redraw(s);  // asked for after the fault was reported: drawn after the check, or not at all
    if (changed.isEmpty()) QVERIFY(changed.wait(20000));
    QCOMPARE(GlViews::instance().state(), GlViews::State::Failed);
    QTest::qWait(200);  // any frame still on its way arrives (and is dropped) meanwhile
    for (std::size_t k = 0; k < views.size(); ++k) {
      Shown& s = views[k];
      QCOMPARE(s.view->drawPath(), kWrongAfterFault);
      QVERIFY(!s.gl->active());
      QVERIFY(s.view->drawnPoints() > 0);  // QCustomPlot draws the series
      QCOMPARE(s.gl->framesShown(), framesBefore[k]);
    }
    QVERIFY(!GlViews::instance().service());
    GlViews::instance().configure(false, "setting: Draw plots with OpenGL is off");
    GlViews::instance().configure(true, {});
    QCOMPARE(GlViews::instance().state(), GlViews::State::Failed);
    QCOMPARE(views[0].view->drawPath(), kWrongAfterFault);
  }

  /// A slow frame whose check is late too: the slow frame is never shown.
  void aLateCheckAfterASlowFrameTurnsGlViewsOff() {
    QString why;
    if (!glOn(why)) QSKIP(qPrintable(why));
    Shown s = show(PlotKind::Image, m_outcome);
    QVERIFY(frameShown(s, false));
    const int frames = s.gl->framesShown();
    GlRenderService::setTestHooks(
        {.frameMs = [](double) { return 19086.0; }, .canaryMs = [](double) { return 1200.0; }});
    QSignalSpy changed(&GlViews::instance(), &GlViews::changed);
    redraw(s);
    QVERIFY(changed.wait(20000));
    QCOMPARE(s.view->drawPath(), QString("QCustomPlot: OpenGL took 1.2 s for a test frame after a 19.1 s frame; plots "
                                         "are drawn by QCustomPlot until LaunchLab restarts"));
    QTest::qWait(200);
    QCOMPARE(s.gl->framesShown(), frames);
    QVERIFY(!s.gl->active());
  }

  /// GPU machine: a kernel that faults in the worker, then GL views. Either the check fails and every view says so
  /// (QCustomPlot draws), or GL survived and the frames drawn after the fault equal those drawn before.
  void aRealFaultThenGlViews() {
    const char* env = std::getenv("LAUNCHLAB_CLI_PATH");
    auto backend = std::shared_ptr<Backend>(app::makeIsolatedBackend(env && *env ? env : LAUNCHLAB_CLI_PATH));
    if (!backend->deviceStatus().available) QSKIP("no CUDA device: nothing can fault");
    QString why;
    if (!glOn(why) && GlViews::instance().unhealthy().isEmpty()) QSKIP(qPrintable(why));
    if (!GlViews::instance().unhealthy().isEmpty()) {
      // An earlier fault on this machine (another test's) broke GL before this process started: the check at start
      // caught it, and the views must say so rather than draw.
      qInfo("GL failed its check at start: %s", qPrintable(GlViews::instance().unhealthy()));
      Shown s = show(PlotKind::Waveform, m_outcome);
      QTest::qWait(500);
      QCOMPARE(s.view->drawPath(), "QCustomPlot: " + GlViews::instance().unhealthy());
      QCOMPARE(s.gl->framesShown(), 0);
      return;
    }
    qInfo("GL before the fault: %s", qPrintable(why));
    std::vector<Shown> views;
    std::vector<QImage> before;
    for (PlotKind kind : kKinds) {
      views.push_back(show(kind, m_outcome));
      QVERIFY(frameShown(views.back(), false));
      before.push_back(views.back().gl->image());
    }
    RunController c(backend);
    GlViews::instance().watch(c);
    QSignalSpy checks(&GlViews::instance(), &GlViews::canaryChecked);
    const Exercise* ex = findExercise("vector_add");
    QVERIFY(ex);
    RunRequest fault;
    fault.workload = ex->workload;
    fault.impls = {std::string(kMyKernel)};
    fault.reps = 1;
    fault.userKernel = UserKernel{ex->id, "fault.cu",
                                  "__global__ void vector_add(const float* x, const float* y, float* out, "
                                  "unsigned long long n) {\n  out[threadIdx.x + (1ull << 40)] = 1.0f;\n}\n",
                                  "", 10};
    QSignalSpy finished(&c, &RunController::runFinished);
    c.startRun(fault);
    QVERIFY(finished.wait(120000));
    const auto failed = finished.at(0).at(1).value<std::shared_ptr<const RunOutcome>>();
    QVERIFY2(failed->result.cudaFault(), failed->result.find(std::string(kMyKernel))
                                             ? failed->result.find(std::string(kMyKernel))->reason.c_str()
                                             : failed->result.reason.c_str());
    for (Shown& s : views) redraw(s);
    if (checks.isEmpty()) QVERIFY(checks.wait(120000));  // a broken driver takes ~19 s a frame
    const QString line = checks.at(0).at(0).toString();
    qInfo("the check after the fault: %s", qPrintable(line));
    if (!checks.at(0).at(1).toBool()) {
      QTest::qWait(500);
      for (std::size_t k = 0; k < views.size(); ++k) {
        QCOMPARE(views[k].view->drawPath(), "QCustomPlot: " + line);
        QVERIFY(!views[k].gl->active());
        QVERIFY(views[k].gl->image() == before[k]);  // nothing drawn after the fault was shown
      }
      return;
    }
    for (std::size_t k = 0; k < views.size(); ++k) {
      QVERIFY(frameShown(views[k], true));
      QVERIFY2(views[k].gl->image() == before[k], qPrintable(QString("view %1 drew another frame").arg(k)));
    }
  }
};

QTEST_MAIN(TestGlCanary)
#include "test_gl_canary.moc"
