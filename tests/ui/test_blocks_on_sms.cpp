// Blocks on SMs (offscreen): the Gantt chart of a synthetic block trace (one lane per SM of the device, one bar per
// block in its wave's colour, the summary under the title), the messages for untraced and CPU implementations, the
// outputs pane's tab that comes and goes with traced runs, and the form's "Trace blocks on SMs" reaching the request.
#include <qcustomplot.h>

#include <QTest>

#include "fakes.h"
#include "ui/plots/output_view.h"
#include "ui/plots/outputs_pane.h"
#include "ui/window/form_state.h"

using namespace launchlab;
using namespace launchlab::ui;

namespace {

/// 7 blocks on SMs 0 and 1 of a 3-SM device, 2 resident per SM (tests/core/test_block_trace.cpp's launch):
/// SM 0 runs 0, 1 then 4, 5; SM 1 runs 2, 3 then 6, which ends last.
std::shared_ptr<RunOutcome> tracedOutcome() {
  auto o = std::make_shared<RunOutcome>();
  o->result.workload = "fake_2d";
  o->result.device.available = true;
  o->result.device.info.multiprocessors = 3;
  ImplResult gpu;
  gpu.implId = "cuda";
  gpu.title = "CUDA";
  gpu.gpu = true;
  gpu.kernelOccupancy = {{.gridBlocks = 7, .blocksPerSm = 2}};
  gpu.blockTrace = {{0, 0, 0, 10'000},      {1, 0, 0, 10'000},      {2, 1, 0, 10'000},     {3, 1, 0, 10'000},
                    {4, 0, 10'000, 20'000}, {5, 0, 10'000, 20'000}, {6, 1, 12'000, 30'000}};
  ImplResult untraced = gpu;
  untraced.implId = "cuda-untraced";
  untraced.blockTrace.clear();
  ImplResult cpu;
  cpu.implId = "cpu-serial";
  cpu.title = "CPU serial";
  o->result.impls = {cpu, gpu, untraced};
  return o;
}

ViewData dataFor(const std::shared_ptr<RunOutcome>& o, const std::string& source) {
  ViewData d;
  d.spec = {.name = "block_trace", .title = "Blocks on SMs"};
  d.outcome = o;
  d.source = source;
  return d;
}

int curvePoints(QCustomPlot* plot, int curve) {
  auto* c = qobject_cast<QCPCurve*>(plot->plottable(curve));
  return c ? c->dataCount() : -1;
}

}  // namespace

class TestBlocksOnSms : public QObject {
  Q_OBJECT

 private slots:
  void drawsOneBarPerBlockInSmLanesColouredByWave() {
    auto view = makeBlocksOnSmsView(nullptr);
    view->widget()->resize(900, 400);
    view->setData(dataFor(tracedOutcome(), "cuda"));
    auto* plot = qobject_cast<QCustomPlot*>(view->widget());
    QVERIFY(plot);
    QCOMPARE(view->drawnPoints(), 7);
    // Wave 1: blocks 0-3 (4 bars of 2 points and a NaN gap), wave 2: blocks 4-6; the other colours are empty.
    QCOMPARE(curvePoints(plot, 0), 12);
    QCOMPARE(curvePoints(plot, 1), 9);
    for (int c = 2; c < 6; ++c) QCOMPARE(curvePoints(plot, c), 0);
    // One lane per SM of the device, the unused SM 2 included; SM 0 on top.
    auto ticker = plot->yAxis->ticker().dynamicCast<QCPAxisTickerText>();
    QVERIFY(ticker);
    QCOMPARE(ticker->ticks().size(), 3);
    QVERIFY(plot->yAxis->rangeReversed());
    QCOMPARE(plot->xAxis->range().upper, 30.0 * 1.02);  // microseconds
    auto* subtitle = qobject_cast<QCPTextElement*>(plot->plotLayout()->element(1, 0));
    QVERIFY(subtitle);
    QCOMPARE(subtitle->text(),
             QString("blocks: 7 on 2 of 3 SMs, 3 to 4 per SM; up to 2 at once on one SM (occupancy: 2 resident)\n"
                     "waves: 2 observed on the busiest SM, 1.17 predicted (7 blocks / 6 per wave: 1 full, then 1)\n"
                     "time: 30.0 us from the first block's start to the last one's end; tail 10.0 us (33%) after "
                     "the first SM ran out of blocks"));
    QVERIFY(view->summary().startsWith("blocks: 7 on 2 of 3 SMs"));
    plot->replot();  // sizes the bars to the lanes
    auto* wave1 = qobject_cast<QCPCurve*>(plot->plottable(0));
    QVERIFY(wave1->pen().widthF() > 1.0);
  }

  void untracedAndCpuImplementationsSaySo() {
    auto view = makeBlocksOnSmsView(nullptr);
    view->setData(dataFor(tracedOutcome(), "cuda-untraced"));
    QCOMPARE(view->drawnPoints(), 0);
    auto* plot = qobject_cast<QCustomPlot*>(view->widget());
    QCOMPARE(curvePoints(plot, 0), 0);
    view->setData(dataFor(tracedOutcome(), "cuda"));
    QCOMPARE(view->drawnPoints(), 7);
    view->setData(dataFor(tracedOutcome(), "cpu-serial"));
    QCOMPARE(view->drawnPoints(), 0);
  }

  // An SM index near INT_MAX (a crafted file or result) used to overflow the tick step into a loop of 2^31 labels.
  void anSmIndexNearIntMaxDrawsWithAFewLabels() {
    auto view = makeBlocksOnSmsView(nullptr);
    view->widget()->resize(900, 400);
    auto o = tracedOutcome();
    o->result.impls[1].blockTrace[6].sm = 2147483646u;
    view->setData(dataFor(o, "cuda"));
    auto* plot = qobject_cast<QCustomPlot*>(view->widget());
    auto ticker = plot->yAxis->ticker().dynamicCast<QCPAxisTickerText>();
    QVERIFY(ticker);
    QVERIFY(ticker->ticks().size() <= 17);
    QVERIFY(ticker->ticks().size() >= 2);
  }

  void outputsPaneAddsTheTabForTracedRunsOnly() {
    OutputsPane pane;
    pane.resize(900, 500);
    const test::Fake2D fake;
    pane.setWorkload(fake, {});
    QCOMPARE(pane.viewCount(), 3);
    pane.setOutcome(tracedOutcome());
    QCOMPARE(pane.viewCount(), 4);
    QCOMPARE(pane.tabText(3), QString("Blocks on SMs"));
    QCOMPARE(pane.shownImpl(), std::string("cuda"));  // the first CUDA variant with something to show
    QCOMPARE(pane.view(3)->drawnPoints(), 7);
    pane.setOutcome(tracedOutcome());  // still one tab
    QCOMPARE(pane.viewCount(), 4);
    auto plain = tracedOutcome();
    for (auto& i : plain->result.impls) i.blockTrace.clear();
    pane.setOutcome(plain);
    QCOMPARE(pane.viewCount(), 3);
  }

  void theFormsTraceBoxReachesTheRequest() {
    const test::Fake2D fake;
    test::FakeBackend backend;
    FormState f = defaultForm(fake);
    QVERIFY(!f.traceBlocks);  // ordinary runs are never instrumented
    f.traceBlocks = true;
    const FormCheck c = checkForm(f, backend);
    QVERIFY(c.request);
    QVERIFY(c.request->traceBlocks);
    f.traceBlocks = false;
    const FormCheck plain = checkForm(f, backend);
    QVERIFY(plain.request);
    QVERIFY(!plain.request->traceBlocks);
  }
};

QTEST_MAIN(TestBlocksOnSms)
#include "test_blocks_on_sms.moc"
