// GL views: with GL off (--no-gl) every view keeps its QCustomPlot drawing and says so; with EGL (Mesa
// llvmpipe here and in CI) the waveform, histogram, image and points views get a GL frame of their axis rect, say
// "host upload: ...", raster exports render GL at their size while SVG stays vector; the render thread reports
// failures as values; the window's OpenGL plots toggle and --no-gl. Skipped (GL part) without any EGL display.
#include <QAction>
#include <QFile>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>
#include <cmath>

#include "app/gui_wiring.h"
#include "gl/gl_views.h"
#include "gl/live_mode.h"
#include "gl_view_data.h"
#include "launchlab/plot/colormap_lut.h"
#include "models/settings.h"
#include "plots/export.h"
#include "plots/outputs_pane.h"
#include "plots/qcp_view_base.h"
#include "window/main_window.h"
#include "window/param_panel.h"
#include "window_helpers.h"

using namespace launchlab;
using namespace launchlab::ui;

namespace {

using test::dataFor;
using test::kCols;
using test::kRows;
using test::outcome;

struct Shown {
  std::unique_ptr<OutputView> view;
  QcpViewBase* base = nullptr;
  QCustomPlot* plot = nullptr;
};
Shown show(PlotKind kind, const std::shared_ptr<RunOutcome>& o) {
  Shown s;
  s.view = createQcpOutputView(kind, nullptr);
  s.base = dynamic_cast<QcpViewBase*>(s.view.get());
  s.plot = qobject_cast<QCustomPlot*>(s.view->widget());
  s.plot->resize(640, 400);
  s.plot->show();
  s.view->setData(dataFor(kind, o));
  return s;
}

int opaquePixels(const QImage& img) {
  int n = 0;
  for (int y = 0; y < img.height(); ++y)
    for (int x = 0; x < img.width(); ++x) n += qAlpha(img.pixel(x, y)) > 0;
  return n;
}
/// Pixels within `tol` of `c` in each channel.
int pixelsLike(const QImage& img, const QColor& c, int tol = 3) {
  int n = 0;
  for (int y = 0; y < img.height(); ++y)
    for (int x = 0; x < img.width(); ++x) {
      const QColor p = img.pixelColor(x, y);
      n += p.alpha() > 0 && std::abs(p.red() - c.red()) <= tol && std::abs(p.green() - c.green()) <= tol &&
           std::abs(p.blue() - c.blue()) <= tol;
    }
  return n;
}
QColor lutColor(int entry) {
  const auto lut = colormap::lut256(colormap::viridis());
  return QColor(lut[std::size_t(4 * entry)], lut[std::size_t(4 * entry + 1)], lut[std::size_t(4 * entry + 2)]);
}

const PlotKind kKinds[] = {PlotKind::Waveform, PlotKind::Histogram, PlotKind::Image, PlotKind::Points};

}  // namespace

class TestGlViews : public QObject {
  Q_OBJECT
  std::shared_ptr<RunOutcome> m_outcome = outcome();

  /// GL views on; false (the test skips) when no EGL display is there.
  bool glOn(QString& why) {
    GlViews::instance().configure(true, {});
    if (!GlViews::instance().waitReady(20000)) {
      why = "the GL context did not start in 20 s";
      return false;
    }
    why = GlViews::instance().pathLine();
    return GlViews::instance().state() == GlViews::State::Ready;
  }

 private slots:
  void offKeepsTheQCustomPlotViewsAndSaysSo() {
    GlViews::instance().configure(false, "--no-gl");
    for (PlotKind kind : kKinds) {
      Shown s = show(kind, m_outcome);
      QVERIFY(s.base->glLayer());
      QVERIFY(!s.base->glLayer()->active());
      QCOMPARE(s.view->drawPath(), QString("QCustomPlot: GL views turned off (--no-gl)"));
      QCOMPARE(s.base->pathLabel()->text(), s.view->drawPath());
      QVERIFY(s.view->drawnPoints() > 0);
      QTest::qWait(50);
      QCOMPARE(s.base->glLayer()->framesShown(), 0);
    }
    // Views only QCustomPlot draws have no path line.
    auto scalar = createQcpOutputView(PlotKind::Scalar, nullptr);
    QVERIFY(scalar->drawPath().isEmpty());
  }

  void eachKindGetsAGlFrameOfItsAxisRect() {
    QString why;
    if (!glOn(why)) QSKIP(qPrintable(why));
    // Mesa (CI): the host feeder; a CUDA build on the NVIDIA driver's EGL device: the interop frame source, whose
    // frames must pass the same checks below.
    QVERIFY2(why.startsWith("host upload: GL runs on ") ||
                 why.startsWith(QString::fromUtf8("GPU-rendered: CUDA\u2013OpenGL interop: GL runs on ")),
             qPrintable(why));
    for (PlotKind kind : kKinds) {
      Shown s = show(kind, m_outcome);
      GlLayer* gl = s.base->glLayer();
      QVERIFY(gl->active());
      QSignalSpy shown(gl, &GlLayer::frameShown);
      QVERIFY2(shown.wait(10000), qPrintable(QString("kind %1").arg(int(kind))));
      // Where interop is possible these small arrays are uploaded from the host, and the line says why
      // (ui/gl_path.h); on Mesa there is no choice to explain.
      const QString line = s.view->drawPath();
      if (why.startsWith("host upload"))
        QCOMPARE(line, why);
      else
        QVERIFY2(line.startsWith("host upload: ") && line.contains(" is below the interop crossover (~") &&
                     line.endsWith(QString::fromUtf8(" \u00b7 ") + GlViews::instance().contextLine()),
                 qPrintable(line));
      // The label shows the whole line where it fits, else the path's name first (a narrow plot, a long GPU name).
      const QString label = s.base->pathLabel()->text();
      QVERIFY2(label == line || (label.startsWith(line.section(':', 0, 0)) &&
                                 QFontMetrics(s.base->pathLabel()->font()).horizontalAdvance(label) <= s.plot->width()),
               qPrintable(label));
      const QImage& img = gl->image();
      if (kind == PlotKind::Image) {
        QCOMPARE(img.size(), QSize(int(kCols), int(kRows)));  // one texel per pixel
        const QColor tl = img.pixelColor(0, 0), br = img.pixelColor(img.width() - 1, img.height() - 1);
        QCOMPARE(pixelsLike(img, lutColor(0), 2) >= 1, true);
        QVERIFY2(std::abs(tl.red() - lutColor(0).red()) <= 2 && std::abs(tl.blue() - lutColor(0).blue()) <= 2,
                 qPrintable(tl.name()));
        QVERIFY2(std::abs(br.green() - lutColor(255).green()) <= 2 && std::abs(br.red() - lutColor(255).red()) <= 2,
                 qPrintable(br.name()));
      } else {
        QCOMPARE(img.size(), s.plot->axisRect()->rect().size() * s.plot->bufferDevicePixelRatio());
        QVERIFY(opaquePixels(img) > 100);
      }
    }
  }

  void theWaveformIsDrawnInTheSeriesColourAndFollowsZoom() {
    QString why;
    if (!glOn(why)) QSKIP(qPrintable(why));
    Shown s = show(PlotKind::Waveform, m_outcome);
    QSignalSpy shown(s.base->glLayer(), &GlLayer::frameShown);
    QVERIFY(shown.wait(10000));
    const QColor series = ViewStyle::normal().seriesColor(0);
    QVERIFY(pixelsLike(s.base->glLayer()->image(), series) > 200);
    // Zoom: a new frame for the new range (the old one is shown scaled meanwhile).
    s.plot->xAxis->setRange(100, 200);
    s.plot->replot();
    QVERIFY(shown.wait(10000));
    QCOMPARE(s.base->glLayer()->framesShown(), 2);
    QVERIFY(pixelsLike(s.base->glLayer()->image(), series) > 200);
  }

  void pngExportsRenderGlAtTheirSizeSvgStaysVector() {
    QString why;
    if (!glOn(why)) QSKIP(qPrintable(why));
    Shown s = show(PlotKind::Waveform, m_outcome);
    QSignalSpy shown(s.base->glLayer(), &GlLayer::frameShown);
    QVERIFY(shown.wait(10000));
    QTemporaryDir dir;
    ExportOptions o;
    o.width = 1600;
    o.height = 900;
    o.dpi = 96;
    QVERIFY(exportPlot(*s.view, dir.filePath("w.png"), o).ok);
    const QImage png(dir.filePath("w.png"));
    QCOMPARE(png.size(), QSize(1600, 900));
    // The series is hidden in QCustomPlot while GL draws it: its colour in the PNG is the GL frame's.
    QVERIFY(pixelsLike(png, ViewStyle::normal().seriesColor(0)) > 400);
    QCOMPARE(s.base->glLayer()->framesShown(), 1);  // the export's frame is not the screen's
    if (!svgAvailable()) QSKIP("the PNG export was checked; the SVG export needs Qt SVG, which this build lacks");
    o.format = ImageFormat::Svg;
    QVERIFY(exportPlot(*s.view, dir.filePath("w.svg"), o).ok);
    QFile svg(dir.filePath("w.svg"));
    QVERIFY(svg.open(QIODevice::ReadOnly));
    const QByteArray text = svg.readAll();
    QVERIFY(!text.contains("<image"));                                             // no raster frame in a vector file
    QVERIFY(text.contains(ViewStyle::normal().seriesColor(0).name().toLatin1()));  // the series, as vectors
  }

  void renderFailuresAreValues() {
    QString why;
    if (!glOn(why)) QSKIP(qPrintable(why));
    GlFrameRequest q;
    q.kind = GlDraw::Waveform;
    q.keep = m_outcome;
    q.array = &m_outcome->result.impls[0].outputs[0];
    q.pixels = QSize(40000, 10);  // beyond any framebuffer
    q.end = 1000;
    q.columns = 100;
    const GlFrame f = GlViews::instance().service()->renderNow(q);
    QVERIFY(!f.error.isEmpty());
    QVERIFY(f.image.isNull());
    q.pixels = QSize(100, 50);
    q.drawRange = {0, 1000, -1, 1};
    q.color = Qt::black;
    const GlFrame ok = GlViews::instance().service()->renderNow(q);
    QVERIFY2(ok.error.isEmpty(), qPrintable(ok.error));
    QCOMPARE(ok.image.size(), QSize(100, 50));
  }

  void theWindowsToggleAndNoGl() {
    QTemporaryDir dir;
    MainWindowOptions o;
    o.presetFolder = dir.filePath("presets");
    o.firstRun = false;
    o.noGl = true;
    auto window = std::make_unique<MainWindow>(app::makeEngineBackend(), AppSettings::ephemeral(), o);
    window->selectWorkload("pulse_waveform");
    QVERIFY(!window->live().glAction()->isEnabled());
    QVERIFY(!window->live().glAction()->isChecked());
    QCOMPARE(window->desk().outputsPane()->view(0)->drawPath(), QString("QCustomPlot: GL views turned off (--no-gl)"));
    window.reset();
    o.noGl = false;
    window = std::make_unique<MainWindow>(app::makeEngineBackend(), AppSettings::ephemeral(), o);
    window->selectWorkload("pulse_waveform");
    QVERIFY(window->live().glAction()->isEnabled());
    QVERIFY(window->live().glAction()->isChecked());  // the setting's default
    window->live().glAction()->trigger();             // off
    QCOMPARE(window->desk().outputsPane()->view(0)->drawPath(),
             QString("QCustomPlot: GL views turned off (setting: Draw plots with OpenGL is off)"));
    window->live().glAction()->trigger();  // on again
    QVERIFY(GlViews::instance().waitReady(20000));
    const QString path = window->desk().outputsPane()->view(0)->drawPath();
    QVERIFY2(path.startsWith("host upload: ") || path.startsWith("QCustomPlot: no usable OpenGL") ||
                 path.startsWith(QString::fromUtf8("GPU-rendered: CUDA\u2013OpenGL interop: ")),
             qPrintable(path));
  }

  /// Window screenshots of the GL views (LAUNCHLAB_GL_SHOTS=<folder>; run under an offscreen screen of the size):
  /// <folder>/<W>x<H>_<workload>_<tab>.png, and one in live mode.
  void screenshots() {
    const QString folder = qEnvironmentVariable("LAUNCHLAB_GL_SHOTS");
    if (folder.isEmpty()) QSKIP("LAUNCHLAB_GL_SHOTS not set");
    QString why;
    if (!glOn(why)) QSKIP(qPrintable(why));
    QTemporaryDir dir;
    auto window = test::openWindow(app::makeEngineBackend(), dir.filePath("presets"));
    window->showMaximized();
    QTest::qWait(200);
    const QString size = QString("%1x%2").arg(window->width()).arg(window->height());
    auto* tabs = window->desk().outputsPane()->findChild<QTabWidget*>();
    auto shoot = [&](const QString& name) {
      QTest::qWait(300);
      QVERIFY(window->grab().save(folder + "/" + size + "_" + name + ".png"));
    };
    for (const auto& [workload, n, tabNames] :
         {std::tuple<QString, QString, QStringList>{"monte_carlo_pi", "1536000", {"points", "per_thread_hist"}},
          {"pulse_waveform", "1Mi", {"waveform"}},
          {"mandelbrot", "", {"iters"}}}) {
      if (!app::builtInWorkloads()->find(workload.toStdString())) continue;
      window->selectWorkload(workload);
      if (!n.isEmpty()) {
        FormState f = window->desk().paramPanel()->form();
        f.size = n.toStdString();
        window->desk().paramPanel()->setForm(f);
      }
      QVERIFY(test::runAndWait(*window, 60000));
      for (int t = 0; t < tabs->count(); ++t)
        if (tabNames.isEmpty() || std::any_of(tabNames.begin(), tabNames.end(),
                                              [&](const QString& w) { return tabs->tabText(t).startsWith(w); })) {
          tabs->setCurrentIndex(t);
          shoot(workload + "_" + QString::number(t));
        }
    }
    window->selectWorkload("monte_carlo_pi");
    tabs->setCurrentIndex(3);
    QSignalSpy frames(window->live().liveMode(), &LiveMode::frameReady);
    window->live().liveAction()->trigger();
    for (int i = 0; i < 6 && frames.count() < 6; ++i) frames.wait(10000);
    shoot("live");
    window->cancelAction()->trigger();
  }
};

QTEST_MAIN(TestGlViews)
#include "test_gl_views.moc"
