// What the stage's header says, without a window: the title line with the course position, the run's line (and a
// preview's note), the headline (the measure that answers the experiment, or the fastest implementation), and the
// caption.
#include <QTest>

#include "launchlab/course/course.h"
#include "models/stage_text.h"

using namespace launchlab;
using namespace launchlab::ui;

namespace {
ImplResult impl(const std::string& id, const std::string& title, double totalMs, double speedup, bool gpu) {
  ImplResult i;
  i.implId = id;
  i.title = title;
  i.gpu = gpu;
  i.phases[Phase::Kernel] = PhaseStats{totalMs / 3, totalMs / 3, totalMs / 3, 1};
  i.phases[Phase::Total] = PhaseStats{totalMs, totalMs, totalMs, 1};
  i.speedupTotal = speedup;
  if (gpu) i.launch = LaunchConfig{Dim3{16, 1, 1}, Dim3{256, 1, 1}};
  return i;
}

RunResult run() {
  RunResult r;
  r.workload = "vector_add";
  r.n = 4096;
  r.dtype = "float32";
  r.impls = {impl("cpu-serial", "CPU serial", 8.0, 1.0, false),
             impl("cuda-grid-stride", "CUDA grid-stride", 0.5, 16.0, true)};
  return r;
}
}  // namespace

class TestStageText : public QObject {
  Q_OBJECT
 private slots:
  void theTitleLineSaysWhereTheExperimentIs() {
    QCOMPARE(positionText({6, 60}), QString("7 / 60"));
    QCOMPARE(positionText({-1, 60}), QString());
    QCOMPARE(stageTitleLine("7 / 60", "Coalescing"), QString("7 / 60 \u2014 Coalescing"));
    QCOMPARE(stageTitleLine("", "Vector add"), QString("Vector add"));
  }

  void theRunLineIsTheShownRunsWhenItIsOfTheWorkloadOnShow() {
    const RunResult r = run();
    const StageRunText t = stageRunText(&r, "vector_add", false);
    QVERIFY(t.current);
    QCOMPARE(t.launch, QString("n = 4,096 float32, launched 16 blocks x 256 threads (cuda-grid-stride)"));
    QCOMPARE(t.note, QString());  // no counters asked for
    const StageRunText other = stageRunText(&r, "mandelbrot", false);
    QVERIFY(!other.current);
    QVERIFY(other.launch.isEmpty());
    QVERIFY(!stageRunText(nullptr, "vector_add", false).current);
  }

  void aPreviewIsSaidOnTheRunLine() {
    const RunResult r = run();
    QCOMPARE(stageRunText(&r, "vector_add", true).launch,
             QString("n = 4,096 float32, launched 16 blocks x 256 threads (cuda-grid-stride)  \u00B7  preview (Ctrl+R: "
                     "full size)"));
    QCOMPARE(previewNote(1048576, 10485760),
             QString("preview at N = 1,048,576 of the experiment's 10,485,760: Run (Ctrl+R) for the full size"));
  }

  void outsideTheCourseTheHeadlineIsTheFastest() {
    RunResult r = run();
    QCOMPARE(headlineTiming(r), QString("fastest: CUDA grid-stride 500 \u00B5s, 16.0x vs CPU serial"));
    QCOMPARE(stageHeadline(nullptr, r), headlineTiming(r));
    r.impls.pop_back();  // CPU serial alone: no speedup against itself
    QCOMPARE(headlineTiming(r), QString("fastest: CPU serial 8 ms"));
    r.impls.front().status = Status::Failed;
    QCOMPARE(headlineTiming(r), QString());
  }

  void inTheCourseTheHeadlineAnswersTheQuestion() {
    CourseExperiment e;
    e.id = "test-ratio";
    e.title = "grid-stride against serial";
    Prediction p;
    p.question = "How much faster?";
    p.answer.unit = "\u00D7";
    p.measure.name = "speedup";
    p.measure.of = "cuda-grid-stride";
    e.predictions = {p};
    const QString h = stageHeadline(&e, run());
    QVERIFY2(!h.isEmpty(), "a course experiment's headline is its measure");
    QVERIFY2(h != headlineTiming(run()), qPrintable(h));
  }

  void theCaptionJoinsWhatIsThere() {
    QCOMPARE(stageCaption("the longer bar", "counters"), QString("Look for: the longer bar  \u00B7  counters"));
    QCOMPARE(stageCaption("the longer bar", ""), QString("Look for: the longer bar"));
    QCOMPARE(stageCaption("", "counters"), QString("counters"));
    QCOMPARE(stageCaption("", ""), QString());
  }
};

QTEST_GUILESS_MAIN(TestStageText)
#include "test_stage_text.moc"
