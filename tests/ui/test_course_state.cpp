// The course at the window without a widget: where an experiment is among those this build can run, its
// neighbours at both ends, the experiment that opens (or why not), and the view it declares.
#include <QTest>

#include "launchlab/course/course.h"
#include "launchlab/kernels.h"
#include "models/course_state.h"

using namespace launchlab;
using namespace launchlab::ui;

class TestCourseState : public QObject {
  Q_OBJECT
  Registry m_registry;
  std::vector<std::string> m_runnable;  // the course's ids this build can run, in order

 private slots:
  void initTestCase() {
    kernels::registerAllWorkloads(m_registry);
    for (const auto& e : courseExperiments())
      if (m_registry.find(e.request.workload)) m_runnable.push_back(e.id);
    QVERIFY(m_runnable.size() >= 3);
  }

  void positionsCountTheRunnableExperiments() {
    const CoursePosition first = coursePosition(m_registry, m_runnable.front());
    QCOMPARE(first.index, 0);
    QCOMPARE(first.count, int(m_runnable.size()));
    QCOMPARE(coursePosition(m_registry, m_runnable.back()).index, int(m_runnable.size()) - 1);
    QCOMPARE(coursePosition(m_registry, "no-such-experiment").index, -1);
  }

  void neighboursStopAtBothEnds() {
    QCOMPARE(courseNeighbour(m_registry, m_runnable[0], 1), m_runnable[1]);
    QCOMPARE(courseNeighbour(m_registry, m_runnable[1], -1), m_runnable[0]);
    QCOMPARE(courseNeighbour(m_registry, m_runnable.front(), -1), std::string());
    QCOMPARE(courseNeighbour(m_registry, m_runnable.back(), 1), std::string());
    QCOMPARE(courseNeighbour(m_registry, m_runnable[0], 0), std::string());
    // From outside the course: Page Down starts at the first, Page Up at the last.
    QCOMPARE(courseNeighbour(m_registry, "", 1), m_runnable.front());
    QCOMPARE(courseNeighbour(m_registry, "", -1), m_runnable.back());
  }

  void aBuildWithoutTheWorkloadsHasNoCourse() {
    Registry empty;
    QCOMPARE(coursePosition(empty, m_runnable.front()).count, 0);
    QCOMPARE(courseNeighbour(empty, "", 1), std::string());
    CourseState s(empty);
    QString why;
    QVERIFY(!s.open(m_runnable.front(), &why));
    QVERIFY2(why.contains("needs workload"), qPrintable(why));
    QCOMPARE(s.experiment(), nullptr);
  }

  void openingMovesTheStateOnlyWhenItOpens() {
    CourseState s(m_registry);
    QCOMPARE(s.experiment(), nullptr);
    QCOMPARE(s.position().index, -1);
    const std::string id = m_runnable[1];
    const auto p = s.open(id);
    QVERIFY(p);
    QCOMPARE(s.id(), id);
    QVERIFY(s.experiment());
    QCOMPARE(s.experiment()->id, id);
    QCOMPARE(p->form.workload, s.experiment()->request.workload);
    QCOMPARE(p->courseId, QString::fromStdString(id));
    QCOMPARE(s.position().index, 1);
    QCOMPARE(s.neighbour(-1), m_runnable[0]);
    QCOMPARE(s.neighbour(1), m_runnable[2]);

    QString why;
    QVERIFY(!s.open("no-such-experiment", &why));
    QVERIFY(!why.isEmpty());
    QCOMPARE(s.id(), id);  // a refused id leaves the open experiment open

    s.leave();
    QCOMPARE(s.experiment(), nullptr);
    QCOMPARE(s.neighbour(1), m_runnable.front());
  }

  void theDeclaredViewIsTheOpenExperimentsWorkloadsOnly() {
    const CourseExperiment* staged = nullptr;
    for (const auto& e : courseExperiments())
      if (!e.stage.view.empty() && m_registry.find(e.request.workload)) staged = &e;
    QVERIFY(staged);
    CourseState s(m_registry);
    QCOMPARE(s.stageFor(staged->request.workload), StageView{});
    QVERIFY(s.open(staged->id));
    QCOMPARE(s.stageFor(staged->request.workload), staged->stage);
    QCOMPARE(s.stageFor("some_other_workload"), StageView{});
  }
};

QTEST_GUILESS_MAIN(TestCourseState)
#include "test_course_state.moc"
