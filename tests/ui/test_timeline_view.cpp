// The timeline view (PlotKind::Timeline): a Gantt chart of a synthetic two-stream timeline (one bar per operation,
// rows named by stream, a legend of the three engines, the overlap and the CPU's poll count in the title), the
// message a CPU implementation gets instead of bars, and an export that draws it.
#include <qcustomplot.h>

#include <QImage>
#include <QTemporaryDir>
#include <QTest>
#include <limits>

#include "launchlab/explorer/timeline.h"
#include "plots/export.h"
#include "plots/output_view.h"

using namespace launchlab;
using namespace launchlab::ui;

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

/// cuda-streams with a 4 x 6 timeline of which 5 columns are used (the last is NaN), and cpu-serial (all NaN).
std::shared_ptr<RunOutcome> twoStreamOutcome() {
  auto o = std::make_shared<RunOutcome>();
  o->result.workload = "streams_overlap";
  const std::vector<TimelineSpan> spans = {{0, TimelineEngine::H2D, 0, 2},
                                           {0, TimelineEngine::Kernel, 2, 2.5},
                                           {0, TimelineEngine::D2H, 2.5, 4},
                                           {1, TimelineEngine::H2D, 1, 3},
                                           {1, TimelineEngine::Kernel, 3, 3.5}};
  ImplResult gpu;
  gpu.implId = "cuda-streams";
  gpu.title = "CUDA k streams";
  gpu.gpu = true;
  gpu.metrics["poll_count"] = 12345;
  HostArray t("timeline", DType::F64, std::vector<std::size_t>{4, 6});
  writeTimeline(t, spans);
  gpu.outputs = {t};
  ImplResult cpu;
  cpu.implId = "cpu-serial";
  cpu.title = "CPU serial";
  HostArray none("timeline", DType::F64, std::vector<std::size_t>{4, 6});
  for (double& x : none.view<double>()) x = kNaN;
  cpu.outputs = {none};
  o->result.impls = {cpu, gpu};
  return o;
}

ViewData dataFor(const std::shared_ptr<RunOutcome>& o, const std::string& source) {
  ViewData d;
  d.spec = {.name = "timeline", .title = "Timeline", .plot = PlotKind::Timeline, .xLabel = "ms", .yLabel = "stream"};
  d.outcome = o;
  d.source = source;
  d.reference = "cpu-serial";
  return d;
}

int rectCount(QCustomPlot* plot) {
  int n = 0;
  for (int i = 0; i < plot->itemCount(); ++i) n += qobject_cast<QCPItemRect*>(plot->item(i)) ? 1 : 0;
  return n;
}

}  // namespace

class TestTimelineView : public QObject {
  Q_OBJECT

 private slots:
  void drawsOneBarPerOperationInStreamRows() {
    auto view = createOutputView(PlotKind::Timeline, nullptr);
    view->widget()->resize(900, 400);
    view->setData(dataFor(twoStreamOutcome(), "cuda-streams"));
    auto* plot = qobject_cast<QCustomPlot*>(view->widget());
    QVERIFY(plot);
    QCOMPARE(view->drawnPoints(), 5);
    QCOMPARE(rectCount(plot), 5);
    // Busy: H2D [0, 3) = 3 ms (the two copies up overlap), kernel 1 ms, D2H 1.5 ms; wall 4 ms: 75 %.
    auto* subtitle = qobject_cast<QCPTextElement*>(plot->plotLayout()->element(1, 0));  // under the title
    QVERIFY(subtitle);
    QCOMPARE(subtitle->text(), QString("overlap 75 % = busiest engine (H2D copy) 3.00 ms / wall 4.00 ms  \xC2\xB7  "
                                       "12,345 CPU polls while waiting"));
    QVERIFY(view->exportTitle().contains("CUDA k streams"));
    QVERIFY2(view->summary().startsWith("5 operations on 2 streams"), qPrintable(view->summary()));
    QVERIFY(plot->legend->visible());
    QStringList legend;
    for (int i = 0; i < plot->legend->itemCount(); ++i)
      if (auto* item = qobject_cast<QCPPlottableLegendItem*>(plot->legend->item(i)))
        legend << item->plottable()->name();
    QCOMPARE(legend, (QStringList{"H2D copy", "kernel", "D2H copy"}));
    // The whole timeline is in view, stream 0 on top.
    QVERIFY(plot->xAxis->range().lower <= 0 && plot->xAxis->range().upper >= 4);
    QVERIFY(plot->yAxis->rangeReversed());
    QVERIFY(plot->yAxis->range().lower < 0 && plot->yAxis->range().upper > 1);
    auto ticker = plot->yAxis->ticker().dynamicCast<QCPAxisTickerText>();
    QVERIFY(ticker);
    QCOMPARE(ticker->ticks().size(), 2);  // one row per stream
    QCOMPARE(ticker->ticks().value(1), QString("1"));
  }

  void cpuImplementationsSayTheTimelineIsCudaOnly() {
    auto view = createOutputView(PlotKind::Timeline, nullptr);
    const auto o = twoStreamOutcome();
    view->setData(dataFor(o, "cuda-streams"));
    view->setData(dataFor(o, "cpu-serial"));  // bars from the previous source go
    auto* plot = qobject_cast<QCustomPlot*>(view->widget());
    QCOMPARE(view->drawnPoints(), 0);
    QCOMPARE(rectCount(plot), 0);
    QVERIFY(!plot->legend->visible());
    bool said = false;
    for (int i = 0; i < plot->itemCount(); ++i)
      if (auto* text = qobject_cast<QCPItemText*>(plot->item(i)); text && text->visible())
        said = said || text->text().startsWith("Timeline: CUDA implementations only");
    QVERIFY(said);
    auto* subtitle = qobject_cast<QCPTextElement*>(plot->plotLayout()->element(1, 0));
    QVERIFY(subtitle && subtitle->text().isEmpty());
  }

  void exportDrawsTheBars() {
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    auto view = createOutputView(PlotKind::Timeline, nullptr);
    view->widget()->resize(800, 400);
    view->setData(dataFor(twoStreamOutcome(), "cuda-streams"));
    ExportOptions opt;
    opt.width = 800;
    opt.height = 400;
    const QString png = dir.filePath("timeline.png");
    const ExportResult r = exportPlot(*view, png, opt);
    QVERIFY2(r.ok, qPrintable(r.message));
    const QImage img(png);
    QVERIFY(!img.isNull());
    // The bars fill a good part of the plot with the engines' (saturated) colours.
    int coloured = 0;
    for (int y = 0; y < img.height(); y += 2)
      for (int x = 0; x < img.width(); x += 2) {
        const QColor c = img.pixelColor(x, y);
        coloured += c.saturation() > 80 && c.value() > 60 ? 1 : 0;
      }
    QVERIFY2(coloured > 2000, qPrintable(QString("only %1 coloured samples").arg(coloured)));
  }
};

QTEST_MAIN(TestTimelineView)
#include "test_timeline_view.moc"
