// Zooming the Mandelbrot image re-runs it on the zoomed region: the region's parameters from the part of the image in
// view (hand-checked), nothing when the whole image is in view, and the window's "Re-run this region" end to end on
// the CPU (the second run's form and result cover the zoomed region).
#include <qcustomplot.h>

#include <QApplication>
#include <QPushButton>
#include <QSignalSpy>
#include <QTest>
#include <cstdlib>

#include "launchlab/kernels.h"
#include "models/backend.h"
#include "models/settings.h"
#include "plots/outputs_pane.h"
#include "plots/region_zoom.h"
#include "window/main_window.h"
#include "window/param_panel.h"

using namespace launchlab;
using namespace launchlab::ui;

namespace {

const Registry& registry() {
  static Registry reg = [] {
    Registry r;
    kernels::registerAllWorkloads(r);
    return r;
  }();
  return reg;
}

double num(const std::map<std::string, std::string>& p, const char* k) { return std::strtod(p.at(k).c_str(), nullptr); }

}  // namespace

class TestRegionZoom : public QObject {
  Q_OBJECT
 private slots:
  void theViewBecomesTheNextRegion() {
    const WorkloadInfo& m = registry().find("mandelbrot")->info();
    QVERIFY(hasRegionParams(m));
    QVERIFY(!hasRegionParams(registry().find("vector_add")->info()));
    // The tutorial's 1000 x 1000 image at 0.003 (defaults: x from -2, y from -1.5). In view: columns 250..500 and
    // rows 400..600 (a 250 x 200 window): the longer side decides, step 0.003 * 0.25; the centre (column 375, row 500)
    // = (-2 + 1.125, -1.5 + 1.5) = (-0.875, 0) stays the centre of the new 1000 x 1000 image.
    const auto p = zoomedRegion(m, {}, {250, 400, 500, 600, 1000, 1000});
    QVERIFY(p);
    QCOMPARE(num(*p, "step"), 0.00075);
    QVERIFY(std::abs(num(*p, "x_min") - (-0.875 - 0.375)) < 1e-12);
    QVERIFY(std::abs(num(*p, "y_min") - (0 - 0.375)) < 1e-12);
    // From a region already set, other params kept.
    const auto q =
        zoomedRegion(m, {{"x_min", "-1"}, {"y_min", "-1"}, {"step", "0.01"}, {"cap", "50"}}, {0, 0, 50, 50, 100, 100});
    QVERIFY(q);
    QCOMPARE(num(*q, "step"), 0.005);
    QCOMPARE(num(*q, "x_min"), -1.0);
    QCOMPARE(num(*q, "y_min"), -1.0);
    QCOMPARE(q->at("cap"), std::string("50"));
  }

  void nothingToZoomWhenTheWholeImageIsInView() {
    const WorkloadInfo& m = registry().find("mandelbrot")->info();
    QVERIFY(!zoomedRegion(m, {}, {0, 0, 1000, 1000, 1000, 1000}));
    QVERIFY(!zoomedRegion(m, {}, {-200, -100, 1200, 1100, 1000, 1000}));         // zoomed out: margins around the image
    QVERIFY(!zoomedRegion(m, {}, {2000, 0, 3000, 10, 1000, 1000}));              // panned off the image
    QVERIFY(!zoomedRegion(m, {{"step", "1e-12"}}, {0, 0, 10, 10, 1000, 1000}));  // below the smallest step
    QVERIFY(!zoomedRegion(registry().find("vector_add")->info(), {}, {0, 0, 1, 1, 10, 10}));
  }

  void theWindowReRunsTheZoomedRegion() {
    auto reg = std::make_unique<Registry>();
    kernels::registerAllWorkloads(*reg);
    auto backend = std::make_shared<EngineBackend>(std::move(reg), makeStaticGpuRuntime(DeviceStatus{}));
    auto settings = AppSettings::ephemeral();
    MainWindowOptions o;
    o.firstRun = false;
    o.startWorkload = "mandelbrot";
    o.presetFolder = settings->privateFolder() + "/presets";
    MainWindow w(backend, std::move(settings), o);
    w.resize(1280, 720);
    w.show();
    FormState f = w.desk().paramPanel()->form();
    f.size = "100";
    f.impls = {"cpu-serial"};
    f.reps = 1;
    f.warmup = 0;
    w.desk().paramPanel()->setForm(f);
    QSignalSpy shown(&w, &MainWindow::runDisplayed);
    w.run();
    QVERIFY(shown.wait(20000));
    QPushButton* button = w.desk().outputsPane()->regionButton();
    QVERIFY(button->isVisible());
    auto* plot = qobject_cast<QCustomPlot*>(w.desk().outputsPane()->view(0)->widget());
    QVERIFY(plot);
    plot->xAxis->setRange(
        45, 55);  // about columns 45..55 and rows 45..55 of the 100 x 100 image (a wide plot shows more columns)
    plot->yAxis->setRange(45, 55);
    plot->replot();  // square pixels may widen one axis: the view at the click is what counts
    QApplication::processEvents();
    const auto view = w.desk().outputsPane()->view(0)->imageWindow();
    QVERIFY(view);
    QCOMPARE(view->rows, std::size_t(100));
    const auto expected = zoomedRegion(registry().find("mandelbrot")->info(), f.params, *view);
    QVERIFY(expected);
    QVERIFY(num(*expected, "step") < 0.003 * 0.9);  // zoomed in
    QTest::mouseClick(button, Qt::LeftButton);
    QVERIFY(shown.wait(20000));
    const auto& p = w.desk().paramPanel()->form().params;
    for (const char* k : {"x_min", "y_min", "step"}) QCOMPARE(p.at(k), expected->at(k));
    QCOMPARE(w.desk().paramPanel()->form().size, std::string("100"));
    // The new image is shown whole (square pixels may add margins on the longer side of the plot).
    for (const QCPAxis* a : {plot->xAxis, plot->yAxis}) {
      QVERIFY2(a->range().lower <= 1e-9 && a->range().upper >= 100 - 1e-9,
               qPrintable(QString("%1 .. %2").arg(a->range().lower).arg(a->range().upper)));
      QVERIFY(a->range().size() < 1000);  // not zoomed out to nothing either
    }
  }
};

QTEST_MAIN(TestRegionZoom)
#include "test_region_zoom.moc"
