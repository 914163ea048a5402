// An instructor's course folder (--course-dir, launchlab/course/course.h's useCourseDir) in the window: a new
// experiment opens with its own form and runs, Page Down walks into it from the built-in course and out of it again,
// and an edited copy of a built-in experiment (--course-dir-only) runs the instructor's request, not the built-in one.
#include <QApplication>
#include <QFile>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>

#include "app/gui_wiring.h"
#include "launchlab/course/course.h"
#include "models/backend.h"
#include "models/settings.h"
#include "runs/controller.h"
#include "window/banner.h"
#include "window/course_list.h"
#include "window/main_window.h"
#include "window/param_panel.h"
#include "window/stage_controller.h"
#include "window/tree_items.h"
#include "window/workload_browser.h"
#include "window_helpers.h"

using namespace launchlab;
using namespace launchlab::ui;

namespace {

/// One experiment of a course file (docs/COURSE_FORMAT.md), placed after the built-in course's seed files.
QByteArray experiment(const char* id, const char* request, const char* params = "", int line = 1) {
  return QByteArray(R"({"id": ")") + id + R"(", "chapter": "My class", "title": ")" + id + R"( by me",)" +
         R"( "seed": {"file": "zz_my_class.ipynb", "section": "Part 1", "line": )" + QByteArray::number(line) +
         R"(}, "look_for": "INSTRUCTOR VERSION", "request": {)" + request + (*params ? QByteArray(", ") : "") + params +
         "}}";
}

bool writeCourseFile(const QString& path, const QList<QByteArray>& experiments) {
  QFile f(path);
  return f.open(QIODevice::WriteOnly) &&
         f.write(R"({"launchlab_course": 1, "experiments": [)" + experiments.join(",") + "]}") > 0;
}

QStringList implIds(const RunResult& r) {
  QStringList ids;
  for (const auto& i : r.impls) ids << QString::fromStdString(i.implId);
  return ids;
}

}  // namespace

class TestCourseDir : public QObject {
  Q_OBJECT
  QTemporaryDir m_dir;
  std::shared_ptr<Backend> m_backend = app::makeEngineBackend();
  std::unique_ptr<MainWindow> m_window;

  /// A window over the course as it is now (after useCourseDir), on fresh settings, that runs at start only when
  /// `firstRun`.
  void open(const QString& startCourse = {}, bool firstRun = false) {
    m_window.reset();
    MainWindowOptions o;
    o.presetFolder = m_dir.filePath("presets");
    o.firstRun = firstRun;
    o.quickRunSeconds = 0.05;
    o.startCourse = startCourse;
    m_window = std::make_unique<MainWindow>(m_backend, AppSettings::ephemeral(), o);
    m_window->show();
  }

  /// Lets the window's queued start-up (its first action) happen.
  static void drainQueuedCalls() {
    bool drained = false;
    QTimer::singleShot(0, [&drained] { drained = true; });
    QTRY_VERIFY(drained);
  }

  /// A built-in experiment asks its question first and holds its run; Esc skips the question and the run goes ahead.
  bool pressAndWaitForRun(Qt::Key key) {
    QSignalSpy shown(m_window.get(), &MainWindow::runDisplayed);
    QTest::keyClick(m_window.get(), key);
    if (m_window->stage().controller()->holdsRun()) QTest::keyClick(m_window.get(), Qt::Key_Escape);
    return shown.wait(30000);
  }

 private slots:
  void initTestCase() {
    const QString mine = m_dir.filePath("mine");
    QVERIFY(QDir().mkpath(mine));
    QVERIFY(writeCourseFile(
        mine + "/hypot.json",
        {experiment("my-hypot-1024", R"("workload": "hypot", "n": "1024", "dtype": "f32", "impls": "cpu-serial")"),
         experiment("my-vector-add-2048",
                    R"("workload": "vector_add", "n": "2048", "dtype": "f32", "impls": "cpu-serial,cpu-parallel")", "",
                    2)}));
    QVERIFY(useCourseDir(mine.toStdString(), false).empty());
    open();
    QVERIFY(QTest::qWaitForWindowExposed(m_window.get()));
  }

  // Clicked in the Course tab, the instructor's experiment loads its own form, and Run runs it (CPU rows).
  void aNewExperimentOpensWithItsFormAndRuns() {
    CourseList& list = *m_window->desk().browser()->courseList();
    QTreeWidgetItem* item = findTreeItem(list, "my-hypot-1024");
    QVERIFY(item);
    list.setCurrentItem(item);  // what a click does
    QVERIFY(!m_window->desk().errorBanner()->isVisible());
    QCOMPARE(m_window->currentCourseExperiment(), QString("my-hypot-1024"));
    const FormState f = m_window->desk().paramPanel()->form();
    QCOMPARE(f.workload, std::string("hypot"));
    QCOMPARE(f.size, std::string("1024"));
    QCOMPARE(f.impls, std::vector<std::string>{"cpu-serial"});
    QVERIFY(test::runAndWait(*m_window));
    const auto outcome = m_window->results().last();
    QVERIFY(outcome);
    QCOMPARE(outcome->result.workload, std::string("hypot"));
    QCOMPARE(outcome->result.n, std::uint64_t(1024));
    QCOMPARE(implIds(outcome->result), QStringList{"cpu-serial"});
    QVERIFY(outcome->result.allPassed());
  }

  // Page Down on the stage walks from the built-in course's last experiment into the instructor's two and stops
  // after them; Page Up walks back out. Each step loads the experiment's form and runs it.
  void pageDownWalksIntoAndOutOfTheInstructorsExperiments() {
    const Registry& reg = m_backend->registry();
    QString lastBuiltin;
    for (const auto& e : courseExperiments())
      if (e.id.rfind("my-", 0) != 0 && reg.find(e.request.workload)) lastBuiltin = QString::fromStdString(e.id);
    QVERIFY(m_window->openCourseExperiment(lastBuiltin));
    m_window->stage().setPresentationMode(true);
    QApplication::setActiveWindow(m_window.get());
    QVERIFY(QTest::qWaitForWindowActive(m_window.get()));
    QVERIFY(pressAndWaitForRun(Qt::Key_PageDown));
    QCOMPARE(m_window->currentCourseExperiment(), QString("my-hypot-1024"));
    QCOMPARE(m_window->results().last()->result.workload, std::string("hypot"));
    QVERIFY(pressAndWaitForRun(Qt::Key_PageDown));
    QCOMPARE(m_window->currentCourseExperiment(), QString("my-vector-add-2048"));
    QCOMPARE(implIds(m_window->results().last()->result), (QStringList{"cpu-serial", "cpu-parallel"}));
    QTest::keyClick(m_window.get(), Qt::Key_PageDown);  // the last of the course: it stays
    QCOMPARE(m_window->currentCourseExperiment(), QString("my-vector-add-2048"));
    QVERIFY(pressAndWaitForRun(Qt::Key_PageUp));
    QVERIFY(pressAndWaitForRun(Qt::Key_PageUp));
    QCOMPARE(m_window->currentCourseExperiment(), lastBuiltin);
    m_window->stage().setPresentationMode(false);
  }

  // An id the course lacks is one message in the window's banner; it stays there, since no default workload runs
  // in its place at start (its success would hide the message).
  // Another experiment drops the amber lesson banner of the run before (it spoke of that run); a red one stays.
  void anotherExperimentDropsTheLessonBannerOfTheRunBefore() {
    Banner* banner = m_window->desk().errorBanner();
    QVERIFY(m_window->openCourseExperiment("my-hypot-1024"));
    banner->showMessage(Banner::Level::Lesson, "lost 99.8 % of the increments");
    QVERIFY(banner->isVisible());
    QVERIFY(m_window->openCourseExperiment("my-vector-add-2048"));
    QVERIFY2(!banner->isVisible() || banner->level() != Banner::Level::Lesson, qPrintable(banner->text()));
    banner->showMessage(Banner::Level::Error, "a problem of the form");
    QVERIFY(m_window->openCourseExperiment("my-hypot-1024"));
    QVERIFY(banner->isVisible());
    banner->hide();
  }

  void anUnknownStartExperimentIsOneMessageAndNoRun() {
    open("no-such-experiment", true);
    QSignalSpy busy(&m_window->controller(), &RunController::busyChanged);
    drainQueuedCalls();
    QVERIFY(QTest::qWaitForWindowExposed(m_window.get()));
    QVERIFY(m_window->desk().errorBanner()->isVisible());
    QCOMPARE(m_window->desk().errorBanner()->text().toStdString(), unknownCourseMessage("no-such-experiment"));
    QVERIFY(m_window->currentCourseExperiment().isEmpty());
    QCOMPARE(busy.size(), 0);  // no run started
  }

  // --course-dir-only with an edited copy of a built-in experiment: the form and the run are the copy's.
  void anEditedCopyOfABuiltinRunsTheInstructorsRequest() {
    const QString edited = m_dir.filePath("edited");
    QVERIFY(QDir().mkpath(edited));
    QVERIFY(writeCourseFile(edited + "/monte_carlo.json",
                            {experiment("tp31-monte-carlo-cpu",
                                        R"("workload": "monte_carlo_pi", "n": "4096", "dtype": "f32",)"
                                        R"( "impls": "cpu-serial", "reps": "2")",
                                        R"("params": {"iters": "7"})")}));
    QVERIFY(useCourseDir(edited.toStdString(), true).empty());
    QCOMPARE(courseExperiments().size(), std::size_t(1));
    open("tp31-monte-carlo-cpu");
    QVERIFY(QTest::qWaitForWindowExposed(m_window.get()));
    QVERIFY(!m_window->desk().errorBanner()->isVisible());
    const FormState f = m_window->desk().paramPanel()->form();
    QCOMPARE(f.size, std::string("4096"));
    QCOMPARE(f.impls, std::vector<std::string>{"cpu-serial"});
    QCOMPARE(f.params.at("iters"), std::string("7"));
    QCOMPARE(f.reps, 2);
    QVERIFY(test::runAndWait(*m_window));
    const auto outcome = m_window->results().last();
    QVERIFY(outcome);
    QCOMPARE(outcome->result.n, std::uint64_t(4096));
    QCOMPARE(implIds(outcome->result), QStringList{"cpu-serial"});
    QCOMPARE(outcome->result.params.at("iters"), std::string("7"));
    QCOMPARE(outcome->result.reps, 2);
  }

  void cleanupTestCase() { m_window.reset(); }
};

QTEST_MAIN(TestCourseDir)
#include "test_course_dir.moc"
