// The window's parts without the window: the Desk (tabs found by their page, whatever their order; the stage's
// arrangement; side by side or stacked), and a result put on screen (ResultsPresenter) saved and opened again as a
// run file (RunFiles), on the real engine and workloads.
#include <QLabel>
#include <QSignalSpy>
#include <QSplitter>
#include <QTabBar>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>

#include "desk_rig.h"
#include "explorer/roofline_view.h"
#include "explorer/sweep_pane.h"
#include "fakes.h"
#include "models/form_state.h"
#include "models/settings.h"
#include "plots/outputs_pane.h"
#include "runs/history_pane.h"
#include "window/banner.h"
#include "window/desk.h"
#include "window/param_panel.h"
#include "window/results_presenter.h"
#include "window/run_files.h"
#include "window/stage.h"
#include "window/workload_browser.h"

using namespace launchlab;
using namespace launchlab::ui;

class TestDesk : public QObject {
  Q_OBJECT
  std::unique_ptr<test::DeskRig> m_rig;
  Desk* m_desk = nullptr;

  int exportCurrent() const {
    int current = -1;
    const auto targets = m_desk->exportTargets(&current);
    return current >= 0 && current < targets.size() ? current : -1;
  }
  QString exportCurrentName() const {
    int current = -1;
    const auto targets = m_desk->exportTargets(&current);
    return targets.value(current).name;
  }

 private slots:
  void initTestCase() {
    m_rig = std::make_unique<test::DeskRig>(false);
    m_desk = m_rig->desk;
  }

  void cleanupTestCase() { m_rig.reset(); }

  void tabsAreFoundByTheirPageWhateverTheirOrder() {
    m_desk->showTab(m_desk->rooflineView());
    QVERIFY(m_desk->tabShown(m_desk->rooflineView()));
    QCOMPARE(exportCurrentName(), QString("Roofline"));
    // Reordered tabs: the roofline is still the roofline, the sweep still the sweep.
    m_desk->bottomTabs()->tabBar()->moveTab(m_desk->bottomTabs()->indexOf(m_desk->rooflineView()), 0);
    QVERIFY(m_desk->tabShown(m_desk->rooflineView()));
    QCOMPARE(exportCurrentName(), QString("Roofline"));
    m_desk->showTab(m_desk->sweepPane());
    QCOMPARE(exportCurrentName(), QString("Block-size sweep"));
    QVERIFY(m_desk->showTab("hist"));
    QVERIFY(m_desk->tabShown(m_desk->historyPane()));
    QVERIFY(!m_desk->showTab("no such tab"));
    QVERIFY(m_desk->tabShown(m_desk->historyPane()));
    m_desk->showTab(m_desk->timingPage());
    QCOMPARE(exportCurrent(), 0);  // no sweep or roofline in front: the output tab shown (the first)
  }

  void theStageShowsOnePlot() {
    DeskLayout stage{true, true, false, false, false, kStageTiming};
    m_desk->arrange(stage);
    QVERIFY(!m_desk->stageHeader()->isHidden());
    QVERIFY(m_desk->browser()->isHidden());
    QVERIFY(m_desk->outputsPane()->isHidden());  // the timing chart is the stage
    QVERIFY(!m_desk->bottomTabs()->isHidden());
    QVERIFY(m_desk->bottomTabs()->tabBar()->isHidden());
    QVERIFY(m_desk->tabShown(m_desk->timingPage()));
    stage.asking = true;  // the question holds the plot's place
    m_desk->arrange(stage);
    QVERIFY(m_desk->bottomTabs()->isHidden());
    m_desk->arrange(DeskLayout{});  // back at the desk
    QVERIFY(m_desk->stageHeader()->isHidden());
    QVERIFY(!m_desk->browser()->isHidden());
    QVERIFY(!m_desk->outputsPane()->isHidden());
    QVERIFY(!m_desk->bottomTabs()->isHidden());
    QVERIFY(!m_desk->bottomTabs()->tabBar()->isHidden());
  }

  /// An output on the stage is the one view shown (F6 the next): no row of the views' tabs above it, nor the bar;
  /// back at the desk both return.
  void theStageHidesTheOutputTabs() {
    OutputsPane* outputs = m_desk->outputsPane();
    outputs->setWorkload(*m_rig->backend->registry().find("vector_add"), "not run yet");
    QVERIFY(outputs->viewCount() >= 2);
    const auto tabBars = [outputs] {
      QList<QTabBar*> bars;
      for (QTabWidget* t : outputs->findChildren<QTabWidget*>(QString(), Qt::FindDirectChildrenOnly))
        bars << t->tabBar();
      return bars;
    };
    QVERIFY(!tabBars().isEmpty());
    m_desk->arrange({true, true, false, false, false, outputs->viewName(1)});
    QVERIFY(!outputs->isHidden());
    QCOMPARE(outputs->currentIndex(), 1);
    for (QTabBar* b : tabBars()) QVERIFY(b->isHidden());
    m_desk->arrange({true, false, true, false, false, outputs->viewName(1)});  // F4: the desk on the projector
    for (QTabBar* b : tabBars()) QVERIFY(!b->isHidden());
    m_desk->arrange(DeskLayout{});
    for (QTabBar* b : tabBars()) QVERIFY(!b->isHidden());
  }

  void aWideDeskPutsTheChartBesideThePlot() {
    const int minimum = m_desk->minimumSizeHint().width();
    m_desk->arrangeResults(QSize(2560, 1440), minimum, false);
    QCOMPARE(m_desk->resultsSplit()->orientation(), Qt::Horizontal);
    QVERIFY2(m_desk->arrangeResults(QSize(2560, 1440), minimum, true), "presentation mode stacks them");
    QCOMPARE(m_desk->resultsSplit()->orientation(), Qt::Vertical);
    QVERIFY(!m_desk->arrangeResults(QSize(1280, 720), minimum, false));  // already stacked
    QCOMPARE(m_desk->resultsSplit()->orientation(), Qt::Vertical);
  }

  void aResultIsSavedAndOpenedAgainAsARunFile() {
    ResultsPresenter results(*m_desk, *m_rig->controller, m_rig->backend->registry(), *m_rig->settings, nullptr,
                             m_rig->window.get());
    QStringList selected;
    RunFiles files(
        *m_desk, results, m_rig->backend->registry(), *m_rig->settings, [&](const QString& id) { selected << id; },
        m_rig->window.get());
    QVERIFY2(!files.save(m_rig->dir.filePath("nothing.llrun")), "nothing on screen yet");
    QVERIFY(!files.open(m_rig->dir.filePath("missing.llrun")));
    QVERIFY2(m_desk->errorBanner()->text().contains("Cannot open the run"), qPrintable(m_desk->errorBanner()->text()));

    RunRequest req;
    req.workload = "vector_add";
    req.n = 4096;
    req.impls = {"cpu-serial"};
    req.warmup = 0;
    req.reps = 1;
    std::shared_ptr<const RunOutcome> outcome;
    const auto got = connect(m_rig->controller.get(), &RunController::runFinished, this,
                             [&outcome](quint64, std::shared_ptr<const RunOutcome> o) { outcome = std::move(o); });
    QSignalSpy displayed(&results, &ResultsPresenter::runDisplayed);
    results.runStarted();
    const quint64 id = m_rig->controller->startRun(req);
    QTRY_VERIFY_WITH_TIMEOUT(outcome != nullptr, 30000);
    disconnect(got);
    results.display(id, outcome);
    QCOMPARE(displayed.count(), 1);
    QVERIFY(results.last());
    QCOMPARE(results.last()->result.n, std::uint64_t(4096));

    const QString path = m_rig->dir.filePath("saved.llrun");
    QVERIFY(files.save(path));
    QVERIFY(files.open(path));
    QCOMPARE(selected, QStringList{"vector_add"});
    QCOMPARE(m_desk->paramPanel()->form().size, sizeText(4096));  // the recorded request back in the form
    QVERIFY(!m_desk->recordedBanner()->isHidden());
    QVERIFY2(m_desk->recordedBanner()->text().contains("saved.llrun"), qPrintable(m_desk->recordedBanner()->text()));
  }
};

QTEST_MAIN(TestDesk)
#include "test_desk.moc"
