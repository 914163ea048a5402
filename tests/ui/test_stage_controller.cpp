// The stage's predict-then-reveal flow without a window: a question asked before the run, an answer refused with
// its reason or kept, the run's reveal (measured answer, the prediction, how far off, why), the caption on the
// stage, and the student's kept predictions (atomic file, summary, CSV).
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include "launchlab/course/course.h"
#include "launchlab/course/course_headline.h"
#include "stage_fixtures.h"
#include "window/prediction_store.h"
#include "window/stage.h"
#include "window/stage_controller.h"
#include "window/stage_prompt.h"

using namespace launchlab;
using namespace launchlab::ui;
using namespace launchlab::test;

namespace {
struct Stage {
  StageHeader header;
  StagePrompt prompt;
  QLabel hints;
  PredictionStore store;
  StageController controller{&header, &prompt, &hints, &store};
};
}  // namespace

class TestStageController : public QObject {
  Q_OBJECT
 private slots:
  void theQuestionWaitsAndABadAnswerSaysWhy() {
    Stage s;
    const CourseExperiment e = ratioExperiment("ex-ratio");
    QSignalSpy run(&s.controller, &StageController::runRequested);
    s.controller.setExperiment(&e, "3 / 60", "Coalescing", nullptr);
    QVERIFY(s.controller.holdsRun());
    QVERIFY(!s.prompt.isHidden());
    QCOMPARE(s.prompt.questionLabel()->text(), QString::fromStdString(e.predictions[0].question));
    QCOMPARE(s.header.fullTitle(), QString("3 / 60 \u2014 Coalescing"));
    QVERIFY(s.header.headlineLabel()->isHidden());  // nothing measured yet
    s.prompt.answerField()->setText("lots");
    QTest::keyClick(s.prompt.answerField(), Qt::Key_Return);
    QCOMPARE(run.count(), 0);
    QVERIFY(s.controller.holdsRun());
    QVERIFY(!s.prompt.findChild<QLabel*>("stageAnswerError")->text().isEmpty());
    s.prompt.answerField()->setText("4");
    QTest::keyClick(s.prompt.answerField(), Qt::Key_Return);
    QCOMPARE(run.count(), 1);
    QVERIFY(!s.controller.holdsRun());
    QCOMPARE(s.controller.guess()->number, 4.0);
  }

  void theRunRevealsTheAnswerThePredictionAndWhy() {
    Stage s;
    const CourseExperiment e = ratioExperiment("ex-ratio");
    s.controller.setExperiment(&e, "3 / 60", "Coalescing", nullptr);
    s.controller.submit("4");
    const RunResult r = runOf(0.2, 1.0);
    s.controller.showRun(&r, "n = 4,096", "");
    QVERIFY(s.controller.revealed());
    const Prediction& p = e.predictions[0];
    const MeasureValue v = measure(p.measure, r);
    QVERIFY(v.ok());
    QCOMPARE(s.header.headlineLabel()->text(), QString::fromStdString(headlineOf(p, v)));
    const QString reveal = s.prompt.revealLabel()->text();
    QVERIFY2(reveal.contains("Measured") && reveal.contains("You predicted <b>4"), qPrintable(reveal));
    QVERIFY(reveal.contains(QString::fromStdString(scoreGuess(p, v, Guess{4, {}}).text).toHtmlEscaped()));
    QVERIFY(reveal.contains(QString::fromStdString(p.explain)));
    QCOMPARE(s.store.records().size(), std::size_t(1));
    const PredictionRecord& kept = s.store.records()[0];
    QCOMPARE(kept.experiment, QString("ex-ratio"));
    QVERIFY(kept.comparable && kept.close);  // 5× measured, 4× predicted: within 2×
    // A second display of the same run keeps one record.
    s.controller.showRun(&r, "n = 4,096", "");
    QCOMPARE(s.store.records().size(), std::size_t(1));
  }

  // The stage's caption: cut after two lines with an ellipsis, whatever its length; a short one whole.
  void firstLinesCutsAfterTheLinesAsked() {
    QFont f;
    f.setPixelSize(20);
    const QString shortText = "Coalesced loads: one sector per four threads.";
    QCOMPARE(firstLines(shortText, f, 1200, 2), shortText);
    QString longText;
    for (int i = 0; i < 40; ++i) longText += QString("Sentence %1 says why the strided kernel is slower. ").arg(i);
    const QString cut = firstLines(longText, f, 600, 2);
    QVERIFY(cut.endsWith(QChar(0x2026)));
    QVERIFY(longText.startsWith(cut.left(cut.size() - 1).trimmed().left(40)));
    QLabel label;
    label.setWordWrap(true);
    label.setFont(f);
    label.setText(cut);
    QVERIFY2(label.heightForWidth(600) <= 2 * QFontMetrics(f).lineSpacing() + 4, qPrintable(cut));
    QCOMPARE(firstLines(longText, f, 600, 0), longText);
  }

  void onTheStageTheRevealIsOneLineAndTheWhyACaption() {
    Stage s;
    s.controller.setPresentation(true, 720);
    const CourseExperiment e = ratioExperiment("ex-ratio");
    s.controller.setExperiment(&e, "3 / 60", "Coalescing", nullptr);
    QVERIFY(s.header.lessonLabel()->isHidden());  // the look-for caption waits for L
    s.controller.toggleLookFor();
    QVERIFY(!s.header.lessonLabel()->isHidden());
    QVERIFY(s.header.lessonLabel()->text().contains("strided kernel's longer bar"));
    s.controller.toggleLookFor();
    s.controller.skip();
    const RunResult r = runOf(0.2, 1.0);
    s.controller.showRun(&r, "n = 4,096", "");
    QVERIFY(s.prompt.questionLabel()->isHidden());
    QVERIFY(s.prompt.revealLabel()->isHidden());  // skipped: the headline alone
    QVERIFY(!s.header.lessonLabel()->isHidden());
    QVERIFY(s.header.fullLesson().contains(QString::fromStdString(e.predictions[0].explain)));
    s.controller.toggleLookFor();  // L: what to look for in the why's place
    QVERIFY(s.header.lessonLabel()->text().contains("strided kernel's longer bar"));
    QVERIFY(!s.header.lessonLabel()->text().contains(QString::fromStdString(e.predictions[0].explain)));
    QVERIFY(QFontInfo(s.header.headlineLabel()->font()).pixelSize() >= 32);
    QVERIFY(QFontInfo(s.prompt.revealLabel()->font()).pixelSize() >= 20);
    QVERIFY(QFontInfo(s.prompt.questionLabel()->font()).pixelSize() >= 24);
    QVERIFY(s.store.records().empty());  // skipped: nothing to keep
  }

  void anotherExperimentsRunOnScreenIsNotTheAnswer() {
    Stage s;
    const CourseExperiment a = ratioExperiment("ex-a"), b = ratioExperiment("ex-b");
    s.controller.setExperiment(&a, "1 / 2", "A", nullptr);
    const RunResult r = runOf(0.2, 1.0);
    s.controller.showRun(&r, "", "");
    s.controller.setExperiment(&b, "2 / 2", "B", &r);
    s.controller.showRun(&r, "", "");
    QVERIFY(!s.controller.revealed());
    QVERIFY(s.controller.holdsRun());
  }

  void aChoiceQuestionHasAButtonPerChoice() {
    Stage s;
    CourseExperiment e = ratioExperiment("ex-choice");
    Prediction& p = e.predictions[0];
    p.answer = AnswerKind{};
    p.answer.choices = {"cuda-coalesced", "cuda-strided"};
    p.measure = MeasureSpec{};
    p.measure.name = "fastest";
    s.controller.setExperiment(&e, "", "Choice", nullptr);
    QCOMPARE(s.prompt.choiceButtons().size(), 2);
    QSignalSpy run(&s.controller, &StageController::runRequested);
    QTest::mouseClick(s.prompt.choiceButtons()[1], Qt::LeftButton);
    QCOMPARE(run.count(), 1);
    QCOMPARE(s.controller.guess()->choice, std::string("cuda-strided"));
  }

  void predictionsAreKeptAndExported() {
    QTemporaryDir dir;
    const QString path = dir.filePath("sub/predictions.json");
    PredictionStore store(path);
    QCOMPARE(store.load(), QString());  // no file yet: empty
    PredictionRecord a{"ex-a", "memory", "How many, \"really\"?", "4\u00D7", "5.0\u00D7", "within 2\u00D7",
                       true,   true,     "2026-11-29T10:00:00Z"};
    PredictionRecord b{"ex-b", "threads", "Which?", "cuda-x", "cuda-y", "wrong", true, false, "2026-11-29T10:01:00Z"};
    QCOMPARE(store.record(a), QString());
    QCOMPARE(store.record(b), QString());
    a.guess = "6\u00D7";  // answered again: replaces
    QCOMPARE(store.record(a), QString());
    PredictionStore back(path);
    QCOMPARE(back.load(), QString());
    QCOMPARE(back.records().size(), std::size_t(2));
    QVERIFY(back.records()[0] == a);
    QVERIFY(back.records()[1] == b);
    const PredictionSummary sum = back.summary();
    QCOMPARE(sum.answered, 2);
    QCOMPARE(sum.close, 1);
    QCOMPARE(sum.byChapter.at("memory").close, 1);
    QVERIFY(back.summaryText().startsWith("2 answered \u00B7 1 within 2\u00D7"));
    const QStringList lines = QString::fromUtf8(back.csv()).split('\n', Qt::SkipEmptyParts);
    QCOMPARE(lines.size(), 3);
    QCOMPARE(lines[0], QString("experiment,chapter,question,prediction,measured,score,within_2x,time"));
    QVERIFY2(lines[1].startsWith("ex-a,memory,\"How many, \"\"really\"\"?\",6\u00D7,"), qPrintable(lines[1]));
    QVERIFY(lines[1].contains(",yes,") && lines[2].contains(",no,"));
    // A damaged file is reported, not taken for predictions.
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write("{not json");
    f.close();
    PredictionStore damaged(path);
    QVERIFY(!damaged.load().isEmpty());
    QVERIFY(damaged.records().empty());
  }
};

QTEST_MAIN(TestStageController)
#include "test_stage_controller.moc"
