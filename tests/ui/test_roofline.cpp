// The Roofline tab and the sweep tab's CPU/GPU crossover, offscreen: a made-up run's implementations placed at
// their hand-computed intensity and GFLOP/s under made-up ceilings (with the bound and % of the roof in the hover
// readout, and an implementation without a FLOP count listed, not placed), the provenance written on the plot, the
// datasheet ceilings without a GPU, and an N sweep fixture opened in the sweep tab with its crossover markers.
#include <qcustomplot.h>

#include <QCheckBox>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include "../n_sweep_fixture.h"
#include "explorer/crossover_view.h"
#include "explorer/roofline_view.h"
#include "explorer/sweep_pane.h"
#include "fakes.h"
#include "launchlab/files/atomic_file.h"
#include "window_helpers.h"

using namespace launchlab;
using namespace launchlab::ui;

namespace {

// 1000 GB/s and 10000 GFLOP/s: the ridge at 10 FLOP/byte.
Ceilings madeUpCeilings() {
  Ceilings c;
  c.copyGBs = 1000;
  c.fp32Gflops = 10000;
  c.source = Ceilings::Source::Measured;
  c.gpuName = "Fixture GPU (test data)";
  c.date = "2026-11-20T10:30:00Z";
  return c;
}

ImplResult impl(const char* id, bool gpu, double flops, double bytes, double ms) {
  ImplResult i;
  i.implId = id;
  i.gpu = gpu;
  i.flops = flops;
  i.bytesMoved = bytes;
  i.phases[gpu ? Phase::Kernel : Phase::Cpu].medianMs = ms;
  return i;
}

// vector_add-like: 2^20 adds over 12 MiB. cpu-serial in 1 ms (1.049 GFLOP/s, 12.58 GB/s: 1.26 % of the roof of
// 83.33 GFLOP/s at 1/12 FLOP/byte); cuda-x in 0.0125 ms (83.89 GFLOP/s, 1006.6 GB/s: 100.66 %); a compute-heavy
// cuda-fma at 100 FLOP/byte (1.2582912e9 flops in 0.5 ms = 2516.6 GFLOP/s, 25.17 GB/s: 25.2 % of 10000); and
// cpu-copy with no FLOP count.
RunResult madeUpRun() {
  RunResult r;
  r.workload = "vector_add";
  r.timestamp = "2026-11-20T10:31:00Z";
  const double n = 1048576;
  r.impls = {impl("cpu-serial", false, n, 12 * n, 1.0), impl("cuda-x", true, n, 12 * n, 0.0125),
             impl("cuda-fma", true, 100 * 12 * n, 12 * n, 0.5), impl("cpu-copy", false, 0, 12 * n, 1.0)};
  return r;
}

QString writeFile(const QTemporaryDir& dir, const QString& name, const std::string& text) {
  files::writeAtomic(dir.filePath(name).toStdString(), text);
  return dir.filePath(name);
}

}  // namespace

class TestRoofline : public QObject {
  Q_OBJECT
  QTemporaryDir m_dir;

 private slots:
  void marksAreHandComputed() {
    const RooflineMarks m = rooflineMarks(madeUpRun(), madeUpCeilings());
    QCOMPARE(m.placed.size(), std::size_t(3));
    QCOMPARE(m.noFlopCount, QStringList{"cpu-copy"});
    const RooflineMark& cpu = m.placed[0];
    QCOMPARE(cpu.label, QString("cpu-serial"));
    QVERIFY(!cpu.gpu);
    QCOMPARE(cpu.point.intensity, 1.0 / 12);
    QVERIFY(qAbs(cpu.point.gflops - 1.048576) < 1e-9);
    QCOMPARE(rooflineReadout(cpu),
             QString("cpu-serial (CPU): 0.083 FLOP/byte, 1.05 GFLOP/s, 12.6 GB/s, memory-bound, 1.3 % of the roof"));
    QCOMPARE(rooflineReadout(m.placed[1]),
             QString("cuda-x (GPU): 0.083 FLOP/byte, 83.9 GFLOP/s, 1007 GB/s, memory-bound, 101 % of the roof"));
    QCOMPARE(rooflineReadout(m.placed[2]),
             QString("cuda-fma (GPU): 100 FLOP/byte, 2517 GFLOP/s, 25.2 GB/s, compute-bound, 25 % of the roof"));
  }

  void datasheetCeilingsWithoutAGpuSaySo() {
    const Ceilings c = datasheetCeilingsFor({});
    QCOMPARE(c.copyGBs, 3350.0);
    QCOMPARE(c.fp32Gflops, 67000.0);
    QCOMPARE(ceilingsProvenance(c, false),
             QString("Ceilings theoretical: datasheet of NVIDIA H100 SXM5 (no GPU here)"));
    QCOMPARE(ceilingsProvenance(madeUpCeilings(), true),
             QString("Ceilings measured on Fixture GPU (test data), 2026-11-20"));
  }

  void theViewPlacesTheRunAndReadsOutUnderTheMouse() {
    RooflineView view;
    view.resize(1000, 500);
    view.show();
    view.setCeilings(madeUpCeilings(), true);
    view.setRun(madeUpRun());
    view.plot()->replot();
    QCOMPARE(view.marks().size(), std::size_t(3));
    QCOMPARE(view.noFlopText(), QString("No FLOP count (not placed): cpu-copy"));
    QVERIFY(view.exportTitle().startsWith("Roofline"));
    // Both roofs and the point graphs (GPU discs, CPU squares) are drawn; the title carries the provenance.
    QCOMPARE(view.plot()->graphCount(), 4);
    QVERIFY(view.plot()->graph(2)->name() == "GPU" && view.plot()->graph(3)->name() == "CPU");
    QCOMPARE(view.plot()->graph(2)->scatterStyle().shape(), QCPScatterStyle::ssDisc);
    QCOMPARE(view.plot()->graph(3)->scatterStyle().shape(), QCPScatterStyle::ssSquare);
    auto* title = qobject_cast<QCPTextElement*>(view.plot()->plotLayout()->element(0, 0));
    auto* provenance = qobject_cast<QCPTextElement*>(view.plot()->plotLayout()->element(1, 0));
    QVERIFY(title && provenance);
    QCOMPARE(title->text(), QString("Roofline: vector_add"));
    QCOMPARE(provenance->text(), QString("Ceilings measured on Fixture GPU (test data), 2026-11-20"));
    // The mouse on cuda-fma's point (and a few pixels off it) reads it out; far from every point, the roof there.
    QVERIFY(view.readoutAt(100, 2516.58).startsWith("cuda-fma (GPU)"));
    QVERIFY(view.readoutAt(100 * 1.02, 2516.58 * 1.02).startsWith("cuda-fma (GPU)"));
    QCOMPARE(view.readoutAt(1, 0.01), QString("1.00 FLOP/byte: roof 1000 GFLOP/s (memory-bound)"));
    // cuda-x and cpu-serial share a FLOP/byte: one label, the faster first; cuda-fma has its own.
    QStringList labels;
    for (int i = 0; i < view.plot()->itemCount(); ++i)
      if (auto* t = qobject_cast<QCPItemText*>(view.plot()->item(i));
          t && t->visible() && !t->text().contains("roof") && !t->text().contains("ridge"))
        labels << t->text();
    labels.sort();
    QCOMPARE(labels.join(" | "), QString("cuda-fma | cuda-x\ncpu-serial"));
    // History runs, ticked, are placed too (faded, tagged).
    view.setHistory({{"#1", madeUpRun()}});
    QCOMPARE(view.marks().size(), std::size_t(3));
    view.historyBox()->setChecked(true);
    QCOMPARE(view.marks().size(), std::size_t(6));
    QCOMPARE(view.marks().back().label, QString("#1 cuda-fma"));
    QVERIFY(!view.marks().back().current);
    // A run recorded on another GPU (a run file) is placed, with a note that the roofs are not its GPU's.
    RunResult recorded = madeUpRun();
    recorded.device.available = true;
    recorded.device.info.name = "NVIDIA H200";
    view.setRun(recorded);
    QCOMPARE(view.otherDeviceNote(), QString("This run's GPU points were measured on NVIDIA H200: the roofs drawn are "
                                             "measured on Fixture GPU (test data), 2026-11-20, not that GPU's own"));
    QVERIFY(view.noFlopText().endsWith("not that GPU's own"));
    // Presentation mode restyles without losing anything.
    view.setViewStyle(ViewStyle::presentationStyle(1080));
    QCOMPARE(view.marks().size(), std::size_t(6));
  }

  void theWindowHasTheTabWithDatasheetCeilingsWithoutAGpu() {
    QTemporaryDir presets;
    auto window = ui::test::openWindow(std::make_shared<ui::test::FakeBackend>(), presets.path());
    QVERIFY(window->desk().rooflineView());
    QVERIFY(window->desk().showTab("roofline"));
    QVERIFY(!window->desk().showTab("no such tab"));
    QCOMPARE(window->desk().rooflineView()->provenanceText(),
             QString("Ceilings theoretical: datasheet of NVIDIA H100 SXM5 (no GPU here)"));
  }

  void anNSweepShowsTheCrossoverMarkers() {
    const CrossoverPlot plot = crossoverPlot({"n"}, launchlab::test::nSweepFixturePoints());
    QVERIFY(plot.crossover);
    QCOMPARE(plot.curves.size(), std::size_t(4));
    QCOMPARE(plot.curves[0].name, QString("cpu-serial"));
    QCOMPARE(plot.curves[2].name, QString("GPU kernel only"));
    QCOMPARE(plot.curves[3].name, QString("GPU with copies"));
    QCOMPARE(plot.curves[0].n.size(), std::size_t(10));
    QCOMPARE(plot.kernelLabel, QString("GPU wins from N = 2^14 (kernel only)"));
    QCOMPARE(plot.copiesLabel, QString("with copies: never up to 2^28"));
    QCOMPARE(powerOfTwoText(65536), QString("2^16"));
    QCOMPARE(powerOfTwoText(100003), QString("100003"));

    RunController controller(std::make_shared<ui::test::FakeBackend>());
    SweepPane pane(controller);
    pane.resize(1100, 420);
    pane.show();
    QVERIFY(pane.openSweepFile(writeFile(m_dir, "n_sweep.json", launchlab::test::nSweepFixtureJson())));
    QVERIFY(pane.crossoverShown());
    QVERIFY(!pane.heatmapShown());
    QCOMPARE(pane.crossover()->markerTexts(),
             (QStringList{"GPU wins from N = 2^14 (kernel only)", "with copies: never up to 2^28"}));
    QCOMPARE(pane.crossover()->exportTitle(),
             QString("CPU/GPU crossover: vector_add cuda-one-per-thread against the CPU"));
    QVERIFY(pane.sourceText().startsWith("Recorded on Fixture GPU (test data)"));
    // A block x grid sweep is still a heatmap.
    QVERIFY(pane.openSweepFile(writeFile(m_dir, "grid.json", launchlab::test::fixtureSweepJson())));
    QVERIFY(pane.heatmapShown());
    QVERIFY(!pane.crossoverShown());
  }

  void theCommittedNSweepFixtureIsTheGeneratedOne() {
    QFile f(QStringLiteral(LAUNCHLAB_TEST_DATA_DIR) + "/vector_add_n_sweep_fixture.json");
    QVERIFY(f.open(QIODevice::ReadOnly));
    QCOMPARE(f.readAll().toStdString(), launchlab::test::nSweepFixtureJson() + "\n");
  }
};

QTEST_MAIN(TestRoofline)
#include "test_roofline.moc"
