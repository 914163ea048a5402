// The browser's Course tab: every seed experiment in the course's order, one click loads the seed's size, dtype,
// parameters and launch into the form, the lesson pane says where it is in the seed and what differs, the search
// filters it, and --course (MainWindowOptions::startCourse) opens one at start.
#include <QSignalSpy>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QTextBrowser>

#include "app/gui_wiring.h"
#include "launchlab/course/course.h"
#include "models/backend.h"
#include "models/settings.h"
#include "runs/controller.h"
#include "window/banner.h"
#include "window/course_list.h"
#include "window/main_window.h"
#include "window/param_panel.h"
#include "window/tree_items.h"
#include "window/workload_browser.h"
#include "window_helpers.h"

using namespace launchlab;
using namespace launchlab::ui;

namespace {

/// The course list's experiment ids, top to bottom (notes, which load nothing, have none).
QStringList listedIds(const CourseList& list) {
  QStringList ids;
  for (int i = 0; i < list.topLevelItemCount(); ++i)
    for (int j = 0; j < list.topLevelItem(i)->childCount(); ++j)
      if (const QString id = list.topLevelItem(i)->child(j)->data(0, kTreeIdRole).toString(); !id.isEmpty()) ids << id;
  return ids;
}

/// The course list's note items, top to bottom.
int listedNotes(const CourseList& list) {
  int notes = 0;
  for (int i = 0; i < list.topLevelItemCount(); ++i)
    for (int j = 0; j < list.topLevelItem(i)->childCount(); ++j)
      notes += list.topLevelItem(i)->child(j)->text(0).startsWith("Note: ") ? 1 : 0;
  return notes;
}

/// Empty when the form holds the experiment's request, else what differs.
QString formMismatch(const FormState& f, const RequestText& t) {
  QStringList d;
  if (f.workload != t.workload) d << "workload " + QString::fromStdString(f.workload);
  if (f.size != t.n) d << "size " + QString::fromStdString(f.size);
  if (f.dtype != t.dtype) d << "dtype " + QString::fromStdString(f.dtype);
  if (f.autoBlock != (t.block == "auto") || (!f.autoBlock && f.block != t.block))
    d << "block " + QString::fromStdString(f.block);
  if (f.autoGrid != (t.grid == "auto") || (!f.autoGrid && f.grid != t.grid))
    d << "grid " + QString::fromStdString(f.grid);
  for (const auto& [k, v] : t.params)
    if (auto it = f.params.find(k); it == f.params.end() || it->second != v) d << "param " + QString::fromStdString(k);
  if (std::to_string(f.reps) != t.reps || std::to_string(f.warmup) != t.warmup) d << "reps/warmup";
  return d.join(", ");
}

}  // namespace

class TestCourseView : public QObject {
  Q_OBJECT
  std::unique_ptr<MainWindow> m_window;
  QTemporaryDir m_dir;

  CourseList& list() { return *m_window->desk().browser()->courseList(); }
  QString lessonText() { return m_window->desk().browser()->findChild<QTextBrowser*>()->toPlainText(); }

 private slots:
  void initTestCase() {
    m_window = test::openWindow(app::makeEngineBackend(), m_dir.filePath("presets"));
    QVERIFY(QTest::qWaitForWindowExposed(m_window.get()));
  }

  void listsEveryExperimentInTheCoursesOrder() {
    QStringList expected;
    for (const auto& e : courseExperiments()) expected << QString::fromStdString(e.id);
    QCOMPARE(listedIds(list()), expected);
    QCOMPARE(listedNotes(list()), int(courseNotes().size()));
    QCOMPARE(list().visibleCount(), int(courseExperiments().size() + courseNotes().size()));
  }

  void pickingAnExperimentLoadsTheSeedsRequest() {
    for (const auto& e : courseExperiments()) {
      const QString id = QString::fromStdString(e.id);
      QTreeWidgetItem* item = findTreeItem(list(), id);
      QVERIFY2(item, qPrintable(id));
      list().setCurrentItem(item);  // what a click does
      QVERIFY2(m_window->desk().browser()->courseTabShown(), qPrintable(id));
      const QString diff = formMismatch(m_window->desk().paramPanel()->form(), e.request);
      QVERIFY2(diff.isEmpty(), qPrintable(id + ": " + diff));
      // The lesson pane is the experiment's: its seed file and what to look for.
      const QString lesson = lessonText();
      QVERIFY2(lesson.contains(QString::fromStdString(e.seed.file)), qPrintable(id));
      QVERIFY2(lesson.contains(QString::fromStdString(e.lookFor).left(40)), qPrintable(id));
      QVERIFY2(m_window->desk().paramPanel()->check().ok(), qPrintable(id));
    }
  }

  void runningAnExperimentRunsTheSeedsSize() {
    const CourseExperiment* e = findCourseExperiment("tp32-histogram");
    QVERIFY(e);
    QVERIFY(m_window->openCourseExperiment("tp32-histogram"));
    QVERIFY(test::runAndWait(*m_window));
    const auto outcome = m_window->results().last();
    QVERIFY(outcome);
    QCOMPARE(outcome->result.workload, e->request.workload);
    QCOMPARE(std::to_string(outcome->result.n), e->request.n);
    QVERIFY(outcome->result.status == Status::Ok);
    QVERIFY(outcome->result.allPassed());
  }

  void theLessonFollowsTheTabOnTop() {
    QVERIFY(m_window->openCourseExperiment("tp32-atomic-counter"));
    QVERIFY(lessonText().contains("Look for"));
    auto* tabs = m_window->desk().browser()->findChild<QTabWidget*>();
    tabs->setCurrentIndex(0);  // Workloads: the workload's own lesson, not the experiment's
    QVERIFY(!lessonText().contains("Look for"));
    QVERIFY(lessonText().contains("Implementations"));
    tabs->setCurrentIndex(1);
    QVERIFY(lessonText().contains("Look for"));
  }

  void theSearchFiltersTheCourseToo() {
    m_window->desk().browser()->setFilter("tp32-hypot");
    QCOMPARE(list().visibleCount(), 2);  // hypot's two launches of TP 3.2 (1 x 1 and 128 x 64)
    m_window->desk().browser()->setFilter("no such experiment at all");
    QCOMPARE(list().visibleCount(), 0);
    m_window->desk().browser()->setFilter("");
    QCOMPARE(list().visibleCount(), int(courseExperiments().size() + courseNotes().size()));
  }

  void anUnknownExperimentIsOneErrorAndChangesNothing() {
    const FormState before = m_window->desk().paramPanel()->form();
    QVERIFY(!m_window->openCourseExperiment("no-such-experiment"));
    QVERIFY(m_window->desk().errorBanner()->isVisible());
    QVERIFY(m_window->desk().paramPanel()->form() == before);
  }

  void startCourseOpensTheExperimentAtStart() {
    MainWindowOptions o;
    o.presetFolder = m_dir.filePath("presets2");
    o.firstRun = false;
    o.startCourse = "es-atomic-counter-4x128";
    MainWindow w(app::makeEngineBackend(), AppSettings::ephemeral(), o);
    const CourseExperiment* e = findCourseExperiment("es-atomic-counter-4x128");
    QVERIFY(e);
    QCOMPARE(formMismatch(w.desk().paramPanel()->form(), e->request), QString());
    QVERIFY(w.desk().browser()->courseTabShown());
    QCOMPARE(w.desk().browser()->courseList()->current(), QString("es-atomic-counter-4x128"));
  }

  void cleanupTestCase() { m_window.reset(); }
};

QTEST_MAIN(TestCourseView)
#include "test_course_view.moc"
