// The window's parts on their own (offscreen): the outputs pane makes the views a workload's metadata calls
// for and shows a run's arrays; the sweep pane lists what can be swept, says why it cannot, shows the points it
// is given and runs a sweep through the controller; the preset menu lists, saves and loads presets.
#include <qcustomplot.h>

#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QPushButton>
#include <QScrollBar>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QWheelEvent>

#include "explorer/sweep_pane.h"
#include "fakes.h"
#include "launchlab/engine/counters.h"
#include "launchlab/explorer/kernel_resources.h"
#include "models/counters_text.h"
#include "models/settings.h"
#include "plots/charts.h"
#include "plots/outputs_pane.h"
#include "plots/results_tables.h"
#include "plots/sweep_chart.h"
#include "window/preset_menu.h"

using namespace launchlab;
using namespace launchlab::ui;

namespace {

/// Metadata only: a waveform output, a scatter output against input x, a scalar input (no tab), and one
/// implementation of every kind.
class MetaWorkload final : public Workload {
 public:
  MetaWorkload() {
    m_info.id = "meta";
    m_info.title = "Metadata only";
    m_info.inputs = {{"x", "x values"}, {"scale", "scale", PlotKind::Scalar}};
    m_info.outputs = {{"y", "a waveform output whose title is far longer than forty characters"},
                      {"pdf", "pdf against x", PlotKind::Scatter, "x", "pdf", "x"}};
    addImpl("cpu-serial", "CPU serial", ImplKind::CpuSerial, false);
    addImpl("cuda-lib", "CUDA library", ImplKind::CudaLibrary, false);
    addImpl("cuda-a", "CUDA A", ImplKind::Cuda, true);
    addImpl("cuda-b", "CUDA B", ImplKind::Cuda, true);
  }
  const WorkloadInfo& info() const override { return m_info; }
  const std::vector<ImplSpec>& impls() const override { return m_impls; }
  std::vector<HostArray> makeInputs(const RunSetup&) const override { return {}; }
  std::vector<HostArray> makeOutputs(const RunSetup&) const override { return {}; }

 private:
  void addImpl(const char* id, const char* title, ImplKind kind, bool launch) {
    ImplSpec s;
    s.id = id;
    s.title = title;
    s.kind = kind;
    s.usesLaunchConfig = launch;
    m_impls.push_back(s);
  }
  WorkloadInfo m_info;
  std::vector<ImplSpec> m_impls;
};

/// A Fake2D result by hand: every listed implementation produced the image and the histogram.
std::shared_ptr<RunOutcome> fake2dOutcome(const std::vector<std::pair<std::string, bool>>& impls) {
  auto o = std::make_shared<RunOutcome>();
  RunResult& r = o->result;
  r.workload = "fake_2d";
  r.n = 48 * 64;
  r.params = {{"width", "64"}, {"lo", "0"}, {"hi", "1"}};
  r.inputs.emplace_back("img", DType::F32, std::vector<std::size_t>{48, 64});
  for (const auto& [id, gpu] : impls) {
    ImplResult i;
    i.implId = id;
    i.title = id;
    i.gpu = gpu;
    i.outputs.emplace_back("sq", DType::F32, std::vector<std::size_t>{48, 64});
    i.outputs.emplace_back("hist", DType::U32, std::vector<std::size_t>{16});
    r.impls.push_back(std::move(i));
  }
  o->prepared = prepareRun(r, test::Fake2D().info(), 512);
  return o;
}

QStringList actionTexts(const QMenu& m) {
  QStringList out;
  for (QAction* a : m.actions())
    if (!a->isSeparator()) out << a->text();
  return out;
}

}  // namespace

class TestPanes : public QObject {
  Q_OBJECT
 private slots:
  // ---- OutputsPane ----

  void outputsPaneMakesTheViewsTheMetadataCallsFor() {
    OutputsPane pane;
    const test::Fake2D fake;
    pane.setWorkload(fake, "Press Run");
    QCOMPARE(pane.viewCount(), 3);  // two outputs, one input
    QCOMPARE(pane.tabText(0), QString("image squared"));
    QCOMPARE(pane.tabText(1), QString("histogram of the image"));
    QCOMPARE(pane.tabText(2), QString("input: img"));
    for (int i = 0; i < pane.viewCount(); ++i) QCOMPARE(pane.view(i)->drawnPoints(), 0);
    OutputView* first = pane.view(0);
    pane.setWorkload(fake, "again");  // the same workload keeps its views
    QCOMPARE(pane.view(0), first);

    const MetaWorkload meta;
    pane.setWorkload(meta, {});
    // Scalar inputs get no tab; a long title is shortened to the array's name.
    QCOMPARE(pane.viewCount(), 3);
    QCOMPARE(pane.tabText(0), QString("y"));
    QCOMPARE(pane.tabText(1), QString("pdf against x"));
    QCOMPARE(pane.tabText(2), QString("input: x"));
  }

  void outputsPaneShowsARunAndPicksTheImplementation() {
    OutputsPane pane;
    pane.resize(900, 500);
    pane.setWorkload(test::Fake2D(), {});
    pane.setOutcome(fake2dOutcome({{"cpu-serial", false}, {"cpu-parallel", false}, {"cuda", true}}));
    QCOMPARE(pane.shownImpl(), std::string("cuda"));  // the first CUDA variant that ran
    QCOMPARE(pane.view(0)->drawnPoints(), 48 * 64);
    QVERIFY(pane.view(0)->summary().contains("48 x 64"));
    QCOMPARE(pane.view(1)->drawnPoints(), 16);
    QVERIFY(pane.view(0)->exportTitle().contains("cuda"));
    // Without a CUDA result: cpu-parallel; and the choice stays while it keeps producing outputs.
    pane.setOutcome(fake2dOutcome({{"cpu-serial", false}, {"cpu-parallel", false}}));
    QCOMPARE(pane.shownImpl(), std::string("cpu-parallel"));
    pane.setOutcome(fake2dOutcome({{"cpu-serial", false}, {"cpu-parallel", false}, {"cuda", true}}));
    QCOMPARE(pane.shownImpl(), std::string("cpu-parallel"));
  }

  void aZoomMadeDuringLiveModeStaysUntilResetOrTheNextRun() {
    OutputsPane pane;
    pane.resize(900, 500);
    pane.show();
    QVERIFY(QTest::qWaitForWindowExposed(&pane));
    pane.setWorkload(test::Fake2D(), {});
    const auto outcome = fake2dOutcome({{"cpu-serial", false}, {"cuda", true}});
    pane.setOutcome(outcome);
    pane.setCurrentIndex(1);  // the histogram
    auto* plot = qobject_cast<QCustomPlot*>(pane.view(1)->widget());
    QVERIFY(plot);
    plot->replot(QCustomPlot::rpImmediateRefresh);
    const QCPRange whole = plot->xAxis->range();
    auto wheel = [&] {  // the user zooms in with the wheel over the middle of the plot
      const QPointF at = plot->axisRect()->rect().center();
      QWheelEvent e(at, plot->mapToGlobal(at), QPoint(), QPoint(0, 240), Qt::NoButton, Qt::NoModifier,
                    Qt::NoScrollPhase, false);
      QApplication::sendEvent(plot, &e);
    };
    wheel();
    const QCPRange zoomed = plot->xAxis->range();
    QVERIFY2(zoomed.size() < whole.size() * 0.9, qPrintable(QString("%1 of %2").arg(zoomed.size()).arg(whole.size())));
    // Live frames keep it; a frame the user did not zoom in resets as before.
    pane.setOutcome(fake2dOutcome({{"cpu-serial", false}, {"cuda", true}}), /*live=*/true);
    QCOMPARE(plot->xAxis->range(), zoomed);
    pane.setOutcome(fake2dOutcome({{"cpu-serial", false}, {"cuda", true}}), true);
    QCOMPARE(plot->xAxis->range(), zoomed);
    // Reset zoom forgets it: the next live frame shows everything.
    QPushButton* reset = nullptr;
    for (auto* b : pane.findChildren<QPushButton*>())
      if (b->text() == "Reset zoom") reset = b;
    QVERIFY(reset);
    reset->click();
    QCOMPARE(plot->xAxis->range(), whole);
    pane.setOutcome(fake2dOutcome({{"cpu-serial", false}, {"cuda", true}}), true);
    QCOMPARE(plot->xAxis->range(), whole);
    // A run that is not a live frame starts on the whole data too.
    wheel();
    QVERIFY(plot->xAxis->range().size() < whole.size() * 0.9);
    pane.setOutcome(outcome);
    QCOMPARE(plot->xAxis->range(), whole);
  }

  void outputsPaneSaysWhenNothingWasKept() {
    OutputsPane pane;
    pane.setWorkload(test::Fake2D(), {});
    auto o = fake2dOutcome({{"cpu-serial", false}});
    pane.setOutcome(o);
    QCOMPARE(pane.view(0)->drawnPoints(), 48 * 64);
    auto none = std::make_shared<RunOutcome>();
    none->result.workload = "fake_2d";
    none->result.impls.push_back(o->result.impls.front());
    none->result.impls.front().outputs.clear();
    pane.setOutcome(none);
    for (int i = 0; i < pane.viewCount(); ++i) QCOMPARE(pane.view(i)->drawnPoints(), 0);
  }

  // ---- SweepPane ----

  void sweepPaneListsOnlyWhatTakesABlockSize() {
    const MetaWorkload meta;
    const auto impls = sweepableImpls(meta);
    QCOMPARE(impls.size(), std::size_t(2));
    QCOMPARE(impls[0]->id, std::string("cuda-a"));
    QCOMPARE(impls[1]->id, std::string("cuda-b"));
    RunController controller(std::make_shared<test::FakeBackend>());
    SweepPane pane(controller);
    pane.setWorkload(meta);
    QCOMPARE(pane.selectedImpl(), QString("cuda-a"));
    pane.setWorkload(test::Fake2D());  // CPU only
    QCOMPARE(pane.selectedImpl(), QString());
  }

  // Without a GPU: the default profile (sm_90) and the kernel's recorded registers. 40 registers: 12 warps per
  // register-file quarter, 48 per SM: 32 threads -> the 32-block limit, 50%; 256 -> 6 blocks, 75%; 1024 -> 1, 50%.
  void sweepPaneDrawsTheTheoreticalOccupancyOfTheSelectedImplementation() {
    auto backend = std::make_shared<test::FakeBackend>();
    backend->setKernelRecords(
        parseResourceUsage("arch = sm_90\n Function _ZN9launchlab7kernels4meta2kAEPf:\n"
                           "  REG:40 STACK:0 SHARED:0 LOCAL:0\n"));
    RunController controller(backend);
    SweepPane pane(controller);
    const MetaWorkload meta;
    pane.setWorkload(meta);
    const auto& curves = pane.chart()->occupancy();
    QCOMPARE(curves.size(), std::size_t(1));
    QCOMPARE(curves[0].label, QString("occupancy meta::kA (40 regs)"));
    QCOMPARE(curves[0].threads.size(), std::size_t(32));
    QCOMPARE(curves[0].percent[0], 50.0);
    QCOMPARE(curves[0].threads[7], 256.0);
    QCOMPARE(curves[0].percent[7], 75.0);
    QCOMPARE(curves[0].percent[31], 50.0);
    QCOMPARE(pane.chart()->occupancyLabel(), QString("theoretical occupancy (%): sm_90, NVIDIA H100 SXM5"));
    pane.setWorkload(test::Fake2D());  // nothing to sweep: no curve
    QVERIFY(pane.chart()->occupancy().empty());
  }

  void sweepPaneSaysWhyItCannotSweep() {
    RunController controller(std::make_shared<test::FakeBackend>());  // no GPU
    SweepPane pane(controller);
    pane.setWorkload(MetaWorkload());
    pane.updateControls(true);
    QVERIFY(!pane.button()->isEnabled());
    QVERIFY(pane.button()->toolTip().startsWith("No GPU here"));
  }

  void sweepPaneShowsThePointsItIsGiven() {
    RunController controller(std::make_shared<test::FakeBackend>());
    SweepPane pane(controller);
    QSignalSpy lines(&pane, &SweepPane::logLine);
    emit controller.sweepPoint(1, 0, 3, test::sweepPoint(32, Status::Ok));
    emit controller.sweepPoint(1, 1, 3, test::sweepPoint(64, Status::Failed, "too many resources requested"));
    emit controller.sweepPoint(1, 2, 3, test::sweepPoint(96, Status::Ok));
    QCOMPARE(pane.points().size(), std::size_t(3));
    QCOMPARE(pane.chart()->points()[1].threads, std::uint64_t(64));
    QCOMPARE(pane.notes(), QString("Points without a measurement: 64: too many resources requested"));
    QCOMPARE(lines.size(), 3);
    QCOMPARE(lines.at(0).at(0).toString(), QString("sweep 1/3: block 32: 0.5 ms, 800 GB/s"));
    QCOMPARE(lines.at(1).at(0).toString(), QString("sweep 2/3: block 64: failed: too many resources requested"));
    emit controller.sweepFinished(1, true);
    QVERIFY(lines.last().at(0).toString().startsWith("sweep cancelled in "));
  }

  // A sweep spread over a cluster's nodes with two GPU models: one GPU's points at a time, never one curve.
  void sweepPaneDrawsEachGpusPointsOnTheirOwn() {
    RunController controller(std::make_shared<test::FakeBackend>());
    SweepPane pane(controller);
    auto on = [](std::uint64_t threads, const char* gpu) {
      SweepPoint p = test::sweepPoint(threads, Status::Ok);
      p.deviceName = gpu;
      return p;
    };
    emit controller.sweepPoint(1, 0, 4, on(32, "NVIDIA H200"));
    emit controller.sweepPoint(1, 1, 4, on(64, "NVIDIA H200"));
    QVERIFY(!pane.gpuChoice()->isVisibleTo(&pane));  // one GPU so far: nothing to choose
    QCOMPARE(pane.chart()->points().size(), std::size_t(2));
    emit controller.sweepPoint(1, 2, 4, on(32, "NVIDIA A100"));
    emit controller.sweepPoint(1, 3, 4, on(96, "NVIDIA H200"));
    QVERIFY(pane.gpuChoice()->isVisibleTo(&pane));
    QCOMPARE(pane.gpuChoice()->count(), 2);
    QCOMPARE(pane.gpuChoice()->currentText(), QString("NVIDIA H200"));
    QCOMPARE(pane.chart()->points().size(), std::size_t(3));
    for (const auto& p : pane.chart()->points()) QCOMPARE(p.deviceName, std::string("NVIDIA H200"));
    pane.gpuChoice()->setCurrentIndex(1);
    QCOMPARE(pane.chart()->points().size(), std::size_t(1));
    QCOMPARE(pane.chart()->points()[0].deviceName, std::string("NVIDIA A100"));
    QCOMPARE(pane.points().size(), std::size_t(4));  // the sweep keeps every point
  }

  void sweepPaneRunsEveryBlockThroughTheController() {
    auto backend = std::make_shared<test::FakeBackend>();
    backend->stepMs = 1;
    RunController controller(backend);
    SweepPane pane(controller);
    const MetaWorkload meta;
    pane.setWorkload(meta);
    QSignalSpy done(&controller, &RunController::sweepFinished);
    QSignalSpy lines(&pane, &SweepPane::logLine);
    RunRequest base;
    base.workload = "meta";
    base.n = 1024;
    base.reps = 1;
    const quint64 id = pane.start(meta, base, {}, "n = 1Ki f32");
    QVERIFY(id > 0);
    QCOMPARE(lines.at(0).at(0).toString(), QString("job %1: block-size sweep of cuda-a over 32 block sizes").arg(id));
    QVERIFY(pane.chart()->exportTitle().contains("CUDA A (n = 1Ki f32)"));
    QVERIFY(done.wait(20000));
    QCOMPARE(done.at(0).at(1).toBool(), false);
    QCOMPARE(pane.points().size(), std::size_t(32));
    QCOMPARE(pane.points().back().threads, std::uint64_t(1024));
    const auto reqs = backend->requests();
    QCOMPARE(reqs.size(), std::size_t(32));
    QCOMPARE(reqs.front().impls, std::vector<std::string>{"cuda-a"});
    QCOMPARE(reqs.front().launch.block->x, 32u);
    QVERIFY(pane.notes().isEmpty());
    QVERIFY(lines.last().at(0).toString().startsWith("sweep finished in "));
    QCOMPARE(pane.start(test::Fake2D(), base, {}, {}), quint64(0));  // nothing to sweep
  }

  // ---- ResultsTable and LogView ----

  void copyTableCopiesEverythingUnlessCellsAreSelected() {
    RunResult r;
    for (const char* id : {"cpu-serial", "cuda"}) {
      ImplResult i;
      i.implId = i.title = id;
      i.bandwidthGBs = 12.5;
      r.impls.push_back(i);
    }
    ResultsTable table;
    table.setResult(r);
    table.copyToClipboard();
    QStringList lines = QApplication::clipboard()->text().trimmed().split('\n');
    QCOMPARE(lines.size(), 3);  // header + both rows
    QVERIFY(lines[0].startsWith("Implementation\tStatus\t"));
    QVERIFY(lines[2].startsWith("cuda\t"));
    table.item(1, 0)->setSelected(true);  // the user selects cells: only they are copied
    table.item(1, 1)->setSelected(true);
    table.copyToClipboard();
    QCOMPARE(QApplication::clipboard()->text(), QString("Implementation\tStatus\ncuda\tok\n"));
    table.setResult(r);  // a new result drops the selection: the whole table again
    table.copyToClipboard();
    QCOMPARE(QApplication::clipboard()->text().trimmed().split('\n').size(), 3);
  }

  // Counters add columns after the timings, the lesson's (the first asked for) in bold with its meaning on hover;
  // a row without a value says why; the stage line names the lesson's counter per implementation and kernel.
  void countersAreColumnsAndTheLessonsIsOnStage() {
    RunResult r;
    ImplResult cpu;
    cpu.implId = cpu.title = "cpu-serial";
    r.impls.push_back(cpu);
    for (const auto& [id, sectors] : {std::pair{"cuda-coalesced", 4.0}, std::pair{"cuda-strided", 32.0}}) {
      ImplResult g;
      g.implId = g.title = id;
      g.gpu = true;
      ImplCounters c;
      c.requested = {"sectors_per_request", "dram_bytes"};
      c.values = {{"sectors_per_request", sectors}};
      c.unavailable = {{"dram_bytes", "this GPU has no such metric"}};
      g.counters = c;
      r.impls.push_back(g);
    }
    ResultsTable table;
    table.setResult(r);
    QCOMPARE(table.counterIds(), (std::vector<std::string>{"sectors_per_request", "dram_bytes"}));
    const int base = table.columnCount() - 2;
    QVERIFY(table.horizontalHeaderItem(base)->font().bold());
    QVERIFY(!table.horizontalHeaderItem(base + 1)->font().bold());
    QVERIFY(table.horizontalHeaderItem(base)->toolTip().contains(
        QString::fromStdString(findCounter("sectors_per_request")->meaning)));
    QCOMPARE(table.item(1, base)->text(), QString("4.00"));
    QCOMPARE(table.item(2, base)->text(), QString("32.00"));
    QCOMPARE(table.item(1, base + 1)->text(), QString("\u2014"));
    QCOMPARE(table.item(1, base + 1)->toolTip(), QString("this GPU has no such metric"));
    QCOMPARE(table.item(0, base)->text(), QString());  // the CPU row: not asked
    QCOMPARE(countersLine(r), QString("sectors / request (loads): cuda-coalesced 4.00 \u00B7 cuda-strided 32.00"));
    ImplCounters perKernel = *r.impls[1].counters;
    perKernel.kernels = {{"row_sums", 1, {{"sectors_per_request", 32.0}}},
                         {"col_sums", 1, {{"sectors_per_request", 4.0}}}};
    r.impls[1].counters = perKernel;
    QVERIFY(countersLine(r).contains("cuda-coalesced row_sums 32.00, col_sums 4.00"));
    for (auto& i : r.impls)
      if (i.counters) i.counters->error = {CounterErrorKind::NoDevice, "no CUDA device"};
    QCOMPARE(countersLine(r), "Counters: " + QString::fromStdString(counterErrorMessage(r.impls[1].counters->error)));
    table.setResult(r);
    QCOMPARE(table.item(1, base)->toolTip(), QString::fromStdString(counterErrorMessage(r.impls[1].counters->error)));
    RunResult none;
    none.impls.push_back(cpu);
    table.setResult(none);
    QCOMPARE(table.counterIds().size(), std::size_t(0));
    QCOMPARE(countersLine(none), QString());
  }

  void logScrollsToNewLines() {
    LogView log;
    log.resize(400, 120);
    log.show();
    for (int i = 0; i < 200; ++i) log.append(QString("line %1").arg(i));
    QScrollBar* bar = log.verticalScrollBar();
    QVERIFY(bar->maximum() > 0);
    QCOMPARE(bar->value(), bar->maximum());
    bar->setValue(0);  // scrolled back to read: the next entry still brings the view to it
    log.append("newest");
    QCOMPARE(bar->value(), bar->maximum());
  }

  // ---- PresetMenu ----

  void presetMenuListsSavesAndLoadsPresets() {
    QTemporaryDir dir;
    Registry reg;
    reg.add(std::make_unique<test::Fake2D>());
    auto settings = AppSettings::ephemeral();
    FormState form = defaultForm(*reg.find("fake_2d"));
    form.size = "3072";
    form.reps = 3;
    PresetMenu menu(dir.filePath("presets"), reg, *settings, [&form] { return form; });
    QSignalSpy chosen(&menu, &PresetMenu::presetChosen);
    QSignalSpy lines(&menu, &PresetMenu::logLine);
    QSignalSpy failed(&menu, &PresetMenu::failed);

    menu.refill();
    QStringList texts = actionTexts(menu);
    QVERIFY(!texts.contains("my preset"));
    QCOMPARE(texts.first(), QString("(no presets yet)"));  // the course's experiments are the Course tab's
    QCOMPARE(texts.mid(texts.size() - 5),
             (QStringList{"Save current parameters as\xE2\x80\xA6", "Rename preset", "Delete preset",
                          "Import preset file\xE2\x80\xA6", "Export preset file\xE2\x80\xA6"}));

    QVERIFY(menu.saveCurrentAs("  my preset "));
    QCOMPARE(lines.last().at(0).toString(), "saved preset my preset in " + dir.filePath("presets"));
    menu.refill();
    texts = actionTexts(menu);
    QCOMPARE(texts.first(), QString("my preset"));

    form.reps = 9;  // loading gives back what was saved, not the current form
    menu.actions().first()->trigger();
    QCOMPARE(chosen.size(), 1);
    const auto p = chosen.at(0).at(0).value<Preset>();
    QCOMPARE(p.name, QString("my preset"));
    QCOMPARE(p.form.reps, 3);
    QCOMPARE(p.form.size, std::string("3072"));
    QCOMPARE(lines.last().at(0).toString(), QString("loaded preset my preset"));
    QCOMPARE(failed.size(), 0);
    QVERIFY(menu.saveCurrentAs("my preset"));  // saving again says it replaced the preset
    QCOMPARE(lines.last().at(0).toString(), "replaced preset my preset in " + dir.filePath("presets"));
  }

  void presetMenuRenamesAndDeletesUserPresets() {
    QTemporaryDir dir;
    Registry reg;
    reg.add(std::make_unique<test::Fake2D>());
    auto settings = AppSettings::ephemeral();
    const FormState form = defaultForm(*reg.find("fake_2d"));
    PresetMenu menu(dir.filePath("presets"), reg, *settings, [&form] { return form; });
    QSignalSpy lines(&menu, &PresetMenu::logLine);
    QSignalSpy failed(&menu, &PresetMenu::failed);
    QVERIFY(menu.saveCurrentAs("first"));
    QVERIFY(menu.saveCurrentAs("second"));
    menu.refill();
    QMenu* rename = nullptr;
    for (QAction* a : menu.actions())
      if (a->text() == "Rename preset") rename = a->menu();
    QVERIFY(rename && rename->isEnabled());
    QCOMPARE(actionTexts(*rename), (QStringList{"first", "second"}));

    QVERIFY(menu.renamePreset("first", " renamed "));
    QCOMPARE(lines.last().at(0).toString(), QString("renamed preset 'first' to 'renamed'"));
    QVERIFY(menu.store().names().contains("renamed"));
    QVERIFY(!menu.store().names().contains("first"));
    QCOMPARE(menu.store().load("renamed")->name, QString("renamed"));
    QVERIFY(!menu.renamePreset("renamed", "second"));  // taken
    QVERIFY(failed.last().at(0).toString().contains("already exists"));
    QVERIFY(!menu.renamePreset("no such preset", "mine"));
    QVERIFY(failed.last().at(0).toString().contains("no preset named 'no such preset'"));

    QVERIFY(menu.deletePreset("second"));
    QCOMPARE(lines.last().at(0).toString(), QString("deleted preset 'second'"));
    QVERIFY(!menu.store().names().contains("second"));
    QVERIFY(!menu.deletePreset("second"));
  }

  void presetMenuRefusesAnUnknownDtypeAndForgetsAnOldImportError() {
    QTemporaryDir dir;
    Registry reg;
    reg.add(std::make_unique<test::Fake2D>());
    auto settings = AppSettings::ephemeral();
    PresetMenu menu(dir.filePath("presets"), reg, *settings, [] { return FormState{}; });
    QSignalSpy failed(&menu, &PresetMenu::failed);
    QSignalSpy resolved(&menu, &PresetMenu::failureResolved);
    QSignalSpy chosen(&menu, &PresetMenu::presetChosen);
    FormState f16 = defaultForm(*reg.find("fake_2d"));
    f16.dtype = "f16";
    QVERIFY(savePresetFile(dir.filePath("f16.json"), {"half", f16}));
    QVERIFY(!menu.importFrom(dir.filePath("f16.json")));
    QCOMPARE(chosen.size(), 0);
    QCOMPARE(failed.size(), 1);
    const QString error = failed.last().at(0).toString();
    QVERIFY2(error.contains("unknown dtype 'f16'"), qPrintable(error));
    QCOMPARE(resolved.size(), 0);

    FormState good = defaultForm(*reg.find("fake_2d"));
    QVERIFY(savePresetFile(dir.filePath("good.json"), {"good", good}));
    QVERIFY(menu.importFrom(dir.filePath("good.json")));
    QCOMPARE(chosen.size(), 1);
    QCOMPARE(resolved.size(), 1);  // the window drops the stale import error from its banner
    QCOMPARE(resolved.last().at(0).toString(), error);
  }

  // An import never replaces a preset of the same name without asking: cancel keeps it, keep both imports under
  // a free name, replace replaces; an identical preset is not asked about.
  void anImportAsksBeforeItReplacesAPreset() {
    QTemporaryDir dir;
    Registry reg;
    reg.add(std::make_unique<test::Fake2D>());
    auto settings = AppSettings::ephemeral();
    PresetMenu menu(dir.filePath("presets"), reg, *settings, [] { return FormState{}; });
    FormState mine = defaultForm(*reg.find("fake_2d")), theirs = mine;
    theirs.reps = mine.reps + 7;
    QVERIFY(menu.store().save({"lab 3", mine}));
    QVERIFY(savePresetFile(dir.filePath("theirs.json"), {"lab 3", theirs}));
    QStringList asked;
    auto answer = PresetMenu::ImportChoice::Cancel;
    menu.setReplaceQuestion([&](const QString& name) {
      asked << name;
      return answer;
    });
    QVERIFY(!menu.importFrom(dir.filePath("theirs.json")));
    QCOMPARE(asked, QStringList{"lab 3"});
    QCOMPARE(menu.store().load("lab 3")->form, mine);

    answer = PresetMenu::ImportChoice::KeepBoth;
    QVERIFY(menu.importFrom(dir.filePath("theirs.json")));
    QCOMPARE(menu.store().load("lab 3")->form, mine);
    QCOMPARE(menu.store().load("lab 3 (2)")->form, theirs);

    answer = PresetMenu::ImportChoice::Replace;
    QVERIFY(menu.importFrom(dir.filePath("theirs.json")));
    QCOMPARE(menu.store().load("lab 3")->form, theirs);
    QCOMPARE(asked.size(), 3);
    QVERIFY(menu.importFrom(dir.filePath("theirs.json")));  // the same parameters: nothing to ask
    QCOMPARE(asked.size(), 3);
  }

  void presetMenuRefusesAPresetForAMissingWorkload() {
    QTemporaryDir dir;
    Registry reg;
    reg.add(std::make_unique<test::Fake2D>());
    auto settings = AppSettings::ephemeral();
    PresetMenu menu(dir.path(), reg, *settings, [] { return FormState{}; });
    FormState ghost;
    ghost.workload = "not_in_this_build";
    QVERIFY(menu.store().save({"ghost", ghost}));
    QSignalSpy chosen(&menu, &PresetMenu::presetChosen);
    QSignalSpy failed(&menu, &PresetMenu::failed);
    menu.load("ghost");
    QCOMPARE(chosen.size(), 0);
    QCOMPARE(failed.size(), 1);
    QCOMPARE(failed.at(0).at(0).toString(),
             QString("Preset ghost is for workload not_in_this_build, which this build does not have"));
    menu.load("no such preset");
    QCOMPARE(failed.size(), 2);
    QCOMPARE(chosen.size(), 0);
  }
};

QTEST_MAIN(TestPanes)
#include "test_panes.moc"
