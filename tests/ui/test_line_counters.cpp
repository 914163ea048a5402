// Counters that say where they come from and show per source line. Two runs of transpose at 4096 x 4096 on the H200
// (tests/data/counters/*.json, as `launchlab-cli run --counters=hardware|accesses --json` wrote them there with the
// student's transpose_unpadded_tile.cu, scripts/gpu/student_window_check.sh: 4 sectors per request, 31 extra cycles
// per read of an unpadded tile's column), one measured by the hardware counters (CUPTI, as root), one from the
// kernel's own accesses (the access probes, as a user made with useradd: no admin rights, per line).
// The labels of every place that shows counters, the per-line table's rows and its costliest line as plain data,
// the table under the kernel editor and the outputs pane's Per line tab, and screenshots of both in the window.
#include <QComboBox>
#include <QFile>
#include <QSignalSpy>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <nlohmann/json.hpp>

#include "app/gui_wiring.h"
#include "editor/code_editor.h"
#include "editor/exercise_store.h"
#include "editor/kernel_editor.h"
#include "launchlab/course/exercise.h"
#include "launchlab/files/json_value.h"
#include "launchlab/files/run_file.h"
#include "launchlab/ptx/ptx_counters.h"
#include "models/counters_text.h"
#include "plot_texts.h"
#include "plots/lesson_data.h"
#include "plots/line_counters.h"
#include "plots/line_counters_view.h"
#include "plots/outputs_pane.h"
#include "plots/results_tables.h"
#include "window/desk.h"
#include "window/editor_wiring.h"
#include "window/main_window.h"
#include "window/param_panel.h"
#include "window/results_presenter.h"
#include "window/run_files.h"
#include "window_helpers.h"

using namespace launchlab;
using namespace launchlab::ui;
using test::anyContains;
using test::textsOf;

namespace {

/// A recorded run of tests/data/counters.
RunResult recorded(const QString& name) {
  QFile f(QString(LAUNCHLAB_TEST_DATA_DIR) + "/counters/" + name);
  if (!f.open(QIODevice::ReadOnly)) return {};
  return nlohmann::ordered_json::parse(f.readAll().toStdString()).get<RunResult>();
}

/// The student's transpose with the seed's unpadded tile (tests/data/counters/transpose_unpadded_tile.cu, the file the
/// recorded runs measured): its loads of lines 35 and 39, the second a column of the tile.
QString unpaddedTranspose() {
  QFile f(QString(LAUNCHLAB_TEST_DATA_DIR) + "/counters/transpose_unpadded_tile.cu");
  return f.open(QIODevice::ReadOnly) ? QString::fromUtf8(f.readAll()) : QString();
}

/// The first run's line of `kind` at `line` for implementation `id`, or null.
const CounterLine* lineOf(const RunResult& r, const char* id, int line, const char* kind) {
  const ImplResult* i = r.find(id);
  if (!i || !i->counters) return nullptr;
  for (const auto& l : i->counters->lines)
    if (l.line == line && l.kind == kind) return &l;
  return nullptr;
}

}  // namespace

class TestLineCounters : public QObject {
  Q_OBJECT
  QTemporaryDir m_dir;
  RunResult m_accesses, m_hardware;

  /// es-coalescing's CPU part run here, its two CUDA kernels as the access probes measured them on the H200.
  RunResult coalescingFromTheAccesses(MainWindow& window) {
    if (!window.openCourseExperiment("es-coalescing")) return {};
    QSignalSpy shown(&window, &MainWindow::runDisplayed);
    window.startFirstRun();
    if (!shown.wait(60000)) return {};
    RunResult r = window.results().last()->result;
    const ImplResult* cpu = r.find("cpu-serial");
    if (!cpu) return {};
    const std::string file = "/work/main/kernels/coalescing/coalescing.cu";
    for (auto& i : r.impls)
      if (i.implId == "cuda-coalesced" || i.implId == "cuda-strided") {
        const double sectors = i.implId == "cuda-coalesced" ? 4.0 : 32.0;
        i.status = Status::Ok;
        i.reason.clear();
        i.outputs = cpu->outputs;
        i.phases[Phase::Kernel] = i.phases[Phase::Total] = {0.05, 0.05, 0.06, 20};
        ImplCounters c = *m_accesses.find("cuda-naive")->counters;
        c.requested = {"sectors_per_request"};
        c.values = {{"sectors_per_request", sectors}};
        c.kernels.clear();
        const double requests = 2 * 524288, ideal = 4;
        c.lines = {{file,
                    17,
                    "load",
                    {{"requests", requests},
                     {"global_requests", requests},
                     {"sectors_per_request", sectors},
                     {"ideal_sectors_per_request", ideal},
                     {"active_lanes_pct", 100}},
                    QString("line 17: each warp's load touches %1 sectors of global memory (4 is the ideal for 4-byte "
                            "elements); 1048576 warp requests, 100 % of the lanes active")
                        .arg(sectors, 0, 'f', 1)
                        .toStdString()},
                   {file,
                    17,
                    "store",
                    {{"requests", requests / 2},
                     {"global_requests", requests / 2},
                     {"sectors_per_request", 4},
                     {"ideal_sectors_per_request", ideal},
                     {"active_lanes_pct", 100}},
                    "line 17: each warp's store touches 4.0 sectors of global memory (4 is the ideal for 4-byte "
                    "elements); 524288 warp requests, 100 % of the lanes active"}};
        i.counters = c;
      }
    return r;
  }
  bool openAsRunFile(MainWindow& window, const RunResult& r, const QString& name) {
    const QString path = m_dir.filePath(name);
    runfile::save(path.toStdString(), r);
    return window.runFiles().open(path);
  }
  /// `show`, then the window at both users' sizes into <folder>/gpu_line_counters_<W>x<H>_<what>.png (none without a
  /// folder).
  static void shootBothSizes(MainWindow& window, const QString& folder, const QString& what,
                             const std::function<void()>& show) {
    if (folder.isEmpty()) return;
    for (const QSize size : {QSize(1280, 720), QSize(1920, 1080)}) {
      window.resize(size);
      show();
      QTest::qWait(400);
      QVERIFY(window.grab().save(
          QString("%1/gpu_line_counters_%2x%3_%4.png").arg(folder).arg(size.width()).arg(size.height()).arg(what)));
    }
  }
  static QWidget* viewWidget(MainWindow& window, const std::string& name) {
    const int i = window.desk().outputsPane()->indexOfView(name);
    return i >= 0 ? window.desk().outputsPane()->view(i)->widget() : nullptr;
  }

 private slots:
  void initTestCase() {
    QVERIFY(unpaddedTranspose().contains("tile[threadIdx.x][threadIdx.y]"));
    m_accesses = recorded("transpose_accesses.json");
    m_hardware = recorded("transpose_hardware.json");
    QVERIFY(m_accesses.find("my-kernel") && m_hardware.find("my-kernel"));
  }

  // ---- where the figures come from ----

  void everyFigureSaysItsSource() {
    const ImplCounters& acc = *m_accesses.find("cuda-tile")->counters;
    const ImplCounters& hw = *m_hardware.find("cuda-tile")->counters;
    QCOMPARE(counterSourceLabel(acc), QString("from the kernel's own accesses (no admin rights)"));
    QCOMPARE(counterSourceLabel(hw), QString("hardware counters"));
    QCOMPARE(counterSourceLabel(ImplCounters{}), QString());  // a file from before the label
    // The stage's line ends with it.
    QVERIFY2(countersLine(m_accesses).endsWith(" \u2014 from the kernel's own accesses (no admin rights)"),
             qPrintable(countersLine(m_accesses)));
    QVERIFY2(countersLine(m_hardware).startsWith("sectors / request (loads): ") &&
                 countersLine(m_hardware).endsWith(" \u2014 hardware counters"),
             qPrintable(countersLine(m_hardware)));
    // Why the accesses measured: on hover.
    // The recorded run asked for the accesses (the H200's driver lets users read the hardware counters); where the
    // fallback chose them, it records why, and the tip says it.
    RunResult refused = m_accesses;
    for (auto& i : refused.impls)
      if (i.counters) i.counters->sourceReason = "this driver lets only administrators read hardware counters";
    QVERIFY2(runCounterSourceTip(refused).contains("only administrators"), qPrintable(runCounterSourceTip(refused)));
    QCOMPARE(runCounterSourceTip(m_accesses), QString("from the kernel's own accesses (no admin rights)"));
    // The Results table: the source under each counter's title, the reason on hover, the source in each cell's tip.
    ResultsTable table;
    table.setResult(m_accesses);
    const int first = table.columnCount() - int(table.counterIds().size());
    QCOMPARE(table.horizontalHeaderItem(first)->text(), QString("sectors / request (loads)\nkernel's own accesses"));
    QVERIFY(table.horizontalHeaderItem(first)->toolTip().contains("Measured: from the kernel's own accesses"));
    int tile = -1;
    for (int row = 0; row < table.rowCount(); ++row)
      if (table.item(row, 0)->text() == QString::fromStdString(m_accesses.find("cuda-tile")->title)) tile = row;
    QVERIFY(tile >= 0);
    QVERIFY2(table.item(tile, first)->toolTip().endsWith("(from the kernel's own accesses (no admin rights))"),
             qPrintable(table.item(tile, first)->toolTip()));
    table.setResult(m_hardware);
    QCOMPARE(table.horizontalHeaderItem(first)->text(), QString("sectors / request (loads)\nhardware counters"));
    // A run whose first implementation CUPTI measured and whose next the probes did (CUPTI refused meanwhile).
    RunResult mixed = m_hardware;
    mixed.impls.back().counters = *m_accesses.find(mixed.impls.back().implId)->counters;
    QCOMPARE(runCounterSource(mixed),
             QString("hardware counters and from the kernel's own accesses (no admin rights)"));
  }

  void theSectorMapsSayHowTheyWereMeasured() {
    SectorPanel p;
    QCOMPARE(sectorsSourceText(p), std::string("counted from warp 0's map"));
    p.measured = true;
    QCOMPARE(sectorsSourceText(p), std::string("measured by the counters"));  // a file that does not say
    p.source = m_hardware.find("cuda-tile")->counters->source;
    QCOMPARE(sectorsSourceText(p), std::string("measured by the hardware counters"));
    p.source = m_accesses.find("cuda-tile")->counters->source;
    QCOMPARE(sectorsSourceText(p), std::string("measured from the kernel's own accesses (no admin rights)"));
  }

  // ---- per source line, as data ----

  void linesBecomeRowsAndTheCostliestIsTheConflictingLoad() {
    QCOMPARE(implsWithLines(m_accesses), (std::vector<std::string>{"cuda-naive", "cuda-tile", "my-kernel"}));
    QVERIFY(implsWithLines(m_hardware).empty());
    RunResult withOther = m_accesses;  // a line of another file (a header the student's file includes)
    withOther.impls.back().counters->lines.push_back({"other.cuh", 3, "load", {{"requests", 1}}, "line 3: …"});
    const LineCountersTable t = lineCounters(withOther, "my-kernel", "/home/student/transpose_unpadded_tile.cu");
    QVERIFY(t.missing.isEmpty());
    QCOMPARE(t.rows.size(), std::size_t(4));  // the editor's file only
    QCOMPARE(lineCounters(withOther, "my-kernel").rows.size(), std::size_t(5));
    QCOMPARE(t.rows[0].line, 35);
    QCOMPARE(t.rows[0].kind, QString("load"));
    QCOMPARE(sectorsCellText(t.rows[0]), QString("4.00 (ideal 4)"));
    QCOMPARE(conflictsCellText(t.rows[0]), QString("\u2014"));  // a global access
    QCOMPARE(conflictsCellText(t.rows[1]), QString("0"));       // the tile's row: no conflict
    QCOMPARE(t.worst, 2);                                       // line 39's read of a tile column: 31 extra cycles
    QCOMPARE(t.rows[2].line, 39);
    QCOMPARE(conflictsCellText(t.rows[2]), QString("16.3 M"));
    QVERIFY2(worstLineText(t).startsWith("Costliest: line 39 (load, highlighted) \u2014 each warp's shared load takes "
                                         "32.0 cycles, 31.0 more than the ideal"),
             qPrintable(worstLineText(t)));
    QVERIFY(!meaningText(t.rows[2]).startsWith("line "));
    // The built-in naive kernel: its strided store, 32 sectors where 4 would do.
    const LineCountersTable naive = lineCounters(m_accesses, "cuda-naive");
    QVERIFY(naive.worst >= 0);
    QCOMPARE(naive.rows[std::size_t(naive.worst)].kind, QString("store"));
    QCOMPARE(sectorsCellText(naive.rows[std::size_t(naive.worst)]), QString("32.0 (ideal 4)"));
  }

  void withoutPerLineFiguresTheTableSaysWhy() {
    const LineCountersTable hw = lineCounters(m_hardware, "my-kernel");
    QVERIFY(hw.rows.empty());
    QVERIFY2(hw.missing.contains("hardware counters") && hw.missing.contains("LAUNCHLAB_COUNTER_SOURCE=accesses"),
             qPrintable(hw.missing));
    QVERIFY(lineCounters(m_accesses, "cpu-serial").missing.contains("turn Counters on"));
    QVERIFY(lineCounters(m_accesses, "cuda-tile-padded-64").missing.contains("not in this run"));
    // Every line at its ideal: nothing highlighted.
    RunResult padded = m_accesses;
    for (auto& l : padded.impls.back().counters->lines) l.values["bank_conflicts"] = 0;
    const LineCountersTable t = lineCounters(padded, "my-kernel");
    QCOMPARE(t.worst, -1);
    QVERIFY(worstLineText(t).startsWith("Every line is at its ideal"));
    // A file from before the ideal was recorded: sectors beyond one per request count.
    RunResult old = m_accesses;
    for (auto& i : old.impls)
      if (i.counters)
        for (auto& l : i.counters->lines) l.values.erase("ideal_sectors_per_request");
    const LineCountersTable o = lineCounters(old, "cuda-naive");
    QCOMPARE(o.rows[std::size_t(o.worst)].kind, QString("store"));
    QCOMPARE(sectorsCellText(o.rows[std::size_t(o.worst)]), QString("32.0"));
  }

  // ---- the widgets ----

  void theEditorShowsItsLinesAndGoesToTheClickedOne() {
    auto backend = app::makeEngineBackend();
    KernelEditor e(*backend, nullptr, m_dir.filePath("exercises"));
    e.setWorkload("transpose");
    e.editor()->setPlainText(unpaddedTranspose());
    e.resize(900, 700);
    e.show();
    QVERIFY(QTest::qWaitForWindowExposed(&e));
    LineCountersView* v = e.lineCounters();
    QVERIFY(!v->isVisible());  // no run measured my-kernel yet
    e.showRunCounters(m_accesses);
    QVERIFY(v->isVisible());
    QTableWidget* rows = v->tableWidget();
    QCOMPARE(rows->rowCount(), 4);
    QVERIFY(rows->item(2, 0)->font().bold() && !rows->item(0, 0)->font().bold());
    QVERIFY(rows->item(2, 4)->background().color() != rows->item(0, 4)->background().color());
    QVERIFY2(v->headingText().contains("from the kernel's own accesses (no admin rights)"),
             qPrintable(v->headingText()));
    QVERIFY(v->footText().startsWith("Costliest: line 39"));
    QSignalSpy asked(v, &LineCountersView::lineActivated);
    const QRect cell = rows->visualItemRect(rows->item(2, 0));
    QTest::mouseClick(rows->viewport(), Qt::LeftButton, {}, cell.center());
    QCOMPARE(asked.count(), 1);
    QCOMPARE(e.editor()->cursorLine(), 39);
    // Measured by the hardware counters: the table says how to get lines; a run without counters hides it.
    e.showRunCounters(m_hardware);
    QVERIFY(v->isVisible() && !rows->isVisible());
    QVERIFY(v->headingText().contains("LAUNCHLAB_COUNTER_SOURCE=accesses"));
    RunResult none = m_accesses;
    for (auto& i : none.impls) i.counters.reset();
    e.showRunCounters(none);
    QVERIFY(!v->isVisible());
  }

  void theOutputsPaneHasAPerLineTabWhileARunHasLines() {
    auto registry = app::builtInWorkloads();
    const Workload* w = registry->find("transpose");
    QVERIFY(w);
    OutputsPane pane;
    pane.setWorkload(*w, "no run");
    const int views = pane.viewCount();
    auto outcome = std::make_shared<RunOutcome>();
    outcome->result = m_accesses;
    pane.setOutcome(outcome);
    const int tab = pane.indexOfView("per_line");
    QVERIFY(tab >= 0);
    QCOMPARE(pane.viewCount(), views + 1);
    QCOMPARE(pane.tabText(tab), QString("Per line"));
    // No implementation kept outputs to show: the first with lines is shown (the naive kernel's one line, two kinds).
    QCOMPARE(pane.view(tab)->drawnPoints(), 2);
    QVERIFY(pane.view(tab)->widget()->findChild<QTableWidget*>()->item(0, 6)->text().contains("sectors"));
    auto hardware = std::make_shared<RunOutcome>();
    hardware->result = m_hardware;
    pane.setOutcome(hardware);
    QCOMPARE(pane.indexOfView("per_line"), -1);
    QCOMPARE(pane.viewCount(), views);
  }

  void theCoalescingLessonSaysItsCountersCameFromTheAccesses() {
    auto window = test::openWindow(app::makeEngineBackend(), m_dir.filePath("presets"));
    QVERIFY(QTest::qWaitForWindowExposed(window.get()));
    RunResult r = coalescingFromTheAccesses(*window);
    QVERIFY(!r.impls.empty());
    QVERIFY(openAsRunFile(*window, r, "coalescing.llrun"));
    const QStringList texts = textsOf(viewWidget(*window, "sectors"));
    QVERIFY2(texts.contains("32.00 sectors / request") &&
                 anyContains(texts, "measured from the kernel's own accesses (no admin rights)"),
             qPrintable(texts.join("|")));
    const int tab = window->desk().outputsPane()->indexOfView("per_line");
    QVERIFY(tab >= 0);
    auto* show = window->desk().outputsPane()->findChild<QComboBox*>();  // the Show list: the strided kernel
    QVERIFY(show && show->findData("cuda-strided") >= 0);
    show->setCurrentIndex(show->findData("cuda-strided"));
    QVERIFY2(window->desk().outputsPane()->view(tab)->summary().startsWith("Costliest: line 17 (load"),
             qPrintable(window->desk().outputsPane()->view(tab)->summary()));
    show->setCurrentIndex(show->findData("cuda-coalesced"));
    QVERIFY(window->desk().outputsPane()->view(tab)->summary().startsWith("Every line is at its ideal"));
  }

  // ---- on a GPU, through the worker the window runs its work in ----

  /// What a student without admin rights gets (LAUNCHLAB_COUNTER_SOURCE=accesses, as where the driver refuses CUPTI):
  /// their transpose with an unpadded tile run from the window, each load of a tile's column 31 wavefronts over the
  /// one it needs, then the coalescing lesson, 32 sectors per strided request against 4. Skipped without a GPU.
  /// LAUNCHLAB_LINE_COUNTERS_SHOTS=<folder> saves the window: gpu_line_counters_<W>x<H>_<what>.png.
  void aStudentsKernelIsMeasuredLineByLineOnTheGpu() {
    qputenv("LAUNCHLAB_COUNTER_SOURCE", "accesses");  // read by the worker when it starts
    std::shared_ptr<Backend> backend = app::makeIsolatedBackend(LAUNCHLAB_CLI_PATH);
    if (!backend->deviceStatus().available) QSKIP("no CUDA device: the student's kernel cannot run here");
    MainWindowOptions o;
    o.presetFolder = m_dir.filePath("presets");
    o.exerciseFolder = m_dir.filePath("live");
    o.firstRun = false;
    MainWindow w(backend, AppSettings::ephemeral(), o);
    w.resize(1280, 720);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    w.selectWorkload("transpose");
    w.desk().kernelEditor()->editor()->setPlainText(unpaddedTranspose());
    ParamPanel* panel = w.desk().paramPanel();
    QTRY_VERIFY(panel->myKernelBox()->isVisibleTo(panel));
    panel->myKernelBox()->setChecked(true);
    panel->countersBox()->setChecked(true);
    QVERIFY(panel->check().ok());
    QVERIFY(test::runAndWait(w, 180000));
    const RunResult transpose = w.results().last()->result;
    const ImplResult* mine = transpose.find(std::string(kMyKernel));
    QVERIFY(mine && mine->counters);
    QVERIFY2(mine->status == Status::Ok, mine->reason.c_str());
    QCOMPARE(mine->verification.outcome, Verification::Outcome::Pass);
    QCOMPARE(QString::fromStdString(mine->counters->source), QString::fromUtf8(ptx::kAccessSource.data()));
    // A warp reads one column of the 32 x 32 tile: its 32 lanes on one bank, 31 wavefronts more than the one it
    // needs, on every request; the row written at line 35 needs one.
    const CounterLine* column = lineOf(transpose, "my-kernel", 39, "load");
    const CounterLine* row = lineOf(transpose, "my-kernel", 35, "store");
    QVERIFY(column && row && column->values.count("shared_requests") && row->values.count("bank_conflicts"));
    QCOMPARE(column->values.at("bank_conflicts"), 31 * column->values.at("shared_requests"));
    QCOMPARE(row->values.at("bank_conflicts"), 0.0);
    LineCountersView* lines = w.desk().kernelEditor()->lineCounters();
    w.editor().show();
    QTRY_VERIFY(lines->isVisible());
    QVERIFY2(lines->footText().startsWith("Costliest: line 39"), qPrintable(lines->footText()));
    const QString folder = qEnvironmentVariable("LAUNCHLAB_LINE_COUNTERS_SHOTS");
    shootBothSizes(w, folder, "editor", [&] { w.desk().kernelEditor()->editor()->goToLine(39); });

    QVERIFY(w.openCourseExperiment("es-coalescing"));
    QSignalSpy shown(&w, &MainWindow::runDisplayed);
    w.startFirstRun();
    QVERIFY(shown.wait(180000));
    const RunResult lesson = w.results().last()->result;
    for (const auto& [id, sectors] : {std::pair{"cuda-coalesced", 4.0}, std::pair{"cuda-strided", 32.0}}) {
      const ImplResult* i = lesson.find(id);
      QVERIFY2(i && i->status == Status::Ok && i->counters, id);
      QCOMPARE(i->counters->values.at("sectors_per_request"), sectors);
    }
    QVERIFY(anyContains(textsOf(viewWidget(w, "sectors")), "measured from the kernel's own accesses"));
    OutputsPane* pane = w.desk().outputsPane();
    shootBothSizes(w, folder, "coalescing_map", [&] { pane->setCurrentIndex(pane->indexOfView("sectors")); });
    shootBothSizes(w, folder, "coalescing_lines", [&] { pane->setCurrentIndex(pane->indexOfView("per_line")); });
    qunsetenv("LAUNCHLAB_COUNTER_SOURCE");
  }

  /// LAUNCHLAB_LINE_COUNTERS_SHOTS=<folder>: the window at 1280x720 and 1920x1080 with the student's transpose and
  /// its lines under the editor, and the lesson's Per line tab in front: <folder>/line_counters_<W>x<H>_<what>.png.
  void screenshots() {
    const QString folder = qEnvironmentVariable("LAUNCHLAB_LINE_COUNTERS_SHOTS");
    if (folder.isEmpty()) QSKIP("set LAUNCHLAB_LINE_COUNTERS_SHOTS=<folder> to save the screenshots");
    auto window = test::openWindow(app::makeEngineBackend(), m_dir.filePath("presets"));
    QVERIFY(QTest::qWaitForWindowExposed(window.get()));
    window->selectWorkload("transpose");
    window->desk().kernelEditor()->editor()->setPlainText(unpaddedTranspose());
    const QString path = m_dir.filePath("transpose.llrun");
    runfile::save(path.toStdString(), m_accesses);
    QVERIFY(window->runFiles().open(path));
    for (const QSize size : {QSize(1280, 720), QSize(1920, 1080)}) {
      window->resize(size);
      const QString stem = QString("%1/line_counters_%2x%3_").arg(folder).arg(size.width()).arg(size.height());
      window->editor().show();
      window->desk().kernelEditor()->editor()->goToLine(39);
      QTest::qWait(300);
      QVERIFY(window->desk().kernelEditor()->lineCounters()->isVisible());
      QVERIFY(window->grab().save(stem + "editor.png"));
      window->desk().outputsPane()->setCurrentIndex(window->desk().outputsPane()->indexOfView("per_line"));
      QTest::qWait(300);
      QVERIFY(window->grab().save(stem + "lesson.png"));
    }
    const RunResult coalescing = coalescingFromTheAccesses(*window);
    QVERIFY(openAsRunFile(*window, coalescing, "coalescing.llrun"));
    for (const QSize size : {QSize(1280, 720), QSize(1920, 1080)}) {
      window->resize(size);
      const QString stem = QString("%1/line_counters_%2x%3_").arg(folder).arg(size.width()).arg(size.height());
      window->desk().outputsPane()->setCurrentIndex(window->desk().outputsPane()->indexOfView("sectors"));
      QTest::qWait(300);
      QVERIFY(window->grab().save(stem + "coalescing_map.png"));
      window->desk().outputsPane()->setCurrentIndex(window->desk().outputsPane()->indexOfView("per_line"));
      QTest::qWait(300);
      QVERIFY(window->grab().save(stem + "coalescing_lines.png"));
    }
  }
};

QTEST_MAIN(TestLineCounters)
#include "test_line_counters.moc"
