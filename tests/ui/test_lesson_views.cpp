// Lessons that show their lesson: the first call against the later calls (s3-caching), the coalesced and strided
// sector maps side by side (es-coalescing), the hidden layer's overlapped copies on an axis that fits the CUDA bars
// (tp31-nn-hidden-layer), and the lesson banner's one sentence (tp32-coverage-too-few). The data is tested as plain
// functions; the window runs each experiment's CPU part here, then opens a run file carrying GPU results made from
// it, as a run on the H200 would come back.
#include <qcustomplot.h>

#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include "app/gui_wiring.h"
#include "launchlab/engine/overlapped_pipeline.h"
#include "launchlab/files/run_file.h"
#include "models/chart_data.h"
#include "plot_texts.h"
#include "plots/charts.h"
#include "plots/lesson_data.h"
#include "plots/outputs_pane.h"
#include "window/banner.h"
#include "window/main_window.h"
#include "window_helpers.h"

using namespace launchlab;
using namespace launchlab::ui;
using test::anyContains;
using test::textsOf;

namespace {

ImplResult gpuImpl(const std::string& id, const std::string& title, std::map<Phase, double> medians) {
  ImplResult i;
  i.implId = id;
  i.title = title;
  i.gpu = true;
  double total = 0;
  for (const auto& [p, ms] : medians) {
    i.phases[p] = {ms, ms, ms, 3};
    total += ms;
  }
  i.phases[Phase::Total] = {total, total, total, 3};
  return i;
}

}  // namespace

class TestLessonViews : public QObject {
  Q_OBJECT
  std::unique_ptr<MainWindow> m_window;
  QTemporaryDir m_dir;

  /// Opens course experiment `id` and runs its CPU part here; the result shown.
  RunResult runExperiment(const QString& id) {
    if (!m_window->openCourseExperiment(id)) return {};
    QSignalSpy shown(m_window.get(), &MainWindow::runDisplayed);
    m_window->startFirstRun();
    if (!shown.wait(60000)) return {};
    return m_window->results().last()->result;
  }
  /// Shows `r` as a run file would bring it back from a GPU machine.
  bool openAsRunFile(const RunResult& r, const QString& name) {
    const QString path = m_dir.filePath(name);
    runfile::save(path.toStdString(), r);
    return m_window->runFiles().open(path);
  }
  QWidget* viewWidget(const std::string& name) {
    const int i = m_window->desk().outputsPane()->indexOfView(name);
    return i >= 0 ? m_window->desk().outputsPane()->view(i)->widget() : nullptr;
  }

 private slots:
  void initTestCase() {
    m_window = test::openWindow(app::makeEngineBackend(), m_dir.filePath("presets"));
    QVERIFY(QTest::qWaitForWindowExposed(m_window.get()));
  }

  // ---- plain data ----

  void firstCallBarsComeFromTheMetricsOrSayWhatIsMissing() {
    RunResult r;
    ImplResult cpu;
    cpu.implId = "cpu-parallel";
    cpu.title = "CPU parallel (OpenMP)";
    r.impls.push_back(cpu);
    ImplResult nvrtc = gpuImpl("cuda-nvrtc-first-call", "CUDA compiled at run time (NVRTC)", {{Phase::Kernel, 0.05}});
    nvrtc.status = Status::Skipped;
    nvrtc.reason = "no CUDA device";
    r.impls.push_back(nvrtc);
    FirstCallBars b = firstCallBars(r);
    QVERIFY(b.firstMs == 0 && b.laterMs == 0);
    QCOMPARE(b.implId, std::string("cuda-nvrtc-first-call"));  // the title still names it
    QVERIFY2(QString::fromStdString(b.missing).contains("CUDA compiled at run time (NVRTC) did not run here (no CUDA "
                                                        "device)"),
             b.missing.c_str());
    QVERIFY2(QString::fromStdString(b.missing).contains("thread team"), b.missing.c_str());
    r.impls[1].status = Status::Ok;
    r.impls[1].metrics = {{"first_call_ms", 29.1}, {"later_call_ms", 0.057}, {"compile_ms", 27.4}};
    b = firstCallBars(r);
    QVERIFY(b.missing.empty());
    QCOMPARE(b.impl, std::string("CUDA compiled at run time (NVRTC)"));
    QCOMPARE(b.implId, std::string("cuda-nvrtc-first-call"));
    QCOMPARE(b.compileMs, 27.4);
    QCOMPARE(timesText(b.ratio), std::string("511\xC3\x97"));
    QCOMPARE(msText(b.firstMs), std::string("29.1 ms"));
    QCOMPARE(msText(b.laterMs), std::string("0.0570 ms"));
    QCOMPARE(msText(1234.4), std::string("1234 ms"));
    QCOMPARE(timesText(3.21), std::string("3.2\xC3\x97"));
  }

  void sectorPanelsSplitAtTheBetweenColumnAndPreferTheCounters() {
    // Two lanes, 2 coalesced sectors | between | 3 strided ones.
    HostArray a("sectors", DType::I32, std::vector<std::size_t>{2, 6});
    const std::int32_t cells[] = {2, 0, -1, 1, 0, 0,  //
                                  2, 0, -1, 0, 0, 1};
    std::copy(std::begin(cells), std::end(cells), a.view<std::int32_t>().begin());
    RunResult r;
    r.impls.push_back(gpuImpl("cuda-strided", "CUDA strided", {{Phase::Kernel, 1}}));
    ImplCounters c;
    c.values = {{"sectors_per_request", 32.0}};
    r.impls.back().counters = c;
    const auto panels = sectorPanels(a, r);
    QCOMPARE(panels.size(), std::size_t(2));
    QCOMPARE(panels[0].implId, std::string("cuda-coalesced"));
    QCOMPARE(panels[0].title, std::string("cuda-coalesced"));  // did not run: named by its id
    QCOMPARE(panels[0].cols, std::size_t(2));
    QCOMPARE(panels[0].cells, (std::vector<std::int32_t>{2, 0, 2, 0}));
    QCOMPARE(sectorsPerRequestText(panels[0]), std::string("1.00 sectors / request"));
    QCOMPARE(sectorsSourceText(panels[0]), std::string("counted from warp 0's map"));
    QCOMPARE(panels[1].title, std::string("CUDA strided"));
    QCOMPARE(panels[1].cols, std::size_t(3));
    QCOMPARE(panels[1].cells, (std::vector<std::int32_t>{1, 0, 0, 0, 0, 1}));
    QCOMPARE(sectorsPerRequestText(panels[1]), std::string("32.00 sectors / request"));
    QCOMPARE(sectorsSourceText(panels[1]), std::string("measured by the counters"));
    HostArray plain("sectors", DType::I32, std::vector<std::size_t>{2, 2});
    QVERIFY(sectorPanels(plain, r).empty());  // no between column: not the two maps
  }

  void overlappedPipelinesAreTheirOwnSegmentAndTheAxisCanFitTheGpuBars() {
    RunResult r;
    ImplResult cpu;
    cpu.implId = "cpu-serial";
    cpu.title = "CPU serial";
    cpu.phases[Phase::Cpu] = cpu.phases[Phase::Total] = {7.0, 7.0, 7.0, 3};
    r.impls.push_back(cpu);
    r.impls.push_back(
        gpuImpl("cuda-fused", "CUDA one fused kernel", {{Phase::H2D, 0.3}, {Phase::Kernel, 0.02}, {Phase::D2H, 0.1}}));
    r.impls.push_back(gpuImpl("cuda-streams", "CUDA streams", {{Phase::Kernel, 0.25}}));
    r.impls.back().metrics[kOverlappedPipelineMetric] = 1;
    const TimingChartData c = timingChart(r);
    QVERIFY(c.overlappedShown);
    QVERIFY(c.bars[2].segments.front().overlapped);
    QVERIFY(!c.bars[1].segments[1].overlapped);
    // The kernel-first label never calls the overlapped pipeline a kernel.
    const TimingChartData k = leadWithKernel(c, true);
    QCOMPARE(k.bars[2].label, k.bars[2].plainLabel);
    QVERIFY(QString::fromStdString(k.bars[1].label).startsWith("kernel 20"));
    const TimingChartData fit = fitToGpuBars(c);
    QVERIFY(fit.gpuFit);
    QCOMPARE(fit.maxMedianMs, 0.42);
    QCOMPARE(c.maxMedianMs, 7.0);
    r.impls.erase(r.impls.begin() + 1, r.impls.end());
    QVERIFY(!fitToGpuBars(timingChart(r)).gpuFit);  // no GPU bar: nothing to fit
    // The chart draws it as its own hatched series, named in the legend; fitted, the CPU bar stops at the clip edge.
    r = RunResult{};
    r.impls = {cpu, gpuImpl("cuda-streams", "CUDA streams", {{Phase::Kernel, 0.25}})};
    r.impls.back().metrics[kOverlappedPipelineMetric] = 1;
    TimingChart chart(nullptr);
    chart.setGpuFit(true);
    chart.setResult(r);
    auto* plot = qobject_cast<QCustomPlot*>(chart.widget());
    plot->resize(900, 400);
    plot->replot(QCustomPlot::rpImmediateRefresh);
    QStringList names;
    for (int i = 0; i < plot->plottableCount(); ++i) names << plot->plottable(i)->name();
    QVERIFY2(names.contains(kOverlappedLabel), qPrintable(names.join(", ")));
    QVERIFY2(!names.contains("kernel"), qPrintable(names.join(", ")));
    QVERIFY2(plot->xAxis->label().startsWith("microseconds, fitted to the GPU bars"), qPrintable(plot->xAxis->label()));
    int arrows = 0, whiskers = 0;  // the CPU bar past the end: an arrow at the edge, no whisker from its minimum
    for (int i = 0; i < plot->itemCount(); ++i) arrows += plot->item(i)->objectName() == "clipped";
    for (int i = 0; i < plot->plottableCount(); ++i)
      if (auto* e = qobject_cast<QCPErrorBars*>(plot->plottable(i))) whiskers += e->dataCount();
    QCOMPARE(arrows, 1);
    QCOMPARE(whiskers, 1);
    QVERIFY(plot->xAxis->range().upper < 7000);  // in µs: the CPU bar's 7 ms runs past the end
    chart.setLogScale(true);                     // a log axis holds every bar
    QVERIFY(!chart.data().gpuFit);
    QVERIFY(plot->xAxis->range().upper > 7.0);
  }

  // ---- the window ----

  void cachingOpensOnTheFirstCallAndSaysWhatIsMissingWithoutAGpu() {
    RunResult r = runExperiment("s3-caching");
    QVERIFY(!r.impls.empty());
    QCOMPARE(m_window->stage().stageView(), std::string(kFirstCallView));
    QCOMPARE(m_window->desk().outputsPane()->currentIndex(),
             m_window->desk().outputsPane()->indexOfView(kFirstCallView));
    QStringList texts = textsOf(viewWidget(kFirstCallView));
    // Where the CUDA variant ran (a GPU machine), its own first call is drawn; elsewhere, why there is none.
    const bool ran = std::any_of(r.impls.begin(), r.impls.end(), [](const ImplResult& i) {
      return i.implId == "cuda-nvrtc-first-call" && i.status == Status::Ok;
    });
    if (ran)
      QVERIFY2(anyContains(texts, "\xC3\x97 a later call"), qPrintable(texts.join("|")));
    else
      QVERIFY2(anyContains(texts, "did not run here") && anyContains(texts, "thread team"),
               qPrintable(texts.join("|")));
    // The GPU's run: the first call, its compile, the later call and the ratio, in milliseconds.
    for (auto& i : r.impls)
      if (i.implId == "cuda-nvrtc-first-call") {
        i = gpuImpl(i.implId, i.title, {{Phase::H2D, 0.01}, {Phase::Kernel, 0.04}, {Phase::D2H, 0.007}});
        i.metrics = {{"first_call_ms", 29.1}, {"later_call_ms", 0.057}, {"compile_ms", 27.4}};
      }
    QVERIFY(openAsRunFile(r, "caching.llrun"));
    texts = textsOf(viewWidget(kFirstCallView));
    QVERIFY2(anyContains(texts, "the first call takes 511\xC3\x97 a later call"), qPrintable(texts.join("|")));
    QVERIFY2(anyContains(texts, "against a later call CUDA compiled at run time (NVRTC)"), qPrintable(texts.join("|")));
    QVERIFY2(anyContains(texts, "29.1 ms (compile 27.4 ms)") && texts.contains("0.0570 ms"),
             qPrintable(texts.join("|")));
  }

  void coalescingShowsBothKernelsNamedWithTheirSectorsPerRequest() {
    RunResult r = runExperiment("es-coalescing");
    QVERIFY(!r.impls.empty());
    QCOMPARE(m_window->stage().stageView(), std::string("sectors"));
    auto* plot = qobject_cast<QCustomPlot*>(viewWidget("sectors"));
    QVERIFY(plot);
    QCOMPARE(plot->axisRectCount(), 2);
    QStringList texts = textsOf(plot);
    QVERIFY2(texts.contains("4.00 sectors / request") && texts.contains("32.00 sectors / request"),
             qPrintable(texts.join("|")));
    // Counted from the map, or measured where the run had counters (a GPU whose driver lets this user read them).
    // Measured: by the hardware counters (the H200, as root) or from the kernel's own accesses, named either way.
    QVERIFY2(texts.contains("CUDA coalesced, out[i] = a[i] + b[i] counted from warp 0's map") ||
                 texts.contains("CUDA coalesced, out[i] = a[i] + b[i] measured by the hardware counters") ||
                 anyContains(texts, "CUDA coalesced, out[i] = a[i] + b[i] measured from the kernel"),
             qPrintable(texts.join("|")));
    QCOMPARE(plot->axisRect(0)->axis(QCPAxis::atLeft)->label(), QString("lane (thread in warp 0)"));
    QCOMPARE(plot->axisRect(1)->axis(QCPAxis::atBottom)->label(), QString("sector (32 bytes)"));
    // A stepped key: one colour per whole lane count (8 lanes share a coalesced sector at f32), ticks on integers.
    QCPColorMap* map = nullptr;
    for (int i = 0; i < plot->plottableCount() && !map; ++i) map = qobject_cast<QCPColorMap*>(plot->plottable(i));
    QVERIFY(map);
    QCOMPARE(map->dataRange().lower, 0.5);
    QCOMPARE(map->dataRange().upper, 8.5);
    // Each count its own flat colour (the same, to rounding, near its band's edge), 1 the darkest.
    const auto near = [](QRgb a, QRgb b, int by) {
      return std::abs(qRed(a) - qRed(b)) <= by && std::abs(qGreen(a) - qGreen(b)) <= by &&
             std::abs(qBlue(a) - qBlue(b)) <= by;
    };
    QList<QRgb> colours;
    for (int v = 1; v <= 8; ++v) {
      QRgb c = 0, edge = 0;
      const double at[] = {double(v), v - 0.45};
      map->gradient().colorize(&at[0], map->dataRange(), &c, 1);
      map->gradient().colorize(&at[1], map->dataRange(), &edge, 1);
      QVERIFY(near(edge, c, 2));
      if (!colours.isEmpty()) QVERIFY(!near(colours.back(), c, 8));
      colours << c;
    }
    QVERIFY(qGray(colours.front()) < qGray(colours.back()));
    // Same-size square cells: the coalesced map's 4 sectors are an eighth of the strided map's 32 as drawn.
    const auto cellPx = [&](int rect) {
      QCPAxis* x = plot->axisRect(rect)->axis(QCPAxis::atBottom);
      return x->coordToPixel(1) - x->coordToPixel(0);
    };
    QVERIFY(std::abs(cellPx(0) - cellPx(1)) < 0.01);
    // The counters of a GPU run name each kernel's measured sectors per request.
    for (auto& i : r.impls)
      if (i.implId == "cuda-coalesced" || i.implId == "cuda-strided") {
        const std::string title = i.title;
        i = gpuImpl(i.implId, title, {{Phase::Kernel, 0.01}});
        i.outputs = r.find("cpu-serial")->outputs;
        ImplCounters c;
        c.values = {{"sectors_per_request", i.implId == "cuda-coalesced" ? 4.0 : 32.0}};
        i.counters = c;
      }
    QVERIFY(openAsRunFile(r, "coalescing.llrun"));
    texts = textsOf(viewWidget("sectors"));
    QVERIFY2(texts.contains("4.00 sectors / request") && texts.contains("32.00 sectors / request") &&
                 anyContains(texts, "strided, out[i] = a[s\u00B7i] + b[s\u00B7i] measured by the counters"),
             qPrintable(texts.join("|")));
  }

  void hiddenLayerDrawsOverlappedCopiesOnAnAxisFittedToTheCudaBars() {
    RunResult r = runExperiment("tp31-nn-hidden-layer");
    QVERIFY(!r.impls.empty());
    QVERIFY(m_window->desk().timingChart()->gpuFit());
    for (auto& i : r.impls)
      if (i.implId.starts_with("cuda-")) {
        const bool streams = i.implId == "cuda-fused-pinned-overlap";
        i = gpuImpl(i.implId, i.title,
                    streams
                        ? std::map<Phase, double>{{Phase::Kernel, 0.0025}}
                        : std::map<Phase, double>{{Phase::H2D, 0.004}, {Phase::Kernel, 0.0005}, {Phase::D2H, 0.002}});
        if (streams) i.metrics[kOverlappedPipelineMetric] = 1;
      }
    QVERIFY(openAsRunFile(r, "layer.llrun"));
    const TimingChartData& c = m_window->desk().timingChart()->data();
    QVERIFY(c.gpuFit && c.overlappedShown);
    QVERIFY(c.maxMedianMs < r.find("cpu-serial")->totalMedianMs());
    auto* plot = qobject_cast<QCustomPlot*>(m_window->desk().timingChart()->widget());
    QVERIFY2(plot->xAxis->label().contains("fitted to the GPU bars"), qPrintable(plot->xAxis->label()));
  }

  void theCoverageLessonIsOneSentenceUnderALessonIcon() {
    RunResult r = runExperiment("tp32-coverage-too-few");
    QVERIFY(!r.impls.empty());
    Banner* b = m_window->desk().errorBanner();
    QVERIFY(b->isVisible());
    QCOMPARE(b->level(), Banner::Level::Lesson);
    // The GPU's kernel without a bounds check shows the same lesson as the emulated launch: one sentence, both named.
    const ImplResult* emulated = r.find("cpu-emulated-launch");
    QVERIFY(emulated && emulated->showsLesson());
    for (auto& i : r.impls)
      if (i.implId == "cuda-no-bounds-check") {
        const std::string title = i.title;
        i = *emulated;
        i.implId = "cuda-no-bounds-check";
        i.title = title;
        i.gpu = i.demonstration = true;
      }
    QVERIFY(openAsRunFile(r, "coverage.llrun"));
    const QString text = b->text();
    QCOMPARE(b->level(), Banner::Level::Lesson);
    QCOMPARE(text.count("2048 of 4096 elements never written"), 1);
    QVERIFY2(text.contains("</b> and <b>"), qPrintable(text));
    QVERIFY2(!text.contains("guard zone") && !text.contains("Lesson:"), qPrintable(text));
  }

  void cleanupTestCase() { m_window.reset(); }
};

QTEST_MAIN(TestLessonViews)
#include "test_lesson_views.moc"
