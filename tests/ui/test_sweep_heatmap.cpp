// The sweep tab's block x grid heatmap offscreen: a recorded sweep (a fixture written by core's sweepJson) opens
// labelled with where and when it was measured, hover reads a cell out, a click reports the launch (occupancy,
// waves, predicted against measured); broken files give one inline message and keep what is shown; a live
// block x grid sweep runs every cell through the controller and fills the map; an N sweep runs the GPU variant
// against the CPU implementations.
#include <qcustomplot.h>
#include <sys/stat.h>

#include <QFile>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <tuple>

#include "../sweep_fixture.h"
#include "app/gui_wiring.h"
#include "explorer/sweep_heatmap.h"
#include "explorer/sweep_pane.h"
#include "fakes.h"
#include "launchlab/files/command_line.h"
#include "plots/charts.h"
#include "plots/plot_interaction.h"
#include "plots/sweep_chart.h"

using namespace launchlab;
using namespace launchlab::ui;

namespace {
class GridWorkload final : public Workload {
 public:
  GridWorkload() {
    m_info.id = "gridded";
    m_info.title = "Gridded";
    ImplSpec s;
    s.id = "cuda-a";
    s.title = "CUDA A";
    s.kind = ImplKind::Cuda;
    s.usesLaunchConfig = true;
    m_impls.push_back(s);
    // CPU contenders for an N sweep; the emulated launch is not one (it runs the launch on one core).
    for (const auto& [id, kind, launch] : {std::tuple{"cpu-serial", ImplKind::CpuSerial, false},
                                           {"cpu-parallel", ImplKind::CpuParallel, false},
                                           {"cpu-emulated", ImplKind::CpuSerial, true}}) {
      ImplSpec c;
      c.id = id;
      c.title = id;
      c.kind = kind;
      c.usesLaunchConfig = launch;
      m_impls.push_back(c);
    }
  }
  const WorkloadInfo& info() const override { return m_info; }
  const std::vector<ImplSpec>& impls() const override { return m_impls; }
  std::vector<HostArray> makeInputs(const RunSetup&) const override { return {}; }
  std::vector<HostArray> makeOutputs(const RunSetup&) const override { return {}; }

 private:
  WorkloadInfo m_info;
  std::vector<ImplSpec> m_impls;
};

/// The window's backend in this process, with the build's kernel resource records (for occupancy).
std::shared_ptr<Backend> appBackend() {
  std::string note;
  return app::makeBackend("", true, note);
}

/// A sweep pane on the fake backend (no delay per repetition) with GridWorkload and a grid choice, and spies on its
/// end and its log.
struct LiveSweep {
  std::shared_ptr<ui::test::FakeBackend> backend = makeFast();
  RunController controller{backend};
  SweepPane pane{controller};
  GridWorkload w;
  QSignalSpy done{&controller, &RunController::sweepFinished};
  QSignalSpy lines{&pane, &SweepPane::logLine};
  explicit LiveSweep(int gridChoice) {
    pane.setWorkload(w);
    pane.setGridChoice(gridChoice);
  }
  static std::shared_ptr<ui::test::FakeBackend> makeFast() {
    auto b = std::make_shared<ui::test::FakeBackend>();
    b->stepMs = 0;
    return b;
  }
};

/// A recorded sweep of `count` points of one CUDA variant, written by core's writer: over N alone (drawn as the
/// curve) or block (32 sizes) x grid (the heatmap); every 16th point skipped.
std::string largeSweepJson(std::size_t count, bool grid) {
  SweepPlan plan = launchlab::test::fixtureSweepPlan();
  const std::size_t blocks = grid ? 32 : 1;
  plan.axes = grid ? std::vector<SweepAxis>{{"block", {}}, {"grid", {}}} : std::vector<SweepAxis>{{"n", {}}};
  for (std::size_t b = 0; grid && b < blocks; ++b) plan.axes[0].values.push_back(std::to_string(32 * (b + 1)));
  const SweepPoint model = launchlab::test::fixtureSweepPoints().front();
  std::vector<SweepPoint> points;
  for (std::size_t i = 0; i < count; ++i) {
    const std::size_t b = i % blocks, row = i / blocks;
    if (b == 0) plan.axes.back().values.push_back(std::to_string(grid ? 132 * (row + 1) : 4096 + row));
    SweepPoint p = model;
    p.values = {plan.axes.back().values.back()};
    if (grid) p.values.insert(p.values.begin(), plan.axes[0].values[b]);
    p.block = Dim3{std::uint32_t(grid ? 32 * (b + 1) : 256), 1, 1};
    p.threads = p.block.count();
    p.launched->block = p.block;
    p.kernelMs = 0.01 + 1e-6 * double(i);
    if (i % 16 == 15) {
      p.status = Status::Skipped;
      p.reason = "made-up skip for the tests";
    }
    points.push_back(std::move(p));
  }
  return sweepJson(plan, points, launchlab::test::fixtureDevice(), {"2026-11-20T10:30:00Z", 2000});
}

/// What a plot creates (each graph, error bar and text item is a child of its QCustomPlot) and how often it draws.
struct PlotWork : QObject {
  int made = 0, replots = 0;
  explicit PlotWork(QWidget* w) {
    auto* plot = qobject_cast<QCustomPlot*>(w);
    plot->installEventFilter(this);
    connect(plot, &QCustomPlot::beforeReplot, this, [this] { ++replots; });
  }
  bool eventFilter(QObject*, QEvent* e) override {
    made += e->type() == QEvent::ChildAdded;
    return false;
  }
};

QString writeFile(const QTemporaryDir& dir, const QString& name, const std::string& text) {
  const QString path = dir.filePath(name);
  QFile f(path);
  f.open(QIODevice::WriteOnly);
  f.write(text.data(), qint64(text.size()));
  return path;
}
}  // namespace

class TestSweepHeatmap : public QObject {
  Q_OBJECT
  QTemporaryDir m_dir;

 private slots:
  void aRecordedSweepOpensLabelledAsRecorded() {
    RunController controller(appBackend());
    SweepPane pane(controller);
    pane.resize(1100, 420);
    pane.show();
    QVERIFY(pane.openSweepFile(writeFile(m_dir, "fixture.json", launchlab::test::fixtureSweepJson())));
    QVERIFY(pane.heatmapShown());
    QVERIFY(pane.shown().recorded);
    QCOMPARE(pane.sourceText(),
             QString("Recorded on Fixture GPU (test data) (driver 13.0), 2026-11-20 10:30 UTC \u2014 "
                     "vector_add, fixture.json, not measured here"));
    QVERIFY(pane.messageText().isEmpty());
    const SweepMap& m = pane.heatmap()->map();
    QCOMPARE(m.blocks.size(), std::size_t(3));
    QCOMPARE(m.grids.size(), std::size_t(2));
    QCOMPARE(pane.heatmap()->readoutAt(1, 0), QString("block 256 \u00D7 grid 132: 0.03 ms"));
    QCOMPARE(pane.heatmap()->readoutAt(2.2, 0.9), QString("block 512 \u00D7 grid 264: not measured"));
    QVERIFY(pane.heatmap()->readoutAt(5, 0).isEmpty());
    QCOMPARE(pane.heatmap()->titleText(), QString("CUDA grid-stride loop"));
    // The best cell (the shortest time: block 128, grid 264) is explained at once.
    QVERIFY2(pane.detailsText().startsWith("<b>block 128, grid 264: kernel 0.01875 ms"),
             qPrintable(pane.detailsText()));
    // The live sweep is separate: switching shows it (empty), and back.
    pane.showRecorded(false);
    QVERIFY(!pane.shown().recorded);
    QVERIFY(pane.sourceText().isEmpty());
    pane.showRecorded(true);
    QVERIFY(pane.shown().recorded);
  }

  // A file chosen in the dialog is read off the GUI thread: the pane says it is opening it, then shows it; a bad
  // one ends in the same inline message as before.
  void aSweepFileOpensInTheBackground() {
    RunController controller(appBackend());
    SweepPane pane(controller);
    pane.resize(1100, 420);
    pane.show();
    QSignalSpy opened(&pane, &SweepPane::sweepFileOpened);
    pane.openSweepFileInBackground(writeFile(m_dir, "fixture.json", launchlab::test::fixtureSweepJson()));
    QVERIFY2(pane.messageText().startsWith("Opening fixture.json"), qPrintable(pane.messageText()));
    QVERIFY(opened.wait(60000));
    QCOMPARE(opened.at(0).at(0).toBool(), true);
    QVERIFY(pane.heatmapShown());
    QVERIFY(pane.shown().recorded);
    QVERIFY(pane.messageText().isEmpty());
    pane.openSweepFileInBackground(writeFile(m_dir, "bad.json", "{\"schema\": 3}"));
    QVERIFY(opened.wait(60000));
    QCOMPARE(opened.at(1).at(0).toBool(), false);
    QVERIFY2(pane.messageText().contains("bad.json"), qPrintable(pane.messageText()));
    QVERIFY(pane.shown().recorded);  // what was shown stays
  }

  // A large recorded sweep is drawn once: the curve gets all its points in one go and the map all its cells, so what
  // the GUI thread makes and draws is the same for 3200 points as for 32 (a 40000-point file took 75 s when the
  // curve was rebuilt for each point), and a large map marks no cell one by one.
  void aLargeSweepIsDrawnOnceWithAllItsPoints() {
    struct Opened {
      int made = 0, replots = 0, shown = 0;  // shown: the curve's measured points, or the map's cells
    };
    auto open = [this](std::size_t count, bool grid) {
      RunController controller(appBackend());
      SweepPane pane(controller);
      pane.resize(1100, 420);
      pane.show();
      PlotWork work(grid ? pane.heatmap()->widget() : pane.chart()->widget());
      QSignalSpy opened(&pane, &SweepPane::sweepFileOpened);
      const QString name = QString("%1_%2.json").arg(grid ? "grid" : "curve").arg(count);
      pane.openSweepFileInBackground(writeFile(m_dir, name, largeSweepJson(count, grid)));
      Opened o;
      if (!opened.wait(60000) || !opened.at(0).at(0).toBool() || pane.heatmapShown() != grid) return o;
      QCoreApplication::processEvents();  // the replots the opening queued
      o.made = work.made;
      o.replots = work.replots;
      o.shown = grid ? int(pane.heatmap()->map().values.size())
                     : qobject_cast<QCustomPlot*>(pane.chart()->widget())->graph(0)->dataCount();
      return o;
    };
    for (const bool grid : {false, true}) {
      const Opened small = open(32, grid), large = open(3200, grid);
      QCOMPARE(large.shown, grid ? 3200 : 3200 - 3200 / 16);  // every cell, or every measured point
      QVERIFY2(large.made <= small.made && large.made <= 16,
               qPrintable(QString("%1 plot objects made for 3200 points, %2 for 32").arg(large.made).arg(small.made)));
      QVERIFY2(large.replots <= small.replots,
               qPrintable(QString("%1 replots for 3200 points, %2 for 32").arg(large.replots).arg(small.replots)));
    }
  }

  void hoverAndClickOnTheMap() {
    RunController controller(appBackend());
    SweepPane pane(controller);
    pane.resize(1100, 420);
    pane.show();
    QVERIFY(QTest::qWaitForWindowExposed(&pane));
    QVERIFY(pane.openSweepFile(writeFile(m_dir, "fixture.json", launchlab::test::fixtureSweepJson())));
    auto* plot = qobject_cast<QCustomPlot*>(pane.heatmap()->widget());
    plot->replot();
    pane.heatmap()->interaction()->hoverAt(QPointF(plot->xAxis->coordToPixel(0), plot->yAxis->coordToPixel(1)));
    QCOMPARE(pane.heatmap()->interaction()->text(), QString("block 128 \u00D7 grid 264: 0.01875 ms"));
    QSignalSpy clicked(pane.heatmap(), &SweepHeatmap::cellClicked);
    QTest::mouseClick(plot, Qt::LeftButton, {},
                      QPoint(int(plot->xAxis->coordToPixel(1)), int(plot->yAxis->coordToPixel(0))));
    QCOMPARE(clicked.size(), 1);
    QCOMPARE(clicked.at(0).at(0).toInt(), 2);  // block 256, grid 132
    const QString d = pane.detailsText();
    QVERIFY2(d.contains("block 256, grid 132: kernel 0.03 ms"), qPrintable(d));
    QVERIFY2(d.contains("theoretical occupancy"), qPrintable(d));
    QVERIFY2(d.contains("waves: 132 blocks / "), qPrintable(d));
    QVERIFY2(d.contains("at 2000.0 GB/s (cudaMemcpy D2D measured in the same sweep)"), qPrintable(d));
    pane.heatmap()->clickCell(2, 1);  // the skipped cell
    QVERIFY2(pane.detailsText().contains("skipped (made-up skip for the tests)"), qPrintable(pane.detailsText()));
    // % of cudaMemcpy: 671.1 GB/s of 2000 at block 128, grid 264.
    pane.setMetric(SweepMetric::PercentOfCopy);
    QCOMPARE(pane.heatmap()->readoutAt(0, 1), QString("block 128 \u00D7 grid 264: 33.6 % of cudaMemcpy"));
  }

  void brokenFilesGiveOneInlineMessageAndKeepWhatIsShown() {
    RunController controller(appBackend());
    SweepPane pane(controller);
    QVERIFY(pane.openSweepFile(writeFile(m_dir, "good.json", launchlab::test::fixtureSweepJson())));
    const std::string good = launchlab::test::fixtureSweepJson();
    const std::vector<std::pair<QString, std::string>> bad = {
        {"cut.json", good.substr(0, good.size() / 2)},
        {"garbage.json", std::string("\x89PNG\r\n\x1a\n\0\0\0", 11)},
        {"run.json", "{\"schema\": \"launchlab.run\", \"schema_version\": 1}"},
        {"empty.json", ""},
    };
    for (const auto& [name, text] : bad) {
      QVERIFY(!pane.openSweepFile(writeFile(m_dir, name, text)));
      QVERIFY2(pane.messageText().startsWith("Cannot show this sweep: " + name + ": "), qPrintable(pane.messageText()));
      QVERIFY(!pane.messageText().contains('\n'));
      QVERIFY(pane.sourceText().contains("good.json"));  // still the good one
    }
    QVERIFY(!pane.openSweepFile(m_dir.path()));  // a folder
    QVERIFY(!pane.openSweepFile(m_dir.filePath("missing.json")));
    // A FIFO blocked the reading thread for good (and the window then ignored SIGTERM); /dev/zero, whose reported
    // size is 0, was read until memory ran out. Both are refused unread.
    QVERIFY(::mkfifo(QFile::encodeName(m_dir.filePath("fifo.json")).constData(), 0600) == 0);
    QVERIFY(!pane.openSweepFile(m_dir.filePath("fifo.json")));
    QVERIFY2(pane.messageText().contains("fifo.json: is a pipe (FIFO), not a regular file"),
             qPrintable(pane.messageText()));
    QVERIFY(QFile::link("/dev/zero", m_dir.filePath("zero.json")));
    QVERIFY(!pane.openSweepFile(m_dir.filePath("zero.json")));
    QVERIFY2(pane.messageText().contains("zero.json: is a device"), qPrintable(pane.messageText()));
    QVERIFY(pane.openSweepFile(m_dir.filePath("good.json")));
    QVERIFY(pane.messageText().isEmpty());
  }

  void theReferenceFolderListsItsSweeps() {
    QTemporaryDir dir;
    writeFile(dir, "b_vector_add.json", launchlab::test::fixtureSweepJson());
    writeFile(dir, "a_other.json", launchlab::test::fixtureSweepJson());
    writeFile(dir, "README.md", "not a sweep");
    const auto files = referenceSweepFiles(dir.path());
    QCOMPARE(files.size(), std::size_t(2));
    QVERIFY(files[0].endsWith("a_other.json"));
    // The build's own folder holds no made-up data: only real recordings go there.
    for (const QString& f : referenceSweepFiles()) {
      QString why;
      QVERIFY2(openSweepFile(f, &why), qPrintable(why));
    }
  }

  void aLiveBlockByGridSweepFillsTheMap() {
    LiveSweep live(2);  // SMs x 1..8: 132 .. 1056 on the default profile (no GPU here)
    auto& [backend, controller, pane, w, done, lines] = live;
    QCOMPARE(pane.button()->text(), QString("Sweep block \u00D7 grid"));
    RunRequest base;
    base.workload = "gridded";
    base.reps = 1;
    const quint64 id = pane.start(w, base, {}, "n = 1Ki");
    QCOMPARE(lines.at(0).at(0).toString(),
             QString("job %1: block \u00D7 grid sweep of cuda-a over 16 block sizes \u00D7 8 grids").arg(id));
    QVERIFY(done.wait(20000));
    QCOMPARE(pane.points().size(), std::size_t(16 * 8));
    QVERIFY(pane.heatmapShown());
    const SweepMap& m = pane.heatmap()->map();
    QCOMPARE(m.grids.front(), std::string("132"));
    QCOMPARE(m.grids.back(), std::string("1056"));
    QCOMPARE(m.at(3, 0), 2.56);  // the fake's kernel median: block threads / 100 (256 threads)
    const auto reqs = backend->requests();
    QCOMPARE(reqs.size(), std::size_t(128));
    QCOMPARE(reqs[1].launch.grid->x, 264u);
    QCOMPARE(reqs[1].launch.block->x, 64u);
    QVERIFY(pane.sourceText().startsWith("Your sweep: gridded on this machine (no GPU)"));
    // Open a recorded one beside it: the live one is still there when switched back.
    QVERIFY(pane.openSweepFile(writeFile(m_dir, "fixture.json", launchlab::test::fixtureSweepJson())));
    pane.showRecorded(false);
    QCOMPARE(pane.heatmap()->map().blocks.size(), std::size_t(16));
  }

  void anNSweepRunsTheGpuVariantAgainstEveryCpuImplementation() {
    LiveSweep live(3);  // N: 2^10 ... 2^26 against the CPU
    auto& [backend, controller, pane, w, done, lines] = live;
    QCOMPARE(pane.button()->text(), QString("Sweep N against the CPU"));
    RunRequest base;
    base.workload = "gridded";
    base.reps = 1;
    const quint64 id = pane.start(w, base, {}, {});
    QCOMPARE(
        lines.at(0).at(0).toString(),
        QString("job %1: N sweep of cuda-a against 2 CPU implementations over 9 sizes (2^10 \u2026 2^26)").arg(id));
    QVERIFY(done.wait(20000));
    const auto reqs = backend->requests();
    QCOMPARE(reqs.size(), std::size_t(9));
    QCOMPARE(reqs.front().impls, (std::vector<std::string>{"cpu-serial", "cpu-parallel", "cuda-a"}));
    QCOMPARE(*reqs.front().n, std::uint64_t(1) << 10);
    QCOMPARE(*reqs.back().n, std::uint64_t(1) << 26);
    QCOMPARE(pane.points().size(), std::size_t(27));  // 9 sizes x 3 implementations, each reported
    // Progress counts cells (sizes); each implementation's point names itself.
    QCOMPARE(lines.at(1).at(0).toString(), QString("sweep 1/9: N = 2^10, cpu-serial: 0.01 ms, 100 GB/s"));
    QVERIFY(lines.at(3).at(0).toString().startsWith("sweep 1/9: N = 2^10, cuda-a: failed: "));
  }
};

QTEST_MAIN(TestSweepHeatmap)
#include "test_sweep_heatmap.moc"
