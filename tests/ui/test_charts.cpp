// Charts and views for a first-time student and a projector: the timing axis follows the medians (outliers
// clipped and marked, noisy runs flagged), small speedups keep their digits, placeholders leak no internals
// and say when a run is under way, stale results go when the workload changes, colour bars and zoom status
// tell the truth, the sweep tab says why it cannot run, and every plot reads out the point under the mouse.
#include <qcustomplot.h>

#include <QLabel>
#include <QTest>

#include "explorer/sweep_pane.h"
#include "fakes.h"
#include "launchlab/kernels.h"
#include "plots/charts.h"
#include "plots/outputs_pane.h"
#include "plots/plot_interaction.h"
#include "plots/qcp_view_base.h"
#include "plots/sweep_chart.h"

using namespace launchlab;
using namespace launchlab::ui;

namespace {

ImplResult timedImpl(const std::string& id, bool gpu, double medianMs, double maxMs, double speedup) {
  ImplResult i;
  i.implId = i.title = id;
  i.gpu = gpu;
  i.phases[gpu ? Phase::Kernel : Phase::Cpu] = {medianMs, medianMs * 0.9, maxMs, 5};
  i.phases[Phase::Total] = {medianMs, medianMs * 0.9, maxMs, 5};
  i.speedupTotal = speedup;
  return i;
}

/// cpu-serial at 1 ms with one repetition 100x slower; a CUDA variant at 3 µs.
RunResult outlierRun() {
  RunResult r;
  r.workload = "vector_add";
  r.n = 1000;
  r.dtype = "f32";
  r.impls = {timedImpl("cpu-serial", false, 1.0, 100.0, 1.0), timedImpl("cuda", true, 0.003, 0.0032, 333)};
  return r;
}

/// The histogram run of the GPU screenshot at 1280x720: long titles, a noisy CPU parallel bar, slow GPU bars.
RunResult histogramLikeRun() {
  RunResult r;
  r.workload = "histogram";
  r.n = 10000;
  r.dtype = "f32";
  const std::pair<const char*, const char*> titles[] = {{"cpu-serial", "CPU serial"},
                                                        {"cpu-parallel", "CPU parallel (per-thread histograms)"},
                                                        {"cuda-global", "CUDA global atomics (the seed's kernel)"},
                                                        {"cuda-shared", "CUDA shared-memory privatized"},
                                                        {"cub", "CUB DeviceHistogram::HistogramEven"}};
  for (const auto& [id, title] : titles) {
    const bool gpu = id[0] != 'c' || id[1] == 'u';
    const bool noisy = std::string(id) == "cpu-parallel";
    ImplResult i = timedImpl(id, gpu, noisy ? 0.011 : 0.036, noisy ? 0.35 : 0.04, 0.55);
    i.title = title;
    r.impls.push_back(i);
  }
  return r;
}

/// A run whose one output is a rows x cols image (cpu-serial and a CUDA row with the same values).
std::shared_ptr<RunOutcome> imageOutcome(std::size_t rows, std::size_t cols) {
  auto o = std::make_shared<RunOutcome>();
  RunResult& r = o->result;
  r.workload = "img";
  r.n = rows * cols;
  for (const char* id : {"cpu-serial", "cuda"}) {
    ImplResult i;
    i.implId = i.title = id;
    i.gpu = std::string(id) == "cuda";
    HostArray a("img", DType::F32, std::vector<std::size_t>{rows, cols});
    for (std::size_t k = 0; k < rows * cols; ++k) a.view<float>()[k] = float(k % 7);
    i.outputs.push_back(std::move(a));
    r.impls.push_back(std::move(i));
  }
  WorkloadInfo info;
  info.outputs = {{.name = "img", .title = "img", .plot = PlotKind::Image}};
  o->prepared = prepareRun(r, info);
  return o;
}

/// Shows `view` at 900 x 300 and gives it a rows x cols image (cuda against cpu-serial); false when its window
/// never showed.
bool showImage(OutputView& view, std::size_t rows, std::size_t cols) {
  QWidget* plot = view.widget();
  plot->resize(900, 300);
  plot->show();
  if (!QTest::qWaitForWindowExposed(plot)) return false;
  ViewData d;
  d.spec = {.name = "img", .title = "img", .plot = PlotKind::Image};
  d.outcome = imageOutcome(rows, cols);
  d.source = "cuda";
  d.reference = "cpu-serial";
  view.setData(d);
  return true;
}

/// A waveform workload's run: y[i] = i / 10 for every implementation, 1000 elements.
std::shared_ptr<RunOutcome> waveformOutcome(const WorkloadInfo& info) {
  auto o = std::make_shared<RunOutcome>();
  RunResult& r = o->result;
  r.workload = info.id;
  r.n = 1000;
  for (const char* id : {"cpu-serial", "cuda-a"}) {
    ImplResult i;
    i.implId = i.title = id;
    i.gpu = std::string(id) != "cpu-serial";
    HostArray y("y", DType::F32, std::vector<std::size_t>{1000});
    for (std::size_t k = 0; k < 1000; ++k) y.view<float>()[k] = float(k) / 10.0f;
    i.outputs.push_back(std::move(y));
    r.impls.push_back(std::move(i));
  }
  o->prepared = prepareRun(r, info, 512);
  return o;
}

class WaveWorkload final : public Workload {
 public:
  WaveWorkload(const char* id) {
    m_info.id = id;
    m_info.title = id;
    m_info.outputs = {{"y", "y values", PlotKind::Waveform, "index", "y"}};
  }
  const WorkloadInfo& info() const override { return m_info; }
  const std::vector<ImplSpec>& impls() const override { return m_impls; }
  std::vector<HostArray> makeInputs(const RunSetup&) const override { return {}; }
  std::vector<HostArray> makeOutputs(const RunSetup&) const override { return {}; }

 private:
  WorkloadInfo m_info;
  std::vector<ImplSpec> m_impls;
};

QStringList legendNames(QCustomPlot* plot) {
  QStringList out;
  for (int i = 0; i < plot->legend->itemCount(); ++i)
    if (auto* item = qobject_cast<QCPPlottableLegendItem*>(plot->legend->item(i))) out << item->plottable()->name();
  return out;
}

}  // namespace

class TestCharts : public QObject {
  Q_OBJECT
 private slots:
  void axisFollowsMediansNotOutliers() {
    const TimingChartData c = timingChart(outlierRun());
    QCOMPARE(c.maxMedianMs, 1.0);
    const TimingAxis a = timingAxis(c, false, 1.0, 0.3);
    QVERIFY2(a.hi < 5, "a 100x outlier must not set the axis");
    QCOMPARE(a.clipMs, 1.15);
    QVERIFY(std::fabs(a.hi - 1.15 / 0.7) < 1e-12);  // 30% of the width right of the clip edge for labels
    const TimingAxis l = timingAxis(c, true, 1.0, 0.5);
    QVERIFY(l.hi > l.clipMs * 1.5);
    const auto [end, clipped] = drawnWhiskerEnd(c.bars[0], a, 1.0);
    QVERIFY(clipped);
    QCOMPARE(end, a.clipMs);
    QVERIFY(!drawnWhiskerEnd(c.bars[1], a, 1.0).second);
    // The widget draws the clip mark and keeps the axis on the medians.
    TimingChart chart(nullptr);
    chart.setResult(outlierRun());
    auto* plot = qobject_cast<QCustomPlot*>(chart.widget());
    QVERIFY(plot->xAxis->range().upper < 5);
    QVERIFY2(plot->legend->visible() && plot->legend->itemCount() >= 1, "the phase legend is shown under the chart");
    int marks = 0;
    for (int i = 0; i < plot->itemCount(); ++i) marks += plot->item(i)->objectName() == "clipped";
    QCOMPARE(marks, 1);
  }
  void smallSpeedupsKeepTheirDigits() {
    QCOMPARE(speedupText(0.0031), std::string("0.0031x"));
    QCOMPARE(speedupText(0.31), std::string("0.31x"));
    QCOMPARE(speedupText(12.345), std::string("12.3x"));
    QCOMPARE(speedupText(0.000123), std::string("0.00012x"));
  }
  void noisyMeasurementIsFlagged() {
    QVERIFY(isNoisy(1.0, 100.0));
    QVERIFY(!isNoisy(1.0, 1.5));
    QVERIFY(!isNoisy(0.0, 1.0));
    const TimingChartData c = timingChart(outlierRun());
    QVERIFY(c.bars[0].noisy);
    QVERIFY(c.bars[0].label.find("noisy") != std::string::npos);
    QVERIFY(!c.bars[1].noisy);
    QVERIFY(c.bars[1].label.find("333x") != std::string::npos);
  }
  /// Every bar's label (speedup, reference, "noisy", skipped) ends inside the plot at the widths the timing tab
  /// has on a 1280x720 screen and wider: none runs off the right edge.
  void barLabelsStayInsideTheChart() {
    for (const auto& [run, width, bars] :
         {std::tuple{outlierRun(), 520, 2}, std::tuple{outlierRun(), 900, 2}, std::tuple{histogramLikeRun(), 610, 5},
          std::tuple{histogramLikeRun(), 900, 5}}) {
      TimingChart chart(nullptr);
      auto* plot = qobject_cast<QCustomPlot*>(chart.widget());
      plot->resize(width, 300);
      plot->show();
      QVERIFY(QTest::qWaitForWindowExposed(plot));
      chart.setResult(run);
      plot->replot();
      QCOMPARE(plot->width(), width);
      int labels = 0;
      for (int i = 0; i < plot->itemCount(); ++i)
        if (auto* t = qobject_cast<QCPItemText*>(plot->item(i));
            t && t->visible() && !t->text().isEmpty() && t->objectName() != "clipped") {
          const double left = t->position->pixelPosition().x() + t->padding().left();
          const double right = left + QFontMetrics(t->font()).horizontalAdvance(t->text());
          QVERIFY2(right <= plot->axisRect()->rect().right() + 1, qPrintable(QString("'%1' ends at %2 > %3 (width %4)")
                                                                                 .arg(t->text())
                                                                                 .arg(right)
                                                                                 .arg(plot->axisRect()->rect().right())
                                                                                 .arg(width)));
          ++labels;
        }
      QCOMPARE(labels, bars);
    }
  }
  /// A matrix keeps square cells whatever the plot's shape (a 4096 x 4096 transpose was a 5:1 band), the whole
  /// image in view; an array too elongated for that (1 x 4096) fills the plot instead.
  void imagesKeepSquarePixels() {
    for (const auto& [rows, cols, square] : {std::tuple{100, 100, true}, std::tuple{64, 256, true},
                                             std::tuple{300, 40, true}, std::tuple{1, 4096, false}}) {
      auto view = createQcpOutputView(PlotKind::Image, nullptr);
      auto* plot = qobject_cast<QCustomPlot*>(view->widget());
      QVERIFY(showImage(*view, std::size_t(rows), std::size_t(cols)));
      plot->replot();
      const double px = std::fabs(plot->xAxis->coordToPixel(1) - plot->xAxis->coordToPixel(0));
      const double py = std::fabs(plot->yAxis->coordToPixel(1) - plot->yAxis->coordToPixel(0));
      const QString what = QString("%1 x %2: cell %3 x %4 px").arg(rows).arg(cols).arg(px).arg(py);
      if (square) {
        QVERIFY2(std::fabs(px / py - 1) < 0.02, qPrintable(what));
        QVERIFY2(plot->xAxis->range().lower <= 0.01 && plot->xAxis->range().upper >= cols - 0.01, qPrintable(what));
        QVERIFY2(plot->yAxis->range().lower <= 0.01 && plot->yAxis->range().upper >= rows - 0.01, qPrintable(what));
      } else {
        QVERIFY2(py > 10 * px, qPrintable(what));
      }
    }
  }
  /// A plot laid out at passing sizes (narrow, then tall, then its final size, as the stage's layouts go) fits the
  /// whole image at the last one: one axis spans the image exactly, the other its square-pixel width, not the
  /// margins of the sizes before (a 32 x 128 image was once drawn as a strip in a plot zoomed out both ways).
  void anImageFitsItsLastSizeNotTheSizesBefore() {
    auto view = createQcpOutputView(PlotKind::Image, nullptr);
    auto* plot = qobject_cast<QCustomPlot*>(view->widget());
    QVERIFY(showImage(*view, 32, 128));
    for (const QSize size : {QSize(60, 600), QSize(600, 60), QSize(1400, 500)}) {
      plot->resize(size);
      plot->replot();
    }
    const QCPRange x = plot->xAxis->range(), y = plot->yAxis->range();
    const bool xExact = std::fabs(x.lower) < 0.01 && std::fabs(x.upper - 128) < 0.01;
    const bool yExact = std::fabs(y.lower) < 0.01 && std::fabs(y.upper - 32) < 0.01;
    QVERIFY2(xExact || yExact,
             qPrintable(QString("x %1 .. %2, y %3 .. %4").arg(x.lower).arg(x.upper).arg(y.lower).arg(y.upper)));
    QVERIFY(x.lower <= 0.01 && x.upper >= 127.99 && y.lower <= 0.01 && y.upper >= 31.99);
  }
  /// A histogram whose spec asks for a log value axis (z_mass's spectrum) gets one with its first data, decades
  /// of counts visible; the window's Log y box still switches it; other histograms stay linear.
  void histogramHonoursTheSpecsLogY() {
    auto o = std::make_shared<RunOutcome>();
    o->result.workload = "spectrum";
    ImplResult i;
    i.implId = i.title = "cpu-serial";
    HostArray counts("hist", DType::U32, std::vector<std::size_t>{120});
    for (std::size_t b = 0; b < 120; ++b) counts.view<std::uint32_t>()[b] = b == 91 ? 100000u : 10u;
    i.outputs = {counts};
    o->result.impls.push_back(std::move(i));
    for (bool logY : {true, false}) {
      auto view = createQcpOutputView(PlotKind::Histogram, nullptr);
      auto* plot = qobject_cast<QCustomPlot*>(view->widget());
      ViewData d;
      d.spec = {.name = "hist",
                .title = "spectrum",
                .plot = PlotKind::Histogram,
                .dtype = DType::U32,
                .xMin = 0.0,
                .xMax = 120.0,
                .logY = logY};
      d.outcome = o;
      d.source = "cpu-serial";
      view->setData(d);
      QCOMPARE(plot->yAxis->scaleType() == QCPAxis::stLogarithmic, logY);
      if (logY) QVERIFY(plot->yAxis->range().lower >= 0.5 && plot->yAxis->range().upper >= 100000);
      view->setLogY(!logY);  // the box
      QCOMPARE(plot->yAxis->scaleType() == QCPAxis::stLogarithmic, !logY);
      view->setData(d);  // the next run keeps the box's choice
      QCOMPARE(plot->yAxis->scaleType() == QCPAxis::stLogarithmic, !logY);
    }
  }
  void timingChartMarksStale() {
    TimingChart chart(nullptr);
    chart.setResult(outlierRun());
    chart.markStale("Timing: press Run to time hypot");
    QVERIFY(chart.data().bars.empty());
    QCOMPARE(chart.titleText(), QString("Timing: press Run to time hypot"));
  }
  void placeholdersHaveNoGraphLegend() {
    for (PlotKind k : {PlotKind::Waveform, PlotKind::Scatter, PlotKind::Histogram, PlotKind::Image, PlotKind::Scalar,
                       PlotKind::Series, PlotKind::Points}) {
      auto view = createQcpOutputView(k, nullptr);
      view->showMessage("Press Run");
      auto* plot = qobject_cast<QCustomPlot*>(view->widget());
      QVERIFY2(!plot->legend->visible(), "a legend over a message lists unnamed series as Graph 1, Graph 2");
      // No stray items: the scalar view's exact-value line stays hidden without data.
      for (int i = 0; i < plot->itemCount(); ++i)
        if (qobject_cast<QCPItemStraightLine*>(plot->item(i))) QVERIFY(!plot->item(i)->visible());
    }
  }
  void legendAfterDataHasNoGraphItems() {
    WaveWorkload w("wave");
    OutputsPane pane;
    pane.setWorkload(w, "Press Run");
    pane.setOutcome(waveformOutcome(w.info()));
    auto* plot = qobject_cast<QCustomPlot*>(pane.view(0)->widget());
    QVERIFY(plot->legend->visible());
    const QStringList names = legendNames(plot);
    QVERIFY(!names.isEmpty());
    for (const QString& n : names) QVERIFY2(!n.startsWith("Graph"), qPrintable(n));
  }
  void placeholderWhileRunning() {
    WaveWorkload w("wave");
    OutputsPane pane;
    pane.setWorkload(w, "Press Run (Ctrl+R) to run wave");
    QCOMPARE(pane.placeholder(), QString("Press Run (Ctrl+R) to run wave"));
    pane.showRunning();
    QCOMPARE(pane.placeholder(), QString("Running\xE2\x80\xA6"));
    pane.setOutcome(waveformOutcome(w.info()));
    QVERIFY(pane.placeholder().isEmpty());
    pane.showRunning();  // a rerun keeps the last result of this workload until the new one comes
    QVERIFY(pane.placeholder().isEmpty());
  }
  void switchingWorkloadDropsTheShowList() {
    WaveWorkload a("wave_a"), b("wave_b");
    OutputsPane pane;
    pane.setWorkload(a, {});
    pane.setOutcome(waveformOutcome(a.info()));
    QCOMPARE(pane.shownImpl(), std::string("cuda-a"));
    pane.setWorkload(b, "Press Run (Ctrl+R) to run wave_b");
    QCOMPARE(pane.shownImpl(), std::string());
    QCOMPARE(pane.view(0)->drawnPoints(), 0);
  }
  void zoomStatusFollowsTheRange() {
    WaveWorkload w("wave");
    OutputsPane pane;
    pane.resize(800, 500);
    pane.setWorkload(w, {});
    pane.setOutcome(waveformOutcome(w.info()));
    QVERIFY2(pane.summaryText().startsWith("1,000 of 1,000"), qPrintable(pane.summaryText()));
    auto* plot = qobject_cast<QCustomPlot*>(pane.view(0)->widget());
    plot->xAxis->setRange(100, 199);
    QVERIFY2(pane.summaryText().startsWith("100 of 1,000"), qPrintable(pane.summaryText()));
  }
  void colourBarLabelsNameTheValues() {
    Registry reg;
    kernels::registerAllWorkloads(reg);
    const Workload* cov = reg.find("launch_coverage");
    QVERIFY(cov);
    QVERIFY(cov->info().outputs[0].yLabel.find("block") != std::string::npos);
    if (const Workload* rn = reg.find("row_normalize")) {
      QVERIFY(rn->info().outputs[0].yLabel != "row");
      QVERIFY(rn->info().outputs[0].yLabel.find("mean") != std::string::npos);
    }
    // The image view puts the spec's value label on its colour scale.
    test::Fake2D fake;
    OutputsPane pane;
    pane.setWorkload(fake, {});
    auto o = std::make_shared<RunOutcome>();
    o->result.workload = "fake_2d";
    ImplResult i;
    i.implId = i.title = "cpu-serial";
    i.outputs.emplace_back("sq", DType::F32, std::vector<std::size_t>{48, 64});
    i.outputs.emplace_back("hist", DType::U32, std::vector<std::size_t>{16});
    o->result.impls.push_back(std::move(i));
    o->prepared = prepareRun(o->result, fake.info(), 512);
    pane.setOutcome(o);
    auto* scale = pane.view(0)->widget()->findChild<QCPColorScale*>();
    QVERIFY(scale);
    QCOMPARE(scale->axis()->label(), QString("value"));
  }
  void sweepTabSaysWhyWithoutGpu() {
    RunController controller(std::make_shared<test::FakeBackend>());  // no GPU
    SweepPane pane(controller);
    pane.updateControls(true);
    QVERIFY(!pane.button()->isEnabled());
    QVERIFY2(pane.unavailableText().contains("No GPU"), qPrintable(pane.unavailableText()));
    auto* plot = qobject_cast<QCustomPlot*>(pane.chart()->widget());
    QVERIFY2(!plot->legend->visible(), "no empty legend before a sweep");
  }
  void hoverReadsOutThePoint() {
    QCOMPARE(readoutText("index", 5, "y", 0.5), std::string("index = 5\ny = 0.5"));
    WaveWorkload w("wave");
    OutputsPane pane;
    pane.resize(900, 600);
    pane.setWorkload(w, {});
    pane.setOutcome(waveformOutcome(w.info()));
    auto* plot = qobject_cast<QCustomPlot*>(pane.view(0)->widget());
    plot->xAxis->setRange(0, 20);
    plot->replot();
    auto* hover = plot->findChild<PlotInteraction*>();
    QVERIFY(hover);
    hover->hoverAt(QPointF(plot->xAxis->coordToPixel(5), plot->yAxis->coordToPixel(0.5)));
    QVERIFY2(hover->text().contains("index 5") && hover->text().contains("= 0.5"), qPrintable(hover->text()));
    hover->hoverAt(QPointF(-10, -10));  // outside the axes: hidden
    QVERIFY(hover->text().isEmpty());
  }
  void randomElementwiseStartsOnTheFirstElements() {
    // A ramp is a readable curve; uniform noise decimates to a solid band.
    HostArray ramp("r", DType::F32, std::vector<std::size_t>{100000}),
        noise("n", DType::F32, std::vector<std::size_t>{100000});
    std::uint32_t state = 12345;
    for (std::size_t k = 0; k < 100000; ++k) {
      state = state * 1664525u + 1013904223u;
      ramp.view<float>()[k] = float(k);
      noise.view<float>()[k] = float(state >> 8) / float(1 << 24);
    }
    const auto rr = finiteRange(ramp), nr = finiteRange(noise);
    QVERIFY(!looksLikeNoise(decimateMinMax(ramp, 0, 100000, 256), rr.first, rr.second));
    QVERIFY(looksLikeNoise(decimateMinMax(noise, 0, 100000, 256), nr.first, nr.second));
    const XY first = elementPoints(noise, 0, kFirstWindow);
    QCOMPARE(first.size(), kFirstWindow);
    QCOMPARE(first.y[5], double(noise.view<float>()[5]));
    // The view: out = x + y of random x, y starts on 64 elements, with both inputs drawn beside it.
    WorkloadInfo info;
    info.id = "add";
    info.inputs = {{"x", "x"}, {"y", "y"}};
    info.outputs = {{"out", "out = x + y", PlotKind::Waveform, "index", "x + y"}};
    auto o = std::make_shared<RunOutcome>();
    o->result.workload = "add";
    o->result.n = 100000;
    HostArray x = noise, y = noise;
    x.setName("x");
    y.setName("y");
    o->result.inputs = {x, y};
    ImplResult i;
    i.implId = i.title = "cpu-serial";
    HostArray out = noise;
    out.setName("out");
    i.outputs.push_back(out);
    o->result.impls.push_back(std::move(i));
    o->prepared = prepareRun(o->result, info, 512);
    auto view = createQcpOutputView(PlotKind::Waveform, nullptr);
    ViewData d;
    d.spec = info.outputs[0];
    d.outcome = o;
    d.source = "cpu-serial";
    view->setData(d);
    auto* plot = qobject_cast<QCustomPlot*>(view->widget());
    QVERIFY(plot->xAxis->range().size() < 70);
    QCOMPARE(view->drawnPoints(), int(kFirstWindow));
    QVERIFY(view->summary().startsWith("64 of 100,000"));
    const QStringList names = legendNames(plot);
    QVERIFY2(names.contains("input x") && names.contains("input y"), qPrintable(names.join(", ")));
    view->showAll();
    QVERIFY(plot->xAxis->range().size() > 99000);
    QVERIFY(!legendNames(plot).contains("input x"));
  }
  void visibleIndicesAreTheElementsInsideTheRange() {
    QCOMPARE(visibleIndices(-0.5, 63.5, 1000), std::make_pair(std::size_t(0), std::size_t(64)));
    QCOMPARE(visibleIndices(2.0, 5.0, 1000), std::make_pair(std::size_t(2), std::size_t(6)));
    QCOMPARE(visibleIndices(990.2, 2000, 1000), std::make_pair(std::size_t(991), std::size_t(1000)));
    QCOMPARE(visibleIndices(-10, -5, 1000), std::make_pair(std::size_t(0), std::size_t(0)));
    QCOMPARE(visibleIndices(3.2, 3.8, 1000), std::make_pair(std::size_t(4), std::size_t(4)));
  }
  void scalarShowsTheDifference() {
    HostArray a("pi", DType::F64, std::vector<std::size_t>{1});
    a.view<double>()[0] = 3.14166;
    ArraySpec spec;
    spec.referenceValue = M_PI;
    const ScalarValue s = scalarValue(a, spec);
    QVERIFY(std::fabs(scalarDifference(s, std::nullopt) - (3.14166 - M_PI)) < 1e-12);
    QCOMPARE(scalarLabel(s, std::nullopt), std::string("3.14166\n+6.73e-05 from exact (relative 2.14e-05)"));
    ArraySpec sum;  // no exact value: the difference from the reference implementation's value
    const ScalarValue t = scalarValue(a, sum);
    QCOMPARE(scalarLabel(t, 3.14), std::string("3.14166\n+0.00166 from the reference"));
    QCOMPARE(scalarLabel(t, std::nullopt), std::string("3.14166\n(the reference)"));
    // A count (the race's counter) is a whole number, never "-4.1e+03".
    HostArray counter("counter", DType::I32, std::vector<std::size_t>{1});
    counter.view<std::int32_t>()[0] = 1;
    const ScalarValue c = scalarValue(counter, sum);
    QCOMPARE(scalarLabel(c, 4096.0), std::string("1\n-4095 from the reference"));
    QCOMPARE(scalarLabel(c, std::nullopt), std::string("1\n(the reference)"));
    QCOMPARE(scalarLabel(c, 1.0), std::string("1\n+0 from the reference"));
  }
  void pointsViewSplitsInsideFromOutsideAndCountsDistinctPoints() {
    auto o = std::make_shared<RunOutcome>();
    o->result.workload = "mc";
    ImplResult i;
    i.implId = i.title = "cuda-shared-seed";
    HostArray pts("points", DType::F64, std::vector<std::size_t>{3, 4});
    // (0.5, 0.5) twice (a repeated random stream) and (0.1, 0.2) inside, (0.9, 0.9) outside.
    const double v[12] = {0.5, 0.5, 0.9, 0.1, 0.5, 0.5, 0.9, 0.2, 1, 1, 0, 1};
    std::copy(v, v + 12, pts.view<double>().begin());
    i.outputs = {pts};
    o->result.impls.push_back(std::move(i));
    ViewData d;
    d.spec = {.name = "points", .title = "points", .plot = PlotKind::Points, .xLabel = "x", .yLabel = "y"};
    d.outcome = o;
    d.source = "cuda-shared-seed";
    auto view = createQcpOutputView(PlotKind::Points, nullptr);
    view->setData(d);
    QCOMPARE(view->summary(), QString("4 points, 3 distinct"));
    QCOMPARE(view->drawnPoints(), 4);
    auto* plot = qobject_cast<QCustomPlot*>(view->widget());
    QCOMPARE(plot->graph(0)->dataCount(), 3);                                            // inside
    QCOMPARE(plot->graph(1)->dataCount(), 1);                                            // outside
    QVERIFY(plot->xAxis->range().lower <= -0.02 && plot->xAxis->range().upper >= 1.02);  // the whole square
    QVERIFY(plot->yAxis->range().lower <= -0.02 && plot->yAxis->range().upper >= 1.02);
    // Points of monte_carlo_area's Mandelbrot box (-2, 1) x (-1.5, 1.5): the view widens to them.
    const double m[6] = {-1.9, 0.9, -1.4, 1.4, 1, 0};
    HostArray box("points", DType::F64, std::vector<std::size_t>{3, 2});
    std::copy(m, m + 6, box.view<double>().begin());
    o->result.impls.front().outputs = {box};
    view->setData(d);
    QVERIFY(plot->xAxis->range().lower <= -1.9 && plot->xAxis->range().upper >= 1.0);
    QVERIFY(plot->yAxis->range().lower <= -1.4 && plot->yAxis->range().upper >= 1.4);
  }
  void convergenceHasExactLineAndBand() {
    QVERIFY(std::fabs(hitOrMissSigma(M_PI, 1e6) - 4 * std::sqrt(M_PI / 4 * (1 - M_PI / 4) / 1e6)) < 1e-15);
    // The Mandelbrot set's area from a box of 9: p = 1.50659 / 9 = 0.167399, sigma = 9 sqrt(p (1 - p) / n).
    QVERIFY(std::fabs(hitOrMissSigma(1.50659, 1e6, 9) - 9 * std::sqrt(0.16739888 * 0.83260112 / 1e6)) < 1e-8);
    QVERIFY(std::isnan(hitOrMissSigma(10, 1e6, 9)));  // more than the box: no band
    const Band b = hitOrMissBand(M_PI, 1, 1e6);
    QVERIFY(b.x.size() > 10);
    QVERIFY(b.upper.back() - b.lower.back() < b.upper.front() - b.lower.front());
    WorkloadInfo info;
    info.id = "mc";
    info.outputs = {{"pi", "pi", PlotKind::Scalar}, {"conv", "conv", PlotKind::Series, "samples", "estimate of pi"}};
    info.outputs[0].referenceValue = M_PI;
    struct Mc final : Workload {
      WorkloadInfo i;
      std::vector<ImplSpec> none;
      const WorkloadInfo& info() const override { return i; }
      const std::vector<ImplSpec>& impls() const override { return none; }
      std::vector<HostArray> makeInputs(const RunSetup&) const override { return {}; }
      std::vector<HostArray> makeOutputs(const RunSetup&) const override { return {}; }
    } w;
    w.i = info;
    auto o = std::make_shared<RunOutcome>();
    o->result.workload = "mc";
    ImplResult i;
    i.implId = i.title = "cpu-serial";
    HostArray pi("pi", DType::F64, std::vector<std::size_t>{1});
    pi.view<double>()[0] = 3.1416;
    HostArray conv("conv", DType::F64, std::vector<std::size_t>{2, 4});
    const double xs[4] = {1e3, 1e4, 1e5, 1e6}, ys[4] = {3.2, 3.13, 3.143, 3.1417};
    for (int k = 0; k < 4; ++k)
      conv.view<double>()[std::size_t(k)] = xs[k], conv.view<double>()[std::size_t(4 + k)] = ys[k];
    i.outputs = {pi, conv};
    o->result.impls.push_back(std::move(i));
    o->prepared = prepareRun(o->result, info, 512);
    OutputsPane pane;
    pane.setWorkload(w, {});
    pane.setOutcome(o);
    auto* plot = qobject_cast<QCustomPlot*>(pane.view(1)->widget());
    const QStringList names = legendNames(plot);
    QVERIFY2(names.filter("exact value 3.14159").size() == 1, qPrintable(names.join(", ")));
    QVERIFY2(names.filter("\xCF\x83").size() == 1, qPrintable(names.join(", ")));
    QVERIFY(plot->xAxis->range().lower < 1e3 && plot->xAxis->range().upper > 1e6);  // end markers whole
    // The scalar tab labels the value with its difference from pi.
    auto* scalarPlot = qobject_cast<QCustomPlot*>(pane.view(0)->widget());
    bool found = false;
    for (int k = 0; k < scalarPlot->itemCount(); ++k)
      if (auto* t = qobject_cast<QCPItemText*>(scalarPlot->item(k))) found |= t->text().contains("from exact");
    QVERIFY(found);
  }
};

QTEST_MAIN(TestCharts)
#include "test_charts.moc"
