// The History tab offscreen: every finished run is kept with its request (the last N; arrays only within the memory
// budget, the rest handed back to be freed), two are compared side by side with B/A ratios and their outputs, and
// "Copy as command" puts the launchlab-cli line that reproduces a run on the clipboard.
#include <QApplication>
#include <QClipboard>
#include <QPushButton>
#include <QSignalSpy>
#include <QTableWidget>
#include <QTest>

#include "fakes.h"
#include "launchlab/files/command_line.h"
#include "runs/history_pane.h"
#include "runs/run_history.h"

using namespace launchlab;
using namespace launchlab::ui;

namespace {
/// A finished run of `impl` whose total median is `ms`, with one f32 output of `elements` values all `value`.
std::shared_ptr<const RunOutcome> outcome(const std::string& impl, double ms, std::size_t elements, float value,
                                          int reps = 5) {
  auto o = std::make_shared<RunOutcome>();
  o->request.workload = o->result.workload = "vector_add";
  o->request.n = o->result.n = elements;
  o->request.reps = o->result.reps = reps;
  o->request.impls = {impl};
  o->result.dtype = "f32";
  o->result.timestamp = "2026-11-24T12:04:05Z";
  ImplResult i;
  i.implId = i.title = impl;
  i.phases[Phase::Cpu] = i.phases[Phase::Total] = {ms, ms, ms, reps};
  if (elements) {
    i.outputs.emplace_back("out", DType::F32, std::vector<std::size_t>{elements});
    for (float& v : i.outputs.back().view<float>()) v = value;
  }
  o->result.impls.push_back(std::move(i));
  return o;
}
}  // namespace

class TestHistory : public QObject {
  Q_OBJECT
 private slots:
  void boundedInRunsAndInArrayMemory() {
    std::vector<std::shared_ptr<const RunOutcome>> disposed;
    RunHistory h([&](std::shared_ptr<const RunOutcome> o) { disposed.push_back(std::move(o)); }, 3, 1000);
    for (int k = 0; k < 5; ++k) h.add(outcome("cpu-serial", 1 + k, 100, float(k)));  // 400 bytes of arrays each
    QCOMPARE(h.entries().size(), std::size_t(3));                                    // the last 3
    QCOMPARE(h.entries().front().number, quint64(3));
    // 1000 bytes hold the two newest runs' arrays; older ones keep their timings only.
    QVERIFY(!h.entries()[0].full);
    QVERIFY(h.entries()[1].full && h.entries()[2].full);
    QCOMPARE(h.keptBytes(), std::size_t(800));
    QCOMPARE(h.entries()[0].result().impls.front().totalMedianMs(), 3.0);
    QVERIFY(h.entries()[0].result().impls.front().outputs.empty());
    QCOMPARE(disposed.size(), std::size_t(3));  // #1 and #2 (dropped) and #3's arrays
    QCOMPARE(h.entries()[0].summary(), QString("#3 vector_add n=100 f32, 1 implementation, 12:04:05"));
    auto shared = std::make_shared<RunOutcome>(*outcome("cuda", 1, 100, 0));
    shared->result.sharing =
        sharingRule({true, "", {{4242, 0, "python3"}}, 0, 0, 0, 0}, {true, "", {}, 90, 0, 0, 0}, 1, 2);
    h.add(shared);  // flagged where the runs are listed
    QCOMPARE(
        h.entries().back().summary(),
        QString("#6 vector_add n=100 f32, 1 implementation, 12:04:05, GPU SHARED: another process used the GPU: pid "
                "4242 (python3)"));
  }

  void comparesTwoRunsAndCopiesTheCommand() {
    auto backend = std::make_shared<ui::test::FakeBackend>();
    RunController controller(backend);
    HistoryPane pane(controller);
    emit controller.runFinished(1, outcome("cpu-serial", 4, 8, 1.0f));
    emit controller.runFinished(2, outcome("cpu-serial", 2, 8, 1.5f, 7));
    QCOMPARE(pane.list()->rowCount(), 2);
    QVERIFY(pane.list()->item(0, 0)->text().startsWith("#2 "));  // newest on top
    QCOMPARE(pane.list()->item(0, 1)->text(), QString("cpu-serial 2 ms"));
    QVERIFY(!pane.compareButton()->isEnabled());
    pane.list()->selectAll();
    QVERIFY(pane.compareButton()->isEnabled());
    QVERIFY(!pane.copyButton()->isEnabled());
    QTest::mouseClick(pane.compareButton(), Qt::LeftButton);
    QVERIFY(pane.comparisonTitle().startsWith("A = #1 "));
    QCOMPARE(pane.timingTable()->rowCount(), 1);
    QCOMPARE(pane.timingTable()->item(0, 1)->text(), QString("4"));
    QCOMPARE(pane.timingTable()->item(0, 2)->text(), QString("2"));
    QCOMPARE(pane.timingTable()->item(0, 3)->text(), QString("0.50\u00D7 (B faster)"));
    QCOMPARE(pane.outputTable()->item(0, 2)->text(), QString("8 of 8 elements differ, max |A - B| = 0.5"));
    pane.list()->clearSelection();
    pane.list()->selectRow(0);
    QVERIFY(pane.copyButton()->isEnabled());
    QTest::mouseClick(pane.copyButton(), Qt::LeftButton);
    const QString line = QApplication::clipboard()->text();
    QCOMPARE(line, QString("launchlab-cli run vector_add --n 8 --impl cpu-serial --reps 7 --warmup 1 --seed 42"));
    QCOMPARE(pane.statusText(), "Copied: " + line);
    QVERIFY(!pane.compare(1, 99));
  }
};

QTEST_MAIN(TestHistory)
#include "test_history.moc"
