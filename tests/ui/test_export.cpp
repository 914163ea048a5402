// Exports: every plot kind renders to valid PNG (right pixel size), PDF and SVG files; failures leave no
// file (not even a temporary) and say why; data goes to CSV, JSON and .npy.
#include <qcustomplot.h>

#include <QDir>
#include <QFile>
#include <QImage>
#include <QTemporaryDir>
#include <QTest>
#include <optional>
#include <stdexcept>
#include <vector>

#include "fakes.h"
#include "launchlab/engine/rng.h"
#include "launchlab/files/npy.h"
#include "plots/charts.h"
#include "plots/export.h"
#include "plots/output_view.h"
#include "plots/sweep_chart.h"

using namespace launchlab;
using namespace launchlab::ui;

namespace {

QByteArray head(const QString& path, int n) {
  QFile f(path);
  if (!f.open(QIODevice::ReadOnly)) return {};
  return f.read(n);
}

/// A run with one output of every plot kind, from cpu-serial and a "cuda" implementation with mismatches.
std::shared_ptr<RunOutcome> makeOutcome() {
  auto o = std::make_shared<RunOutcome>();
  RunResult& r = o->result;
  r.workload = "demo";
  r.n = 4096;
  r.dtype = "f32";
  r.params = {{"lo", "-4"}, {"hi", "4"}};
  r.timestamp = "2026-11-21T10:00:00Z";
  r.host = "test";
  r.device.reason = "no CUDA driver";
  HostArray x("x", DType::F32, {4096});
  fillUniform(x, -4, 4, 1, 0);
  r.inputs.push_back(x);
  for (const char* id : {"cpu-serial", "cuda"}) {
    ImplResult i;
    i.implId = id;
    i.title = id;
    i.gpu = std::string(id) == "cuda";
    i.phases[Phase::Cpu] = {2, 1.5, 3, 3};
    i.phases[Phase::Total] = {2, 1.5, 3, 3};
    HostArray wave("wave", DType::F32, {4096});
    fillUniform(wave, -1, 1, 2, 0);
    HostArray hist("hist", DType::U32, {64});
    for (std::size_t k = 0; k < 64; ++k) hist.view<std::uint32_t>()[k] = std::uint32_t(100 + k * (64 - k));
    HostArray img("img", DType::F32, {40, 50});
    fillUniform(img, 0, 1, 3, 0);
    HostArray sc("pi", DType::F64, {1});
    sc.view<double>()[0] = i.gpu ? 3.1 : 3.14159;
    HostArray ser("conv", DType::F64, {2, 8});
    for (std::size_t k = 0; k < 8; ++k) {
      ser.view<double>()[k] = std::pow(10.0, double(k));
      ser.view<double>()[8 + k] = 1.0 / std::sqrt(std::pow(10.0, double(k)));
    }
    HostArray pdf("pdf", DType::F32, {4096});
    fillUniform(pdf, 0, 0.4, 4, 0);
    i.outputs = {wave, hist, img, sc, ser, pdf};
    if (i.gpu) {
      i.verification.outcome = Verification::Outcome::Fail;
      i.verification.mismatches = 3;
      i.verification.firstMismatches = {5, 17, 1000};
    }
    r.impls.push_back(std::move(i));
  }
  WorkloadInfo info;
  info.inputs = {{"x", "x"}};
  info.outputs = {{"wave", "wave"},
                  {"hist", "hist", PlotKind::Histogram},
                  {"img", "img", PlotKind::Image},
                  {"pi", "pi", PlotKind::Scalar},
                  {"conv", "conv", PlotKind::Series},
                  {"pdf", "pdf", PlotKind::Scatter, "x", "pdf", "x"}};
  info.outputs[1].xMinParam = "lo";
  info.outputs[1].xMaxParam = "hi";
  info.outputs[3].referenceValue = M_PI;
  o->prepared = prepareRun(r, info);
  return o;
}

ViewData dataFor(const std::shared_ptr<RunOutcome>& o, const std::string& name, PlotKind kind) {
  ViewData d;
  d.spec.name = name;
  d.spec.title = name;
  d.spec.plot = kind;
  if (kind == PlotKind::Scatter)
    d.spec.xFrom = std::string("x");  // move-assign: GCC 12 warns falsely on assign(const char*)
  d.outcome = o;
  d.source = "cuda";
  d.reference = "cpu-serial";
  d.colorIndex = 1;
  return d;
}

struct Throwing final : Renderable {
  void render(QCPPainter&, const QSize&) override { throw std::runtime_error("renderer broke halfway"); }
  QString exportTitle() const override { return "broken"; }
};

/// Records the styles it is asked to draw in.
struct Projectable final : Renderable {
  std::vector<std::optional<bool>> asked;  ///< per projectAs call: the style's presentation flag, or nullopt
  std::vector<bool> drawnPresentation;     ///< per render: whether it drew projected
  bool projected = false;
  void render(QCPPainter&, const QSize&) override { drawnPresentation.push_back(projected); }
  QString exportTitle() const override { return "p"; }
  void projectAs(const ViewStyle* s) override {
    asked.push_back(s ? std::optional<bool>(s->presentation) : std::nullopt);
    projected = s != nullptr;
  }
};

}  // namespace

class TestExport : public QObject {
  Q_OBJECT
  QTemporaryDir m_dir;
  std::shared_ptr<RunOutcome> m_outcome;

 private slots:
  void initTestCase() {
    QVERIFY(m_dir.isValid());
    m_outcome = makeOutcome();
  }

  void everyPlotKindExportsPngPdfSvg_data() {
    QTest::addColumn<QString>("name");
    QTest::addColumn<int>("kind");
    QTest::newRow("waveform") << "wave" << int(PlotKind::Waveform);
    QTest::newRow("histogram") << "hist" << int(PlotKind::Histogram);
    QTest::newRow("image") << "img" << int(PlotKind::Image);
    QTest::newRow("scalar") << "pi" << int(PlotKind::Scalar);
    QTest::newRow("series") << "conv" << int(PlotKind::Series);
    QTest::newRow("scatter") << "pdf" << int(PlotKind::Scatter);
  }
  void everyPlotKindExportsPngPdfSvg() {
    QFETCH(QString, name);
    QFETCH(int, kind);
    auto view = createOutputView(PlotKind(kind), nullptr);
    view->widget()->resize(800, 500);
    view->setData(dataFor(m_outcome, name.toStdString(), PlotKind(kind)));
    QVERIFY(view->drawnPoints() > 0);
    QVERIFY(view->exportTitle().contains(name));

    ExportOptions o;
    o.width = 640;
    o.height = 400;
    o.dpi = 144;
    o.caption = "demo | n = 4096 f32 | no GPU | 2026-11-21";
    const QString png = m_dir.filePath(name + ".png");
    ExportResult r = exportPlot(*view, png, o);
    QVERIFY2(r.ok, qPrintable(r.message));
    QCOMPARE(head(png, 8), QByteArray("\x89PNG\r\n\x1a\n", 8));
    QImage img(png);
    QVERIFY(!img.isNull());
    QCOMPARE(img.size(), QSize(960, 600));  // 640 x 400 at 144/96
    QCOMPARE(img.dotsPerMeterX(), int(std::lround(144 / 0.0254)));
    // The plot is drawn: not a blank page (the title and data leave dark pixels).
    int dark = 0;
    for (int y = 0; y < img.height(); y += 3)
      for (int x = 0; x < img.width(); x += 3) dark += qGray(img.pixel(x, y)) < 128 ? 1 : 0;
    QVERIFY2(dark > 200, qPrintable(QString("only %1 dark samples").arg(dark)));

    o.format = ImageFormat::Pdf;
    const QString pdf = m_dir.filePath(name + ".pdf");
    r = exportPlot(*view, pdf, o);
    QVERIFY2(r.ok, qPrintable(r.message));
    QCOMPARE(head(pdf, 5), QByteArray("%PDF-"));
    QVERIFY(QFileInfo(pdf).size() > 1000);

    if (svgAvailable()) {
      o.format = ImageFormat::Svg;
      const QString svg = m_dir.filePath(name + ".svg");
      r = exportPlot(*view, svg, o);
      QVERIFY2(r.ok, qPrintable(r.message));
      const QByteArray text = head(svg, 4096);
      QVERIFY(text.contains("<svg"));
    }
  }

  void chartsExportToo() {
    TimingChart t(nullptr);
    t.setResult(m_outcome->result);
    ExportOptions o;
    o.width = 500;
    o.height = 300;
    o.dpi = 96;
    const QString png = m_dir.filePath("timing.png");
    QVERIFY(exportPlot(t, png, o).ok);
    QCOMPARE(QImage(png).size(), QSize(500, 300));
    SweepChart s(nullptr);
    s.begin("cuda", "n = 4096");
    SweepPoint p;
    p.block = {64, 1, 1};
    p.threads = 64;
    p.kernelMs = 1;
    p.minMs = 0.9;
    p.maxMs = 1.2;
    p.bandwidthGBs = 300;
    s.addPoint(p);
    o.format = ImageFormat::Pdf;
    QVERIFY(exportPlot(s, m_dir.filePath("sweep.pdf"), o).ok);
  }

  /// "As projected" draws the plot in the presentation style for the export only (the clipboard copy of the stage
  /// and the export window's box both ask for it); a plain export leaves the plot's style alone.
  void asProjectedDrawsInThePresentationStyleThenGivesItBack() {
    Projectable plot;
    ExportOptions o;
    o.width = 200;
    o.height = 100;
    o.dpi = 96;
    QVERIFY(exportPlot(plot, m_dir.filePath("plain.png"), o).ok);
    QVERIFY(plot.asked.empty());
    QCOMPARE(plot.drawnPresentation, std::vector<bool>{false});
    o.asProjected = true;
    QVERIFY(exportPlot(plot, m_dir.filePath("projected.png"), o).ok);
    QCOMPARE(plot.asked.size(), std::size_t(2));
    QCOMPARE(plot.asked[0], std::optional<bool>(true));
    QCOMPARE(plot.asked[1], std::optional<bool>());
    QCOMPARE(plot.drawnPresentation, (std::vector<bool>{false, true}));
    QVERIFY(!plot.projected);
    // A real view: the projected export differs from the plain one, and the view keeps its own style on screen.
    auto view = createOutputView(PlotKind::Waveform, nullptr);
    view->setData(dataFor(m_outcome, "wave", PlotKind::Waveform));
    auto* qcp = qobject_cast<QCustomPlot*>(view->widget());
    QVERIFY(qcp);
    const QFont before = qcp->xAxis->labelFont();
    QVERIFY(exportPlot(*view, m_dir.filePath("view-projected.png"), o).ok);
    QCOMPARE(qcp->xAxis->labelFont(), before);
    o.asProjected = false;
    QVERIFY(exportPlot(*view, m_dir.filePath("view-plain.png"), o).ok);
    QVERIFY(QImage(m_dir.filePath("view-projected.png")) != QImage(m_dir.filePath("view-plain.png")));
  }

  void failedExportsLeaveNothingBehind() {
    QTemporaryDir dir;
    auto view = createOutputView(PlotKind::Waveform, nullptr);
    view->setData(dataFor(m_outcome, "wave", PlotKind::Waveform));
    ExportOptions o;
    ExportResult r = exportPlot(*view, dir.filePath("missing/folder/plot.png"), o);
    QVERIFY(!r.ok);
    QVERIFY(r.message.contains("does not exist"));

    Throwing broken;
    for (ImageFormat f : {ImageFormat::Png, ImageFormat::Pdf}) {
      o.format = f;
      const QString path = dir.filePath("broken." + formatSuffix(f));
      r = exportPlot(broken, path, o);
      QVERIFY(!r.ok);
      QVERIFY2(r.message.contains("renderer broke halfway"), qPrintable(r.message));
      QVERIFY(!QFile::exists(path));
    }
    // An existing file is replaced only by a complete one.
    const QString keep = dir.filePath("keep.png");
    QVERIFY(exportPlot(*view, keep, {}).ok);
    const QByteArray before = head(keep, 1 << 30);
    o.format = ImageFormat::Png;
    QVERIFY(!exportPlot(broken, keep, o).ok);
    QCOMPARE(head(keep, 1 << 30), before);
    QCOMPARE(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden), QStringList{"keep.png"});

    o.width = 10;
    QVERIFY(exportPlot(*view, dir.filePath("tiny.png"), o).message.contains("size"));
  }

  void dataExports() {
    const RunResult& r = m_outcome->result;
    const QString csv = m_dir.filePath("r.csv"), json = m_dir.filePath("r.json");
    QVERIFY(exportRunCsv(r, csv).ok);
    QVERIFY(head(csv, 4096).contains("cpu-serial"));
    QVERIFY(exportRunJson(r, json).ok);
    QCOMPARE(head(json, 1), QByteArray("{"));
    QVERIFY(head(json, 1 << 20).contains("\"workload\""));
    const QString npyDir = m_dir.filePath("arrays");
    const ExportResult n = exportRunNpy(r, npyDir);
    QVERIFY2(n.ok, qPrintable(n.message));
    QCOMPARE(head(npyDir + "/cuda/wave.npy", 6), QByteArray("\x93NUMPY", 6));
    QVERIFY(QFile::exists(npyDir + "/inputs/x.npy"));
    RunResult empty;
    QVERIFY(!exportRunNpy(empty, m_dir.filePath("none")).ok);
    QVERIFY(!exportBytes(m_dir.filePath("no/such/dir/x.csv"), "a").ok);
  }

  void histogramNpyComesWithItsBinEdges() {
    RunResult r;
    r.workload = "fake_2d";
    r.params = {{"lo", "-1"}, {"hi", "3"}};
    ImplResult i;
    i.implId = "cpu-serial";
    i.outputs.emplace_back("hist", DType::U32, std::vector<std::size_t>{16});
    r.impls.push_back(std::move(i));
    const test::Fake2D w;
    const QString dir = m_dir.filePath("hist_arrays");
    const ExportResult n = exportRunNpy(r, dir, &w.info());
    QVERIFY2(n.ok, qPrintable(n.message));
    const HostArray edges = npy::load((dir + "/cpu-serial/hist_bin_edges.npy").toStdString());
    QCOMPARE(edges.size(), std::size_t(17));
    QCOMPARE(edges.at(0), -1.0);
    QCOMPARE(edges.at(4), 0.0);
    QCOMPARE(edges.at(16), 3.0);
  }

  void csvAndJsonLeaveSkippedRowsEmpty() {
    RunResult r;
    r.workload = "w";
    r.seed = 9;
    r.reps = 4;
    r.params = {{"sigma", "0.5"}};
    ImplResult skipped;
    skipped.implId = "cuda";
    skipped.status = Status::Skipped;
    skipped.reason = "no CUDA device";
    r.impls.push_back(skipped);
    const QString csv = m_dir.filePath("skipped.csv"), json = m_dir.filePath("skipped.json");
    QVERIFY(exportRunCsv(r, csv).ok);
    const QList<QByteArray> lines = head(csv, 4096).trimmed().split('\n');
    QCOMPARE(lines.size(), 2);
    QVERIFY(lines[0].endsWith("reason,seed,reps,warmup,params"));
    QVERIFY2(lines[1].contains(",,not-checked,,,,no CUDA device,9,4,"), lines[1].constData());
    QVERIFY(lines[1].endsWith("sigma=0.5"));
    QVERIFY(exportRunJson(r, json).ok);
    const QByteArray j = head(json, 1 << 20);
    QVERIFY2(j.contains("\"bandwidth_gbs\": null"), j.constData());
    QVERIFY(j.contains("\"speedup_total_vs_cpu_serial\": null"));
    QVERIFY(j.contains("\"max_abs_error\": null"));
  }

  void formatsFromPaths() {
    QVERIFY(formatForPath("a/b.PNG") == ImageFormat::Png);
    QVERIFY(formatForPath("x.pdf") == ImageFormat::Pdf);
    QVERIFY(formatForPath("x.svg") == ImageFormat::Svg);
    QVERIFY(!formatForPath("x.jpg"));
    ExportOptions o;
    o.width = 1000;
    o.height = 500;
    o.dpi = 300;
    QCOMPARE(rasterSize(o), QSize(3125, 1563));
  }
};

QTEST_MAIN(TestExport)
#include "test_export.moc"
