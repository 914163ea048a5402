// Blocks on SMs (offscreen): the Gantt chart of a synthetic block trace (one lane per SM of the device, one bar per
// block in its wave's colour, the summary under the title), the messages for untraced and CPU implementations, the
// outputs pane's tab that comes and goes with traced runs, and the form's "Trace blocks on SMs" reaching the request.
#include <qcustomplot.h>

#include <QTest>

#include "fakes.h"
#include "models/form_state.h"
#include "plots/output_view.h"
#include "plots/outputs_pane.h"

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
    // One line with the lesson's numbers: waves, the tail's share, the imbalance.
    QCOMPARE(subtitle->text(),
             QString("2 waves (1.17 predicted) \u00b7 tail 33 % of 30 \u00b5s \u00b7 3 to 4 blocks per SM"));
    QVERIFY(view->summary().startsWith("blocks: 7 on 2 of 3 SMs"));
    plot->replot();  // sizes the bars to the lanes
    auto* wave1 = qobject_cast<QCPCurve*>(plot->plottable(0));
    QVERIFY(wave1->pen().widthF() > 1.0);
  }

  /// 132 SMs in a 720p-sized plot: neighbouring SMs share a lane, labels name the groups and never overlap, the
  /// second wave's start is marked and the tail shaded; zoomed in on a few SMs, each SM has its lane again.
  void manySmsShareLanesUntilZoomedIn() {
    auto o = tracedOutcome();
    o->result.device.info.multiprocessors = 132;
    auto& trace = o->result.impls[1].blockTrace;
    trace.clear();
    for (std::uint32_t b = 0; b < 300; ++b)  // 2 resident per SM: 264 blocks in wave 1, 36 in wave 2
      trace.push_back({b, b % 132, b < 264 ? 0u : 10'000u, b < 264 ? 10'000u : 20'000u});
    o->result.impls[1].kernelOccupancy = {{.gridBlocks = 300, .blocksPerSm = 2}};
    auto view = makeBlocksOnSmsView(nullptr);
    view->widget()->resize(1200, 420);
    view->setData(dataFor(o, "cuda"));
    auto* plot = qobject_cast<QCustomPlot*>(view->widget());
    plot->replot();
    plot->replot();  // the second layout sees the labels of the first
    auto ticker = plot->yAxis->ticker().dynamicCast<QCPAxisTickerText>();
    QVERIFY(ticker);
    const auto ticks = ticker->ticks();
    QVERIFY(ticks.size() >= 3);
    QVERIFY(ticks.first().contains(QString("\u2013")));  // "0-3": a group of SMs
    QVERIFY(plot->yAxis->label().startsWith("SM (groups of"));
    const double textPx = QFontMetrics(plot->yAxis->tickLabelFont()).height();
    for (auto it = ticks.begin(); std::next(it) != ticks.end(); ++it) {
      const double gap = std::abs(plot->yAxis->coordToPixel(std::next(it).key()) - plot->yAxis->coordToPixel(it.key()));
      QVERIFY2(gap >= textPx, qPrintable(QString("labels %1 px apart, text %2 px").arg(gap).arg(textPx)));
    }
    // The wave boundary (a dashed line) and the tail (a shaded rectangle).
    int lines = 0, rects = 0;
    for (int i = 0; i < plot->itemCount(); ++i) {
      lines += qobject_cast<QCPItemStraightLine*>(plot->item(i)) != nullptr;
      rects += qobject_cast<QCPItemRect*>(plot->item(i)) != nullptr;
    }
    QCOMPARE(lines, 1);
    QCOMPARE(rects, 1);
    // Zoomed in on 8 SMs: one lane each, labelled by its SM.
    plot->yAxis->setRange(-0.5, 7.5);
    plot->replot();
    QCOMPARE(plot->yAxis->label(), QString("SM"));
    const auto zoomed = plot->yAxis->ticker().dynamicCast<QCPAxisTickerText>()->ticks();
    QVERIFY(zoomed.contains(0.0));
    QCOMPARE(zoomed.value(0.0), QString("0"));
  }

  void untracedAndCpuImplementationsSaySo() {
    auto view = makeBlocksOnSmsView(nullptr);
    view->widget()->resize(900, 400);
    view->setData(dataFor(tracedOutcome(), "cuda-untraced"));
    QCOMPARE(view->drawnPoints(), 0);
    auto* plot = qobject_cast<QCustomPlot*>(view->widget());
    QCOMPARE(curvePoints(plot, 0), 0);
    // The message keeps the plot's width (an emptied legend used to shrink the plot's column to a sliver).
    plot->replot();
    QVERIFY2(plot->axisRect()->width() > 450, qPrintable(QString::number(plot->axisRect()->width())));
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
