// Presentation mode and the stage without the whole window: a bare main window with the Desk, the stage's wiring
// and its keys. The stage folds the desk and gives it back (F4, F5), Page Down opens the next course experiment
// through the window's hook and runs it at the preview size unless a question holds the run, and the header says
// where the experiment is.
#include <QAction>
#include <QMainWindow>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QTest>
#include <QToolBar>

#include "desk_rig.h"
#include "fakes.h"
#include "launchlab/course/course.h"
#include "models/settings.h"
#include "window/desk.h"
#include "window/main_actions.h"
#include "window/results_presenter.h"
#include "window/stage.h"
#include "window/stage_controller.h"
#include "window/stage_wiring.h"
#include "window/workload_browser.h"

using namespace launchlab;
using namespace launchlab::ui;

class TestStageWiring : public QObject {
  Q_OBJECT
  std::unique_ptr<test::DeskRig> m_rig;
  Desk* m_desk = nullptr;
  QToolBar* m_toolbar = nullptr;
  StageWiring* m_stage = nullptr;
  MainActions m_actions;
  int m_runs = 0, m_previews = 0;
  QStringList m_opened;

  QAction* action(const QString& text) const {
    for (QAction* a : m_rig->window->findChildren<QAction*>())
      if (a->text() == text) return a;
    return nullptr;
  }

 private slots:
  void initTestCase() {
    m_rig = std::make_unique<test::DeskRig>(true);
    m_desk = m_rig->desk;
    m_rig->window->statusBar()->addWidget(m_desk->statusText(), 1);
    m_toolbar = m_rig->window->addToolBar("Main");
    m_toolbar->setObjectName("mainToolbar");
    auto* results = new ResultsPresenter(*m_desk, *m_rig->controller, m_rig->backend->registry(), *m_rig->settings,
                                         nullptr, m_rig->window.get());
    StageWiring::Hooks hooks{[this] { ++m_runs; }, [this] { ++m_previews; },
                             [this](const QString& id) {
                               m_opened << id;
                               if (!m_stage->course().open(id.toStdString())) return false;
                               m_stage->updateStageHeader();
                               return true;
                             }};
    m_stage = new StageWiring(*m_rig->window, *m_desk, m_rig->backend->registry(), *m_rig->settings, *results, "-",
                              "127.0.0.1", hooks);
    m_actions = makeMainActions(m_rig->window.get());
    m_toolbar->addAction(m_actions.panel);
    m_toolbar->addAction(m_actions.present);
    connect(m_actions.panel, &QAction::toggled, m_stage, &StageWiring::togglePanel);
    connect(m_actions.present, &QAction::toggled, m_stage, &StageWiring::setPresentationMode);
    m_stage->addActions(m_actions.present, m_actions.panel, m_toolbar);
    m_rig->window->show();
  }

  void cleanupTestCase() { m_rig.reset(); }

  void presentationFoldsTheDeskAndGivesItBack() {
    m_actions.present->trigger();  // F5
    QVERIFY(m_stage->presentation());
    QVERIFY(m_stage->onStage());
    QVERIFY(m_desk->stageHeader()->isVisible());
    QVERIFY(!m_toolbar->isVisible());
    QVERIFY(!m_rig->window->statusBar()->isVisible());
    QVERIFY(!m_desk->browser()->isVisible());
    m_actions.panel->trigger();  // F4: the desk, still in presentation mode
    QVERIFY(m_stage->presentation());
    QVERIFY(!m_stage->onStage());
    m_actions.present->trigger();  // F5 again: the window as it was
    QVERIFY(!m_stage->presentation());
    QVERIFY(m_toolbar->isVisible());
    QVERIFY(m_rig->window->statusBar()->isVisible());
    QVERIFY(!m_desk->stageHeader()->isVisible());
  }

  void pageDownOpensTheNextExperiment() {
    QAction* next = action("Next experiment");
    QVERIFY(next);
    QVERIFY2(!next->isEnabled(), "at the desk Page Down is the form's");
    m_actions.present->trigger();
    QVERIFY(next->isEnabled());
    next->trigger();
    QCOMPARE(m_opened.size(), 1);
    const std::string first = courseNeighbour(m_rig->backend->registry(), "", 1);
    QCOMPARE(m_opened.front().toStdString(), first);
    QCOMPARE(m_stage->course().id(), first);
    // A question holds the run until it is answered; otherwise the experiment runs at the preview size.
    QCOMPARE(m_previews, m_stage->controller()->holdsRun() ? 0 : 1);
    QCOMPARE(m_runs, 0);
    const CoursePosition p = m_stage->course().position();
    QCOMPARE(p.index, 0);
    QVERIFY2(m_desk->stageHeader()->fullTitle().startsWith(QString("1 / %1 \u2014 ").arg(p.count)),
             qPrintable(m_desk->stageHeader()->fullTitle()));
    action("Previous experiment")->trigger();  // before the first: nothing opens, the status says so
    QCOMPARE(m_opened.size(), 1);
    QCOMPARE(m_desk->statusText()->text(), QString("The first experiment of the course"));
    m_actions.present->trigger();
  }
};

QTEST_MAIN(TestStageWiring)
#include "test_stage_wiring.moc"
